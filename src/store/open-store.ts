/**
 * Opens the store the service is configured with: the one place that knows which engines exist. Today
 * that is SQLite in the data directory, the embedded engine that needs nothing installed.
 */
import { openSqliteStore } from './sqlite.ts';
import type { BackupCapable, OpenStoreOptions, Store } from './store.ts';

/** Where the store is: the settings an engine is opened with. */
export interface StoreSettings {
  /** The data directory (LOC_DATA_DIR), absolute. */
  dataDir: string;
}

/**
 * The configured store, migrated to the current schema. Throws StoreUnavailable when it cannot be
 * opened (its reason and the engine's words) and NoDatabase as `create` says.
 */
export function openStore(settings: StoreSettings, { create = true }: OpenStoreOptions = {}): Store & Partial<BackupCapable> {
  return openSqliteStore(settings.dataDir, { create });
}
