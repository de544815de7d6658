/**
 * The rows of loc's SQLite tables as better-sqlite3 returns them, and the port's records made from
 * them: SQLite's names and 0/1 booleans stay in the adapter.
 */
import type { Account, ApiKey, KeyMode, KeyStatus, SavedLocation } from './store.ts';

export interface AccountRow { id: string; name: string; partner: number; created_at: number }
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
export const key = (r: KeyRow): ApiKey => ({
  id: r.id, accountId: r.account_id, label: r.label, status: r.status, origins: JSON.parse(r.origins),
  ipRanges: JSON.parse(r.ip_ranges), hourlyLimit: r.hourly_limit, embedHourlyLimit: r.embed_hourly_limit,
  sessionLimit: r.session_limit, mode: r.mode, createdAt: r.created_at,
});
export const location = (r: LocationRow, mode: KeyMode): SavedLocation => ({
  accountId: r.account_id, mode, code: r.code, latitude: r.latitude, longitude: r.longitude,
  address: r.address, label: r.label, createdAt: r.created_at,
});
