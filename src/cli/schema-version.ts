/**
 * The schema version of the configured database, read without changing anything — what `loc db
 * migrate` reports before and after it migrates — beside the version this loc writes. A place where
 * loc never ran (no loc.db, no `loc_schema` table) is at version 0.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreSettings } from '../store/open-store.ts';
import { translatePostgresError } from '../store/postgres/postgres-errors.ts';
import { SCHEMA_VERSION as POSTGRES_VERSION } from '../store/postgres/postgres-migrations.ts';
import { newPool } from '../store/postgres/postgres-pool.ts';
import { translateSqliteError } from '../store/sqlite/sqlite-errors.ts';
import { DATABASE_FILE } from '../store/sqlite/sqlite-files.ts';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../store/sqlite/sqlite-migrations.ts';

/** The version this loc migrates the configured engine to. */
export function latestSchemaVersion(settings: StoreSettings): number {
  return settings.databaseUrl ? POSTGRES_VERSION : SQLITE_MIGRATIONS.length;
}

/** The configured database's schema version; throws StoreUnavailable when it cannot be read. */
export async function schemaVersion(settings: StoreSettings): Promise<number> {
  return settings.databaseUrl ? postgresVersion(settings.databaseUrl) : sqliteVersion(settings.dataDir);
}

function sqliteVersion(dataDir: string): number {
  const file = join(dataDir, DATABASE_FILE);
  if (!existsSync(file)) return 0;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return db.pragma('user_version', { simple: true }) as number;
  } catch (error) {
    throw translateSqliteError(error);
  } finally {
    db?.close();
  }
}

async function postgresVersion(url: string): Promise<number> {
  const pool = await newPool(url);
  try {
    const { rows: [table] } = await pool.query<{ found: boolean }>("SELECT to_regclass('loc_schema') IS NOT NULL AS found");
    if (!table.found) return 0;
    const { rows: [row] } = await pool.query<{ version: number }>('SELECT version FROM loc_schema');
    return row?.version ?? 0;
  } catch (error) {
    throw translatePostgresError(error);
  } finally {
    await pool.end();
  }
}
