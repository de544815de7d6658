/**
 * Opens the store the service is configured with: the one place that knows which engines exist.
 * SQLite in the data directory, the embedded engine that needs nothing installed, unless a PostgreSQL
 * database is named (LOC_DATABASE_URL), the store several processes can share. Each engine is loaded
 * with import() when chosen, its driver with it: `loc mock`, on the in-memory store, loads neither, and
 * the loc-mock package, which bundles the mock, runs without them installed.
 */
import { redactUrl } from './database-url.ts';
import type { BackupCapable, OpenStoreOptions, Store } from './store.ts';

/** Where the store is: the settings an engine is opened with. */
export interface StoreSettings {
  /** The data directory (LOC_DATA_DIR), absolute. */
  dataDir: string;
  /** A PostgreSQL database (LOC_DATABASE_URL) to use instead of SQLite in `dataDir`. */
  databaseUrl?: string | null;
  /** Connections to it at most (LOC_DATABASE_POOL_SIZE). */
  databasePoolSize?: number;
}

/**
 * The configured store, migrated to the current schema. Throws StoreUnavailable when it cannot be
 * opened (its reason and the engine's words) and NoDatabase as `create` says. Async, as a networked
 * engine connects before it can answer.
 */
export async function openStore(settings: StoreSettings, { create = true }: OpenStoreOptions = {}): Promise<Store & Partial<BackupCapable>> {
  if (settings.databaseUrl) {
    const { openPostgresStore } = await import('./postgres/postgres.ts');
    return openPostgresStore(settings.databaseUrl, { create }, settings.databasePoolSize);
  }
  const { openSqliteStore } = await import('./sqlite/sqlite.ts');
  return openSqliteStore(settings.dataDir, { create });
}

/** Where the configured store is, for messages: the data directory, or the database without its password. */
export function storePlace(settings: StoreSettings): string {
  return settings.databaseUrl ? redactUrl(settings.databaseUrl) : settings.dataDir;
}
