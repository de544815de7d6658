/**
 * The rows of loc's PostgreSQL tables as pg returns them (bigint already a Number, see postgres.ts),
 * the statements that read them, and the port's records made from them.
 */
import type { AuditEntry } from '../audit-store.ts';
import type { Challenge, KeyUse, PanelSession, Passkey, Rotation, User } from '../panel-store.ts';
import type { Account, ApiKey, KeyLimits, KeyMode, KeyStatus, SavedLocation, Updated } from '../store.ts';
import type { TrafficKind, UsageHour } from '../usage-store.ts';

export interface AccountRow {
  id: string; name: string; partner: boolean; created_at: number;
  ceiling_hourly_limit: number | null; ceiling_embed_hourly_limit: number | null; ceiling_session_limit: number | null;
}
export interface KeyRow {
  id: string; account_id: string; label: string | null; status: KeyStatus; origins: string[]; ip_ranges: string[];
  hourly_limit: number | null; embed_hourly_limit: number | null; session_limit: number | null; mode: KeyMode; created_at: number;
}
export interface SessionRow {
  sid: string; secret_hash: string; key_id: string; account_id: string; origin: string; created_at: number; expires_at: number;
  status: KeyStatus; partner: boolean; countries: string[] | null; bounds: { south: number; west: number; north: number; east: number } | null;
}
export interface LocationRow {
  account_id: string; code: string; latitude: number; longitude: number; address: string | null; label: string | null; created_at: number;
}

/**
 * The statement that updates one row and returns it twice: as the update left it (`alias`'s columns)
 * and, as `before`, the row it found, read and locked FOR UPDATE by the same statement, so no other
 * process changes the row between the two. `found` is the SELECT of the row, its columns those of
 * the table's record.
 */
export const updateReturningBefore = (table: string, alias: string, set: string, found: string, columns: string): string =>
  `UPDATE ${table} ${alias} SET ${set} FROM (${found} FOR UPDATE) o WHERE ${alias}.id = o.id RETURNING ${columns}, to_jsonb(o) AS before`;

/** A row of updateReturningBefore's statement as the port's Updated record; null when none matched. */
export function updated<R, T>(row: (R & { before: R }) | undefined, record: (row: R) => T): Updated<T> | null {
  if (row === undefined) return null;
  const { before, ...after } = row;
  return { before: record(before), after: record(after as R) };
}

export const KEY_COLUMNS = 'k.id, k.account_id, k.label, k.status, k.origins, k.ip_ranges, k.hourly_limit, k.embed_hourly_limit, k.session_limit, k.mode, k.created_at';
export const LOCATION_COLUMNS = 'account_id, code, latitude, longitude, address, label, created_at';

/** The table of the locations each mode of key saves: a live query never reads a test key's saves. */
export const LOCATION_TABLE: Record<KeyMode, string> = { live: 'locations', test: 'test_locations' };

export const account = (r: AccountRow): Account => ({ id: r.id, name: r.name, partner: r.partner, createdAt: r.created_at });
export const accountLimits = (r: AccountRow): KeyLimits => ({
  hourlyLimit: r.ceiling_hourly_limit, embedHourlyLimit: r.ceiling_embed_hourly_limit, sessionLimit: r.ceiling_session_limit,
});
export const key = (r: KeyRow): ApiKey => ({
  id: r.id, accountId: r.account_id, label: r.label, status: r.status, origins: r.origins, ipRanges: r.ip_ranges,
  hourlyLimit: r.hourly_limit, embedHourlyLimit: r.embed_hourly_limit, sessionLimit: r.session_limit, mode: r.mode, createdAt: r.created_at,
});
export const location = (r: LocationRow, mode: KeyMode): SavedLocation => ({
  accountId: r.account_id, mode, code: r.code, latitude: r.latitude, longitude: r.longitude, address: r.address, label: r.label,
  createdAt: r.created_at,
});

export interface UserRow {
  id: string; account_id: string; email: string; operator: boolean; password_hash: string | null; created_at: number; activated_at: number | null;
}
export interface PanelSessionRow { hash: string; user_id: string; created_at: number; expires_at: number; authenticated_at: number; ip: string; user_agent: string }
/** A panel session with its user's columns (SESSION_USER_COLUMNS), the one that shares a name with the session's renamed. */
export interface SessionUserRow extends PanelSessionRow {
  account_id: string; email: string; operator: boolean; password_hash: string | null; user_created_at: number; activated_at: number | null;
}
export interface PasskeyRow {
  id: string; user_id: string; public_key: string; counter: number; transports: string[]; name: string; created_at: number; last_used_at: number | null;
}
export interface ChallengeRow { challenge: string; purpose: Challenge['purpose']; user_id: string | null; expires_at: number }
export interface RotationRow { old_key_id: string; new_key_id: string; started_at: number; finished_at: number | null }
export interface KeyUseRow { key_id: string; at: number; origin: string | null; ip: string }

/** The user's columns of a SessionUserRow, as a query names them. */
export const SESSION_USER_COLUMNS = 'u.account_id, u.email, u.operator, u.password_hash, u.created_at AS user_created_at, u.activated_at';

/** Whether a look-up key holds U+0000, which no stored text can (see postgres.ts): such a key finds nothing. */
export const unstorable = (...values: string[]): boolean => values.some((value) => value.includes('\0'));

export const user = (r: UserRow): User => ({
  id: r.id, accountId: r.account_id, email: r.email, operator: r.operator, passwordHash: r.password_hash, createdAt: r.created_at, activatedAt: r.activated_at,
});
export const panelSession = (r: PanelSessionRow): PanelSession => ({
  hash: r.hash, userId: r.user_id, createdAt: r.created_at, expiresAt: r.expires_at, authenticatedAt: r.authenticated_at, ip: r.ip, userAgent: r.user_agent,
});
export const sessionUser = (r: SessionUserRow): User => user({ ...r, id: r.user_id, created_at: r.user_created_at });
export const passkey = (r: PasskeyRow): Passkey => ({
  id: r.id, userId: r.user_id, publicKey: r.public_key, counter: r.counter, transports: r.transports, name: r.name, createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});
export const challenge = (r: ChallengeRow): Challenge => ({ challenge: r.challenge, purpose: r.purpose, userId: r.user_id, expiresAt: r.expires_at });
export const rotation = (r: RotationRow): Rotation => ({ oldKeyId: r.old_key_id, newKeyId: r.new_key_id, startedAt: r.started_at, finishedAt: r.finished_at });
export const keyUse = (r: KeyUseRow): KeyUse => ({ keyId: r.key_id, at: r.at, origin: r.origin, ip: r.ip });

export interface UsageRow {
  key_id: string; kind: TrafficKind; hour: number; used: number; refused_limit: number; refused_origin: number; refused_ip: number; refused_inactive: number;
}
export interface AuditRow {
  seq: number; at: number; account_id: string; via: AuditEntry['via']; actor: string; source: string; action: string; target: string | null;
  /** jsonb, parsed by pg. */
  details: AuditEntry['details'];
}

export const usageHour = (r: UsageRow): UsageHour => ({
  keyId: r.key_id, kind: r.kind, hour: r.hour, used: r.used,
  refused: { limit: r.refused_limit, origin: r.refused_origin, ip: r.refused_ip, inactive: r.refused_inactive },
});
export const auditEntry = (r: AuditRow): AuditEntry => ({
  seq: r.seq, at: r.at, accountId: r.account_id, via: r.via, actor: r.actor, source: r.source, action: r.action, target: r.target, details: r.details,
});
