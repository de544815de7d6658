/**
 * The audit log (`Store.audit`): every change made in the partner panel or with the operator CLI —
 * who, what, when, from where — for the account's users and the operators to read. Append-only: the
 * port has no way to change or remove an entry, and the SQL engines refuse UPDATE and DELETE on the
 * table with a trigger. Every engine passes the same conformance suite (`test/conformance/audit-store.ts`).
 *
 * Who is kept as text (an e-mail address, or the operator CLI's), not as a user id: a user removed
 * from a team stays named in what they did.
 */

/** A value of an entry's details: what was added, set or removed. */
export type AuditValue = string | number | boolean | null | readonly string[];

export interface AuditEntry {
  /** The entry's place in the log: increasing with every append, never reused. */
  seq: number;
  /** When, ms since the epoch. */
  at: number;
  /** The account the change concerns (its keys, its team, its partner status). */
  accountId: string;
  /** Where the change was made. */
  via: 'panel' | 'cli';
  /** Who made it: the panel user's e-mail address; for the CLI, the system user who ran it. */
  actor: string;
  /** From where: the panel user's IP address; for the CLI, the machine's host name. */
  source: string;
  /** What was done, one of audit/audit-log.ts's actions (`key.create`, `key.origin_add`, …). */
  action: string;
  /** What it was done to: a key's id, a user's e-mail address, an account's name; null when the action says it. */
  target: string | null;
  /** The particulars (the origin added, the limit set, …); never a secret. */
  details: Readonly<Record<string, AuditValue>>;
}

export type NewAuditEntry = Omit<AuditEntry, 'seq'>;

export interface AuditQuery {
  /** One account's entries; null: every account's (operators). */
  accountId: string | null;
  /** Only entries before this seq (the next page); none: from the newest. */
  before?: number;
  /** At most this many, newest first. */
  limit: number;
}

export interface AuditStore {
  /** Appends an entry and returns it with its seq. */
  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Entries newest first (highest seq first). */
  listAudit(query: AuditQuery): Promise<AuditEntry[]>;
}

// What every engine's adapter does alike, so that the engines cannot differ on it: details kept as
// JSON text (what SQLite stores and PostgreSQL's jsonb reads back), the page asked for made whole, and
// the one refusal the port knows, an entry for no account.

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
