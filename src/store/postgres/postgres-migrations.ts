/**
 * Versioned schema of the PostgreSQL store. The tables are SQLite's (sqlite-migrations.ts), with
 * PostgreSQL's own types: booleans, times as bigint milliseconds, lists as text[].
 *
 * Migrations are append-only: a shipped one is never edited, a change is a new entry. Each start
 * applies the missing ones in one transaction under an advisory lock, so several processes or
 * machines starting together migrate once. The row of `loc_schema` says which version the database
 * is at and the oldest loc version that can still run on it (`compatible_from`): a rolling deploy
 * adds columns and tables a running older server ignores (its migration keeps `compatible_from`),
 * and only a migration that would break an older server raises it. A server refuses a database whose
 * `compatible_from` is above its own version, not simply any newer one.
 */
import type pg from 'pg';
import { NoDatabase, StoreUnavailable } from '../store.ts';
import { COUNTS_SQL, TAKE_MANY_SQL } from './postgres-counters-sql.ts';

export interface Migration {
  sql: string;
  /** The oldest schema version whose loc still runs correctly once this migration is applied. */
  compatibleFrom: number;
}

export const MIGRATIONS: readonly Migration[] = [
  // 1: accounts, keys, embed sessions and saved locations, as SQLite has them after its migration 4.
  {
    compatibleFrom: 1,
    sql: `
    CREATE TABLE accounts (
      id text PRIMARY KEY,
      name text NOT NULL UNIQUE,
      partner boolean NOT NULL,
      created_at bigint NOT NULL
    );
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      hash text NOT NULL UNIQUE,
      label text,
      status text NOT NULL CHECK (status IN ('active', 'disabled')),
      origins text[] NOT NULL,
      ip_ranges text[] NOT NULL,
      hourly_limit integer CHECK (hourly_limit > 0),
      embed_hourly_limit integer CHECK (embed_hourly_limit > 0),
      session_limit integer CHECK (session_limit > 0),
      mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test')),
      created_at bigint NOT NULL
    );
    CREATE INDEX api_keys_account ON api_keys (account_id);
    CREATE TABLE sessions (
      sid text PRIMARY KEY,
      secret_hash text NOT NULL,
      key_id text NOT NULL REFERENCES api_keys (id),
      origin text NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      countries text[],
      bounds jsonb
    );
    CREATE INDEX sessions_expiry ON sessions (expires_at);
    CREATE TABLE locations (
      account_id text NOT NULL REFERENCES accounts (id),
      code text NOT NULL,
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      address text,
      label text,
      created_at bigint NOT NULL,
      PRIMARY KEY (account_id, code)
    );
    CREATE TABLE test_locations (LIKE locations INCLUDING ALL);
    ALTER TABLE test_locations ADD FOREIGN KEY (account_id) REFERENCES accounts (id);
    `,
  },
  // 2: the request counters every loc process shares (postgres-counters.ts). Only added: a loc of
  // schema 1 runs on, counting in its own process.
  { compatibleFrom: 1, sql: COUNTS_SQL },
  // 3: the partner panel, as SQLite's migration 5 has it. Only added: a loc of schema 1 or 2 runs on
  // without a panel.
  {
    compatibleFrom: 1,
    sql: `
    CREATE TABLE users (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      email text NOT NULL UNIQUE,
      operator boolean NOT NULL,
      password_hash text,
      created_at bigint NOT NULL,
      activated_at bigint
    );
    CREATE INDEX users_account ON users (account_id, created_at);
    CREATE TABLE panel_links (
      hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id),
      purpose text NOT NULL CHECK (purpose IN ('invite', 'recovery')),
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      used_at bigint
    );
    -- One open link per user at most: a new one replaces it in one upsert, also against a concurrent one.
    CREATE UNIQUE INDEX panel_links_open ON panel_links (user_id) WHERE used_at IS NULL;
    CREATE INDEX panel_links_expiry ON panel_links (expires_at);
    CREATE TABLE passkeys (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id),
      public_key text NOT NULL,
      -- WebAuthn's signature counter is unsigned 32-bit: past integer's range.
      counter bigint NOT NULL CHECK (counter >= 0),
      transports text[] NOT NULL,
      name text NOT NULL,
      created_at bigint NOT NULL,
      last_used_at bigint
    );
    CREATE INDEX passkeys_user ON passkeys (user_id);
    CREATE TABLE panel_sessions (
      hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id),
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      authenticated_at bigint NOT NULL,
      ip text NOT NULL,
      user_agent text NOT NULL
    );
    CREATE INDEX panel_sessions_user ON panel_sessions (user_id);
    CREATE INDEX panel_sessions_expiry ON panel_sessions (expires_at);
    CREATE TABLE webauthn_challenges (
      challenge text PRIMARY KEY,
      purpose text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
      user_id text REFERENCES users (id),
      expires_at bigint NOT NULL
    );
    CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);
    CREATE TABLE key_rotations (
      old_key_id text NOT NULL REFERENCES api_keys (id),
      new_key_id text NOT NULL REFERENCES api_keys (id),
      started_at bigint NOT NULL,
      finished_at bigint,
      PRIMARY KEY (old_key_id, new_key_id)
    );
    CREATE TABLE key_last_use (
      key_id text PRIMARY KEY REFERENCES api_keys (id),
      at bigint NOT NULL,
      origin text,
      ip text NOT NULL
    );
    `,
  },
  // 4: each key's usage per hour and the audit log, as SQLite's migration 6 has them. Only added: an
  // older loc runs on without them. The log refuses UPDATE, DELETE and TRUNCATE itself, so that no
  // code path, nor an operator's psql session by mistake, rewrites what happened.
  {
    compatibleFrom: 1,
    sql: `
    CREATE TABLE key_usage (
      key_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('server', 'embed')),
      hour bigint NOT NULL,
      used bigint NOT NULL DEFAULT 0,
      refused_limit bigint NOT NULL DEFAULT 0,
      refused_origin bigint NOT NULL DEFAULT 0,
      refused_ip bigint NOT NULL DEFAULT 0,
      refused_inactive bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (key_id, kind, hour)
    );
    CREATE INDEX key_usage_hour ON key_usage (hour);
    CREATE TABLE audit_log (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      at bigint NOT NULL,
      account_id text NOT NULL REFERENCES accounts (id),
      via text NOT NULL CHECK (via IN ('panel', 'cli')),
      actor text NOT NULL,
      source text NOT NULL,
      action text NOT NULL,
      target text,
      details jsonb NOT NULL
    );
    CREATE INDEX audit_log_account ON audit_log (account_id, seq);
    CREATE FUNCTION loc_audit_append_only_v1() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'the audit log is append-only';
    END
    $$;
    CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION loc_audit_append_only_v1();
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION loc_audit_append_only_v1();
    `,
  },
  // 5: the counters take the waiting requests of several budget sets in one call (postgres-counters.ts).
  // Only added: a loc of schema 2 to 4 counts one at a time with loc_take_v1, in the same rows,
  // beside this one during an upgrade.
  { compatibleFrom: 1, sql: TAKE_MANY_SQL },
  // 6: the operator's ceiling of each account's keys' limits, as SQLite's migration 7 has it. Only
  // added: an older loc runs on, its panel holding keys to the service's defaults alone.
  {
    compatibleFrom: 1,
    sql: `
    ALTER TABLE accounts ADD COLUMN ceiling_hourly_limit integer CHECK (ceiling_hourly_limit > 0);
    ALTER TABLE accounts ADD COLUMN ceiling_embed_hourly_limit integer CHECK (ceiling_embed_hourly_limit > 0);
    ALTER TABLE accounts ADD COLUMN ceiling_session_limit integer CHECK (ceiling_session_limit > 0);
    `,
  },
  // 7: invitations held back (held-invitations.ts), as SQLite's migration 8 has them. Only added.
  {
    compatibleFrom: 1,
    sql: `
    CREATE TABLE held_invitations (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      email text NOT NULL,
      invited_by text NOT NULL,
      created_at bigint NOT NULL
    );
    CREATE INDEX held_invitations_account ON held_invitations (account_id, created_at);
    `,
  },
];

/** The schema version this loc writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Any one number, the same in every loc: the advisory lock migrations hold (`loc` in ASCII). */
const MIGRATION_LOCK = 0x6c6f63;

/**
 * Brings the database to this loc's schema; refuses one this loc cannot run on. Without `create`, a
 * database where loc never ran is NoDatabase (`where` names it), and nothing is written to it.
 */
export async function migrate(client: pg.ClientBase, where: string, create: boolean): Promise<void> {
  await client.query('BEGIN');
  try {
    // Held to the end of the transaction: a second process waits here, then finds the work done.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const { rows: [exists] } = await client.query<{ found: boolean }>("SELECT to_regclass('loc_schema') IS NOT NULL AS found");
    if (!exists.found && !create) throw new NoDatabase(where, 'it holds no loc schema');
    await client.query('CREATE TABLE IF NOT EXISTS loc_schema (one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL, compatible_from integer NOT NULL)');
    const { rows: [row] } = await client.query<{ version: number; compatible_from: number }>('SELECT version, compatible_from FROM loc_schema');
    const version = row?.version ?? 0;
    refuseIncompatible(version, row?.compatible_from ?? 0);
    for (let v = version; v < SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v].sql);
    if (version < SCHEMA_VERSION) {
      await client.query(
        'INSERT INTO loc_schema (version, compatible_from) VALUES ($1, $2) ON CONFLICT (one) DO UPDATE SET version = $1, compatible_from = $2',
        [SCHEMA_VERSION, MIGRATIONS[SCHEMA_VERSION - 1].compatibleFrom],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * A newer loc's schema is fine while it says this loc still fits it (a rolling deploy); beyond that,
 * as with SQLite, the operator's situation rather than a bug: StoreUnavailable, said in one line.
 */
function refuseIncompatible(version: number, compatibleFrom: number): void {
  if (compatibleFrom <= SCHEMA_VERSION) return;
  throw new StoreUnavailable(
    'cannot-open',
    `the database has schema version ${version}, which needs a loc of schema version ${compatibleFrom} or newer; this loc has ${SCHEMA_VERSION}: run a newer loc`,
  );
}
