/**
 * Versioned schema of the SQLite store. `PRAGMA user_version` records how many migrations ran; each
 * start runs the missing ones in one transaction. Migrations are append-only: a shipped one is never
 * edited, a change is a new entry.
 */
import type Database from 'better-sqlite3';
import { StoreUnavailable } from './store.ts';

export const MIGRATIONS: readonly string[] = [
  // 1: accounts, keys, embed sessions, saved locations.
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    partner INTEGER NOT NULL CHECK (partner IN (0, 1)),
    created_at INTEGER NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    hash TEXT NOT NULL UNIQUE,
    label TEXT,
    status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
    origins TEXT NOT NULL,
    ip_ranges TEXT NOT NULL,
    hourly_limit INTEGER CHECK (hourly_limit > 0),
    created_at INTEGER NOT NULL
  );
  CREATE INDEX api_keys_account ON api_keys (account_id);
  CREATE TABLE sessions (
    sid TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    origin TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX sessions_expiry ON sessions (expires_at);
  CREATE TABLE locations (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    code TEXT NOT NULL,
    latitude REAL NOT NULL,
    longitude REAL NOT NULL,
    address TEXT,
    label TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, code)
  ) WITHOUT ROWID;
  `,
  // 2: embed traffic counted apart from server calls: per key and hour, and per session.
  `
  ALTER TABLE api_keys ADD COLUMN embed_hourly_limit INTEGER CHECK (embed_hourly_limit > 0);
  ALTER TABLE api_keys ADD COLUMN session_limit INTEGER CHECK (session_limit > 0);
  `,
  // 3: test keys, and the locations they save in a table of their own: a live query never reads them,
  // and a wipe is one DELETE.
  `
  ALTER TABLE api_keys ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'));
  CREATE TABLE test_locations (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    code TEXT NOT NULL,
    latitude REAL NOT NULL,
    longitude REAL NOT NULL,
    address TEXT,
    label TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, code)
  ) WITHOUT ROWID;
  `,
  // 4: the area a session's visitors may choose points in, each part JSON, NULL for none: sessions
  // made before keep allowing any point.
  `
  ALTER TABLE sessions ADD COLUMN countries TEXT;
  ALTER TABLE sessions ADD COLUMN bounds TEXT;
  `,
];

/** Brings `db` to the latest schema; refuses a database written by a newer loc. */
export function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    // Not a bug but the operator's situation (a downgrade, a backup from a newer loc put in place):
    // StoreUnavailable, which loc serve and the operator commands say in one line, exit 1.
    throw new StoreUnavailable(
      'cannot-open',
      `the database has schema version ${version}, newer than this loc knows (${MIGRATIONS.length}): it was written by a newer loc; run that version, or restore a backup made by this one`,
    );
  }
  if (version === MIGRATIONS.length) return;
  // Read the version again under the write lock: another process may have migrated meanwhile.
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    for (let v = current; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
