/**
 * The saved locations of the SQLite store: one table per mode of key (migration 3), with the same
 * statements on each, so that a live query never reads a test key's saves.
 */
import type Database from 'better-sqlite3';
import type { LocationRow } from './sqlite-rows.ts';
import type { KeyMode } from '../store.ts';

/** The table of the locations each mode of key saves. */
export const LOCATION_TABLE: Record<KeyMode, string> = { live: 'locations', test: 'test_locations' };

/** The statements of one table of saved locations. */
export function locationStatements(db: Database.Database, table: string) {
  return {
    insert: db.prepare(
      `INSERT INTO ${table} (account_id, code, latitude, longitude, address, label, created_at) ` +
        'VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, code) DO NOTHING',
    ),
    // Fills in what the stored location lacks, never replaces what it has (Store.saveLocation).
    fill: db.prepare(
      `UPDATE ${table} SET address = coalesce(address, @address), label = coalesce(label, @label) WHERE account_id = @accountId ` +
        'AND code = @code AND ((address IS NULL AND @address IS NOT NULL) OR (label IS NULL AND @label IS NOT NULL))',
    ),
    get: db.prepare<[string, string], LocationRow>(`SELECT * FROM ${table} WHERE account_id = ? AND code = ?`),
  };
}
