/**
 * Fills a SQLite store's database in place, for tests: its connection's page count is capped at the
 * pages it has, so SQLite itself answers the next write that needs a page with SQLITE_FULL, as on a
 * full disk (test/stress/faults.test.ts fills a real disk under a running server). The connection is
 * the store's private one: capping it is the one way to do this in-process.
 */
import type Database from 'better-sqlite3';
import type { SqliteStore } from '../../src/store/sqlite/sqlite.ts';

export function sqliteFill(store: SqliteStore): { begin: () => void; end: () => void } {
  const db = (store as unknown as { db: Database.Database }).db;
  return {
    begin: () => void db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`),
    end: () => void db.pragma('max_page_count = 1073741823'),
  };
}
