/**
 * The rows of loc's PostgreSQL tables as pg returns them (bigint already a Number, see postgres.ts),
 * the statements that read them, and the port's records made from them.
 */
import type { Account, ApiKey, KeyMode, KeyStatus, SavedLocation } from './store.ts';

export interface AccountRow { id: string; name: string; partner: boolean; created_at: number }
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

export const KEY_COLUMNS = 'k.id, k.account_id, k.label, k.status, k.origins, k.ip_ranges, k.hourly_limit, k.embed_hourly_limit, k.session_limit, k.mode, k.created_at';
export const LOCATION_COLUMNS = 'account_id, code, latitude, longitude, address, label, created_at';

/** The table of the locations each mode of key saves: a live query never reads a test key's saves. */
export const LOCATION_TABLE: Record<KeyMode, string> = { live: 'locations', test: 'test_locations' };

export const account = (r: AccountRow): Account => ({ id: r.id, name: r.name, partner: r.partner, createdAt: r.created_at });
export const key = (r: KeyRow): ApiKey => ({
  id: r.id, accountId: r.account_id, label: r.label, status: r.status, origins: r.origins, ipRanges: r.ip_ranges,
  hourlyLimit: r.hourly_limit, embedHourlyLimit: r.embed_hourly_limit, sessionLimit: r.session_limit, mode: r.mode, createdAt: r.created_at,
});
export const location = (r: LocationRow, mode: KeyMode): SavedLocation => ({
  accountId: r.account_id, mode, code: r.code, latitude: r.latitude, longitude: r.longitude, address: r.address, label: r.label,
  createdAt: r.created_at,
});
