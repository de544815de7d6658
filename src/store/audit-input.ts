/**
 * What every adapter of the audit store (audit-store.ts) does the same way, so that the engines cannot
 * differ on it: details kept as JSON text (what SQLite stores and PostgreSQL's jsonb reads back), the
 * page asked for made whole, and the one refusal the port knows, an entry for no account.
 */
import type { AuditQuery, AuditValue } from './audit-store.ts';

/** The details as stored: JSON, so that every engine gives back what JSON gives back. */
export const detailsText = (details: Readonly<Record<string, AuditValue>>): string => JSON.stringify(details);

/**
 * The page of a query as the engines take it: no `before` is before every seq, a limit is a whole
 * number ≥ 0 (SQLite would read a negative LIMIT as none, PostgreSQL refuse it).
 */
export function auditPage(query: AuditQuery): { before: number; limit: number } {
  return { before: query.before ?? Number.MAX_SAFE_INTEGER, limit: Math.max(0, Math.floor(query.limit)) };
}

/**
 * An entry for an account that does not exist: a caller's bug, said the same way by every engine
 * (SQLite's and PostgreSQL's foreign key refuse it, the memory store checks).
 */
export const noAccount = (accountId: string, cause?: unknown): Error =>
  new Error(`no account ${accountId} to hold the audit entry`, cause === undefined ? undefined : { cause });
