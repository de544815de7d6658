/**
 * PostgreSQL's errors that mean the machine or the network rather than the request is at fault, as
 * the port's StoreUnavailable, the way sqlite-errors.ts does it for SQLite: the server answers them
 * 503 with Retry-After and carries on, and the next query succeeds once the database does.
 */
import { StoreUnavailable, type UnavailableReason } from '../store.ts';

/** SQLSTATEs of a database at fault (PostgreSQL's appendix A), each as the port names it. */
const SQLSTATE: Readonly<Record<string, UnavailableReason>> = {
  '53100': 'full', // disk_full
  '25006': 'read-only', // read_only_sql_transaction: a hot standby, or default_transaction_read_only
  '58030': 'io-error', // io_error
  '40001': 'busy', // serialization_failure
  '40P01': 'busy', // deadlock_detected
  '55P03': 'busy', // lock_not_available
  '53300': 'busy', // too_many_connections
  '57014': 'busy', // query_canceled: statement_timeout, the 5 s a statement may take
  '3D000': 'cannot-open', // invalid_catalog_name: the database named in the URL does not exist
  '28000': 'cannot-open', // invalid_authorization_specification
  '28P01': 'cannot-open', // invalid_password
};

/** Classes and codes of a database out of reach: connection exceptions, and a server shutting down or starting. */
const UNREACHABLE_SQLSTATE = /^(08|57P0[1-4])/;

/** Node's errors of a socket that cannot reach, or lost, the server. */
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** pg's own errors, without a code, of a connection lost or never made. */
const UNREACHABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client was closed|Client has encountered a connection error)/;

/** `error` as the port's StoreUnavailable when PostgreSQL or the network is at fault; otherwise unchanged. */
export function translatePostgresError(error: unknown): unknown {
  if (error instanceof StoreUnavailable) return error;
  const reason = reasonOf(error);
  if (reason === undefined) return error;
  const { message, code } = error as { message?: string; code?: string };
  return new StoreUnavailable(reason, code === undefined ? String(message) : `${message} (${code})`, { cause: error });
}

function reasonOf(error: unknown): UnavailableReason | undefined {
  if (!(error instanceof Error)) return undefined;
  // Node tries each address of a name (localhost: ::1, then 127.0.0.1) and reports them all together.
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SQLSTATE[code] !== undefined) return SQLSTATE[code];
    if (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code)) return 'unreachable';
    return undefined;
  }
  return UNREACHABLE_MESSAGE.test(error.message) ? 'unreachable' : undefined;
}
