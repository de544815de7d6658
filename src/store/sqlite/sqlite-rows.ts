/**
 * The rows of loc's SQLite tables as better-sqlite3 returns them, and the port's records made from
 * them: SQLite's names and 0/1 booleans stay in the adapter.
 */
import type Database from 'better-sqlite3';
import type { AuditEntry } from '../audit-store.ts';
import type { Challenge, KeyUse, PanelSession, Passkey, Rotation, User } from '../panel-store.ts';
import type { Account, ApiKey, KeyLimits, KeyMode, KeyStatus, SavedLocation, Updated } from '../store.ts';
import type { TrafficKind, UsageHour } from '../usage-store.ts';

/**
 * A row before and after `write`, read around it in one IMMEDIATE transaction: the write lock is taken
 * first, so no other process (the CLI, another server's writer) changes the row between the reads.
 * Null, and nothing written, when `read` finds no row.
 */
export function beforeAndAfter<T>(db: Database.Database, read: () => T | null, write: () => void): Updated<T> | null {
  return db.transaction(() => {
    const before = read();
    if (before === null) return null;
    write();
    return { before, after: read()! };
  }).immediate();
}

export interface AccountRow { id: string; name: string; partner: number; created_at: number }
export interface AccountLimitsRow { ceiling_hourly_limit: number | null; ceiling_embed_hourly_limit: number | null; ceiling_session_limit: number | null }
export interface KeyRow {
  id: string; account_id: string; label: string | null; status: KeyStatus; origins: string;
  ip_ranges: string; hourly_limit: number | null; embed_hourly_limit: number | null; session_limit: number | null; mode: KeyMode;
  created_at: number;
}
export interface SessionRow {
  sid: string; secret_hash: string; key_id: string; account_id: string; origin: string;
  created_at: number; expires_at: number; status: KeyStatus; partner: number;
  /** JSON, or null for no limit. */
  countries: string | null; bounds: string | null;
}
export interface LocationRow {
  account_id: string; code: string; latitude: number; longitude: number;
  address: string | null; label: string | null; created_at: number;
}

export const account = (r: AccountRow): Account => ({ id: r.id, name: r.name, partner: r.partner === 1, createdAt: r.created_at });
export const accountLimits = (r: AccountLimitsRow): KeyLimits => ({
  hourlyLimit: r.ceiling_hourly_limit, embedHourlyLimit: r.ceiling_embed_hourly_limit, sessionLimit: r.ceiling_session_limit,
});
export const key = (r: KeyRow): ApiKey => ({
  id: r.id, accountId: r.account_id, label: r.label, status: r.status, origins: JSON.parse(r.origins),
  ipRanges: JSON.parse(r.ip_ranges), hourlyLimit: r.hourly_limit, embedHourlyLimit: r.embed_hourly_limit,
  sessionLimit: r.session_limit, mode: r.mode, createdAt: r.created_at,
});
export const location = (r: LocationRow, mode: KeyMode): SavedLocation => ({
  accountId: r.account_id, mode, code: r.code, latitude: r.latitude, longitude: r.longitude,
  address: r.address, label: r.label, createdAt: r.created_at,
});

export interface UserRow {
  id: string; account_id: string; email: string; operator: number; password_hash: string | null; created_at: number; activated_at: number | null;
}
export interface PanelSessionRow { hash: string; user_id: string; created_at: number; expires_at: number; authenticated_at: number; ip: string; user_agent: string }
/** A panel session with its user's columns (SESSION_USER_COLUMNS), the one that shares a name with the session's renamed. */
export interface SessionUserRow extends PanelSessionRow {
  account_id: string; email: string; operator: number; password_hash: string | null; user_created_at: number; activated_at: number | null;
}
export interface PasskeyRow {
  id: string; user_id: string; public_key: string; counter: number; transports: string; name: string; created_at: number; last_used_at: number | null;
}
export interface ChallengeRow { challenge: string; purpose: Challenge['purpose']; user_id: string | null; expires_at: number }
export interface RotationRow { old_key_id: string; new_key_id: string; started_at: number; finished_at: number | null }
export interface KeyUseRow { key_id: string; at: number; origin: string | null; ip: string }

/** The user's columns of a SessionUserRow, as a query names them. */
export const SESSION_USER_COLUMNS = 'u.account_id, u.email, u.operator, u.password_hash, u.created_at AS user_created_at, u.activated_at';

export const user = (r: UserRow): User => ({
  id: r.id, accountId: r.account_id, email: r.email, operator: r.operator === 1, passwordHash: r.password_hash, createdAt: r.created_at,
  activatedAt: r.activated_at,
});
export const panelSession = (r: PanelSessionRow): PanelSession => ({
  hash: r.hash, userId: r.user_id, createdAt: r.created_at, expiresAt: r.expires_at, authenticatedAt: r.authenticated_at, ip: r.ip, userAgent: r.user_agent,
});
export const sessionUser = (r: SessionUserRow): User => user({ ...r, id: r.user_id, created_at: r.user_created_at });
export const passkey = (r: PasskeyRow): Passkey => ({
  id: r.id, userId: r.user_id, publicKey: r.public_key, counter: r.counter, transports: JSON.parse(r.transports), name: r.name, createdAt: r.created_at,
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
  /** JSON. */
  details: string;
}

export const usageHour = (r: UsageRow): UsageHour => ({
  keyId: r.key_id, kind: r.kind, hour: r.hour, used: r.used,
  refused: { limit: r.refused_limit, origin: r.refused_origin, ip: r.refused_ip, inactive: r.refused_inactive },
});
export const auditEntry = (r: AuditRow): AuditEntry => ({
  seq: r.seq, at: r.at, accountId: r.account_id, via: r.via, actor: r.actor, source: r.source, action: r.action, target: r.target, details: JSON.parse(r.details),
});
