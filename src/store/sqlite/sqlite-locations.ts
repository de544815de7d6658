/**
 * The saved locations of the SQLite store: one table per mode of key (migration 3), with the same
 * statements on each, so that a live query never reads a test key's saves. Synchronous, as
 * better-sqlite3 is: the store runs each call as one unit of its work.
 */
import type Database from 'better-sqlite3';
import { location, type LocationRow } from './sqlite-rows.ts';
import type { KeyMode, SavedLocation } from '../store.ts';

/** The table of the locations each mode of key saves. */
const LOCATION_TABLE: Record<KeyMode, string> = { live: 'locations', test: 'test_locations' };

/** The statements of one table of saved locations. */
function locationStatements(db: Database.Database, table: string) {
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
    deleteAll: db.prepare(`DELETE FROM ${table} WHERE account_id = ?`),
    any: db.prepare<[string], { one: 1 }>(`SELECT 1 AS one FROM ${table} WHERE account_id = ? LIMIT 1`),
  };
}

export class SqliteLocations {
  private readonly tables;

  constructor(db: Database.Database) {
    this.tables = { live: locationStatements(db, LOCATION_TABLE.live), test: locationStatements(db, LOCATION_TABLE.test) };
  }

  /** Store.saveLocation. */
  save(input: SavedLocation): { location: SavedLocation; created: boolean } {
    const q = this.tables[input.mode];
    // Two statements, each atomic on its own: the insert decides which save was first, and the fill
    // can only add what is missing, so any interleaving of saves ends the same.
    const { changes } = q.insert.run(input.accountId, input.code, input.latitude, input.longitude, input.address, input.label, input.createdAt);
    if (changes === 0 && (input.address !== null || input.label !== null)) {
      q.fill.run({ address: input.address, label: input.label, accountId: input.accountId, code: input.code });
    }
    return { location: location(q.get.get(input.accountId, input.code)!, input.mode), created: changes === 1 };
  }

  find(accountId: string, mode: KeyMode, code: string): SavedLocation | null {
    const row = this.tables[mode].get.get(accountId, code);
    return row ? location(row, mode) : null;
  }

  /** Store.hasLocations. */
  any(accountId: string, mode: KeyMode): boolean {
    return this.tables[mode].any.get(accountId) !== undefined;
  }

  /** Forgets what the account's test keys saved; how many. */
  deleteTest(accountId: string): number {
    return this.tables.test.deleteAll.run(accountId).changes;
  }
}
