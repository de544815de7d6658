/**
 * Versioned schema of the SQLite store. `PRAGMA user_version` records how many migrations ran; each
 * start runs the missing ones in one transaction. Migrations are append-only: a shipped one is never
 * edited, a change is a new entry.
 */
import type Database from 'better-sqlite3';
import { StoreUnavailable } from '../store.ts';

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
  // 5: the partner panel (panel-store.ts): its users, their one-time links, passkeys and sessions, the
  // WebAuthn challenges in flight, key rotations, and each key's last use. A user has one open link at
  // most (panel_links_open): a new one replaces it in one upsert, whatever runs beside it.
  `
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL UNIQUE,
    operator INTEGER NOT NULL CHECK (operator IN (0, 1)),
    password_hash TEXT,
    created_at INTEGER NOT NULL,
    activated_at INTEGER
  );
  CREATE INDEX users_account ON users (account_id, created_at);
  CREATE TABLE panel_links (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    purpose TEXT NOT NULL CHECK (purpose IN ('invite', 'recovery')),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  );
  CREATE UNIQUE INDEX panel_links_open ON panel_links (user_id) WHERE used_at IS NULL;
  CREATE INDEX panel_links_expiry ON panel_links (expires_at);
  CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    public_key TEXT NOT NULL,
    counter INTEGER NOT NULL CHECK (counter >= 0),
    transports TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER
  );
  CREATE INDEX passkeys_user ON passkeys (user_id);
  CREATE TABLE panel_sessions (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    authenticated_at INTEGER NOT NULL,
    ip TEXT NOT NULL,
    user_agent TEXT NOT NULL
  );
  CREATE INDEX panel_sessions_user ON panel_sessions (user_id);
  CREATE INDEX panel_sessions_expiry ON panel_sessions (expires_at);
  CREATE TABLE webauthn_challenges (
    challenge TEXT PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('register', 'authenticate')),
    user_id TEXT REFERENCES users (id),
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);
  CREATE TABLE key_rotations (
    old_key_id TEXT NOT NULL REFERENCES api_keys (id),
    new_key_id TEXT NOT NULL REFERENCES api_keys (id),
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    PRIMARY KEY (old_key_id, new_key_id)
  ) WITHOUT ROWID;
  CREATE TABLE key_last_use (
    key_id TEXT PRIMARY KEY REFERENCES api_keys (id),
    at INTEGER NOT NULL,
    origin TEXT,
    ip TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 6: each key's usage per hour (usage-store.ts) and the audit log (audit-store.ts). Usage has no
  // foreign key: a batch must never fail for one key. The log refuses UPDATE and DELETE itself, so
  // that no code path, nor an operator's sqlite3 shell by mistake, rewrites what happened.
  `
  CREATE TABLE key_usage (
    key_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('server', 'embed')),
    hour INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    refused_limit INTEGER NOT NULL DEFAULT 0,
    refused_origin INTEGER NOT NULL DEFAULT 0,
    refused_ip INTEGER NOT NULL DEFAULT 0,
    refused_inactive INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (key_id, kind, hour)
  ) WITHOUT ROWID;
  CREATE INDEX key_usage_hour ON key_usage (hour);
  CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    via TEXT NOT NULL CHECK (via IN ('panel', 'cli')),
    actor TEXT NOT NULL,
    source TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT,
    details TEXT NOT NULL
  );
  CREATE INDEX audit_log_account ON audit_log (account_id, seq);
  CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  `,
  // 7: the operator's ceiling of each account's keys' limits, as the panel may set them; NULL follows
  // the service's default limit.
  `
  ALTER TABLE accounts ADD COLUMN ceiling_hourly_limit INTEGER CHECK (ceiling_hourly_limit > 0);
  ALTER TABLE accounts ADD COLUMN ceiling_embed_hourly_limit INTEGER CHECK (ceiling_embed_hourly_limit > 0);
  ALTER TABLE accounts ADD COLUMN ceiling_session_limit INTEGER CHECK (ceiling_session_limit > 0);
  `,
  // 8: invitations held back (held-invitations.ts).
  `
  CREATE TABLE held_invitations (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    invited_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX held_invitations_account ON held_invitations (account_id, created_at);
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
