/**
 * SQLite's errors that mean the machine rather than the request is at fault, as the port's
 * StoreUnavailable: the server answers them 503 and carries on.
 */
import Database from 'better-sqlite3';
import { StoreUnavailable, type UnavailableReason } from '../store.ts';

/** SQLite's result codes of a machine at fault; an extended code (`SQLITE_IOERR_WRITE`) counts as its primary one. */
const UNAVAILABLE: Readonly<Record<string, UnavailableReason>> = {
  SQLITE_FULL: 'full',
  SQLITE_READONLY: 'read-only',
  SQLITE_IOERR: 'io-error',
  SQLITE_BUSY: 'busy',
  SQLITE_LOCKED: 'busy',
  SQLITE_CANTOPEN: 'cannot-open',
  // loc.db is some other file (not SQLite at all): found at open, so loc serve says it in one line.
  SQLITE_NOTADB: 'cannot-open',
};

/** `error` as the port's StoreUnavailable when SQLite says the machine is at fault; otherwise unchanged. */
export function translateSqliteError(error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const primary = /^SQLITE_[A-Z]+/.exec(error.code)?.[0];
  const reason = primary === undefined ? undefined : UNAVAILABLE[primary];
  return reason === undefined ? error : new StoreUnavailable(reason, `${error.message} (${error.code})`, { cause: error });
}
