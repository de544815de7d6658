/**
 * The move from SQLite to PostgreSQL: every table and every column of the SQLite schema arrives, value
 * for value and as the store port reads it; the copy is one transaction; what it cannot copy it
 * refuses before anything is written. On a real PostgreSQL (test/support/postgres.ts).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../auth/secrets.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { fillSqliteData, PANEL, type SqliteData } from '../../test/support/sqlite-data.ts';
import { CannotCopy, copySqliteToPostgres } from './copy-sqlite-to-postgres.ts';
import { openPostgresStore } from '../store/postgres/postgres.ts';
import { DATABASE_FILE } from '../store/sqlite/sqlite-files.ts';
import { MIGRATIONS } from '../store/sqlite/sqlite-migrations.ts';
import { openSqliteStore } from '../store/sqlite/sqlite.ts';
import { NoDatabase, type Store } from '../store/store.ts';

afterAll(stopPostgres);

/** One statement on `url`, int8 read as a Number as the store reads it. */
async function sql<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const getTypeParser = ((oid: number, format?: 'text') => (oid === 20 ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser;
  const client = new pg.Client({ connectionString: url, types: { getTypeParser } });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The tables of the SQLite schema, each with its columns. */
function sqliteSchema(file: string): Map<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    return new Map(tables.map((table) => [table, db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(table) as string[]]));
  } finally {
    db.close();
  }
}

/**
 * A row as the other engine writes it: SQLite's 0/1 and JSON text as PostgreSQL's boolean, arrays
 * and jsonb read back; ordered by every column, so that the two engines' rows line up.
 */
const sqliteValue = (column: string, value: unknown): unknown =>
  value === null ? null
    : ['partner', 'operator'].includes(column) ? value === 1
      : ['origins', 'ip_ranges', 'countries', 'bounds', 'transports', 'details'].includes(column) ? JSON.parse(value as string) : value;

function sortRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

let dir: string;
let database: TestDatabase;
let data: SqliteData;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loc-copy-'));
  data = await fillSqliteData(dir);
  database = await createTestDatabase();
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await database.dispose();
});

/** Every table of the SQLite schema with no row, but those given. */
const none = (rows: Record<string, number> = {}): Record<string, number> =>
  ({ ...Object.fromEntries([...sqliteSchema(join(dir, DATABASE_FILE)).keys()].map((table) => [table, 0])), ...rows });

/** Rows in each of loc's tables in PostgreSQL. */
async function counts(url: string): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of sqliteSchema(join(dir, DATABASE_FILE)).keys()) {
    const exists = (await sql<{ found: boolean }>(url, 'SELECT to_regclass($1) IS NOT NULL AS found', [table]))[0].found;
    result[table] = exists ? (await sql<{ n: number }>(url, `SELECT count(*)::integer AS n FROM ${table}`))[0].n : 0;
  }
  return result;
}

describe('copySqliteToPostgres', () => {
  it('copies every table and every column of the SQLite schema, value for value', async () => {
    const file = join(dir, DATABASE_FILE);
    const schema = sqliteSchema(file);
    const report = await copySqliteToPostgres(dir, database.url);
    expect(report).toEqual({
      from: file, to: database.url,
      rows: {
        accounts: 2, api_keys: 4, locations: 3, sessions: 2, test_locations: 2, users: 2, panel_links: 2, passkeys: 1, panel_sessions: 1,
        webauthn_challenges: 1, key_rotations: 1, key_last_use: 2, key_usage: 3, audit_log: 2, held_invitations: 1,
      },
    });
    const source = new Database(file, { readonly: true });
    try {
      for (const [table, columns] of schema) {
        const sqliteRows = (source.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[])
          .map((row) => Object.fromEntries(columns.map((column) => [column, sqliteValue(column, row[column])])));
        // The fixture gives every column a value in some row: a column it leaves empty would pass uncopied.
        for (const column of columns) expect({ table, column, filled: sqliteRows.some((row) => row[column] !== null) }).toEqual({ table, column, filled: true });
        const copied = await sql(database.url, `SELECT ${columns.join(', ')} FROM ${table}`);
        expect({ table, rows: sortRows(copied) }).toEqual({ table, rows: sortRows(sqliteRows) });
      }
    } finally {
      source.close();
    }
  });

  it('copies what the store port reads: the same accounts, keys by hash, sessions, saved locations and panel records from either engine', async () => {
    await copySqliteToPostgres(dir, database.url);
    const sqlite = openSqliteStore(dir, { create: false });
    const postgres = await openPostgresStore(database.url, { create: false });
    const read = async (store: Store) => {
      const accounts = await store.listAccounts();
      return {
        accounts,
        keys: await Promise.all(accounts.map((account) => store.listKeys(account.id))),
        byHash: await Promise.all([data.live, data.test, data.disabled].map(({ secret }) => store.findKeyByHash(hashSecret(secret)))),
        sessions: await Promise.all(data.sids.map((sid) => store.getSession(sid))),
        locations: await Promise.all(accounts.flatMap((account) => (['live', 'test'] as const).flatMap((mode) =>
          ['FR-0RMB-CLY0', 'US-550M-RQ5L'].map((code) => store.findLocation(account.id, mode, code))))),
        users: await Promise.all(accounts.map((account) => store.panel.listUsers(account.id))),
        link: await store.panel.findLink(PANEL.openLink, PANEL.now),
        passkeys: await store.panel.listPasskeys(data.users.ada.id),
        session: await store.panel.getPanelSession(PANEL.session, PANEL.now),
        rotations: await Promise.all(accounts.map((account) => store.panel.listRotations(account.id))),
        keyUses: await Promise.all(accounts.map((account) => store.panel.keyUses(account.id))),
        usage: await Promise.all([data.live, data.test, data.disabled].map(({ key }) => store.usage.usageOf(key.id, 0))),
        audit: await store.audit.listAudit({ accountId: null, limit: 100 }),
      };
    };
    try {
      const [before, after] = [await read(sqlite), await read(postgres)];
      expect(after).toEqual(before);
      expect(before.sessions.map((session) => session?.countries)).toEqual([['FR', 'DE'], null]);
      expect(before.byHash.map((found) => found?.key.status)).toEqual(['active', 'active', 'disabled']);
      expect(before.locations.filter((location) => location !== null)).toHaveLength(5);
      expect(before.users.flat()).toEqual([data.users.ada, data.users.bob]);
      expect(before.link).toEqual({ user: data.users.bob, purpose: 'recovery' });
      expect(before.passkeys.map((passkey) => passkey.id)).toEqual([PANEL.passkey]);
      expect(before.session?.user).toEqual(data.users.ada);
      expect(before.rotations.flat()).toHaveLength(1);
      expect(before.keyUses.flat().map((use) => use.keyId).sort()).toEqual([data.live.key.id, data.test.key.id].sort());
      expect(before.usage.map((hours) => hours.map((hour) => hour.kind))).toEqual([['server', 'embed'], [], ['server']]);
      expect(before.audit).toEqual([...data.audit].reverse());
      // The log's seqs came over as they were, and PostgreSQL numbers the next entry after them, not from 1.
      const next = await postgres.audit.appendAudit({ ...data.audit[0], at: data.audit[0].at + 1 });
      expect(next.seq).toBeGreaterThan(Math.max(...data.audit.map((entry) => entry.seq)));
      expect(await postgres.audit.listAudit({ accountId: null, limit: 100 })).toEqual([next, ...after.audit]);
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  });

  it('is one transaction: a failure half-way (the last table refused) leaves PostgreSQL without a row', async () => {
    // loc's tables made first, as loc db migrate would, with a trigger that refuses the last table's rows.
    await (await openPostgresStore(database.url)).close();
    await sql(database.url, "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$");
    await sql(database.url, 'CREATE TRIGGER refuse BEFORE INSERT ON webauthn_challenges FOR EACH ROW EXECUTE FUNCTION refuse()');
    const failed = await copySqliteToPostgres(dir, database.url).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(CannotCopy);
    expect((failed as Error).message).toBe('PostgreSQL refused the copy: refused for the test (P0001); nothing was copied');
    expect(await counts(database.url)).toEqual(none());
  });

  it('refuses a U+0000, which PostgreSQL stores in no text, naming the row, before writing anything', async () => {
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare("UPDATE test_locations SET label = 'a' || char(0) || 'b' WHERE code = 'FR-0RMB-CLY0'").run();
    const accountId = db.prepare("SELECT account_id FROM test_locations WHERE code = 'FR-0RMB-CLY0'").pluck().get();
    db.prepare('UPDATE api_keys SET origins = ? WHERE id = ?').run(JSON.stringify(['https://a\u0000.example']), data.disabled.key.id);
    db.close();
    await expect(copySqliteToPostgres(dir, database.url)).rejects.toThrow(new CannotCopy(
      `api_keys.origins of the row with id "${data.disabled.key.id}" holds U+0000, which PostgreSQL cannot store: change or remove it in SQLite first`,
    ));
    const fixed = new Database(join(dir, DATABASE_FILE));
    fixed.prepare('UPDATE api_keys SET origins = ? WHERE id = ?').run('[]', data.disabled.key.id);
    fixed.close();
    await expect(copySqliteToPostgres(dir, database.url)).rejects.toThrow(new CannotCopy(
      `test_locations.label of the row with account_id "${accountId}", code "FR-0RMB-CLY0" holds U+0000, which PostgreSQL cannot store: change or remove it in SQLite first`,
    ));
    expect(await counts(database.url)).toEqual(none());
  });

  it('refuses a SQLite schema of another version, a directory without a loc database, and a PostgreSQL that holds data', async () => {
    const file = join(dir, DATABASE_FILE);
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.length - 1}`);
    db.close();
    await expect(copySqliteToPostgres(dir, database.url)).rejects.toThrow(new CannotCopy(
      `the SQLite database in ${dir} has schema version ${MIGRATIONS.length - 1}, and this loc copies version ${MIGRATIONS.length}: run loc db migrate with LOC_DATA_DIR=${dir} first`,
    ));
    const newer = new Database(file);
    newer.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    newer.close();
    await expect(copySqliteToPostgres(dir, database.url)).rejects.toThrow(/has schema version \d+, newer than this loc knows/);
    // Nothing of PostgreSQL was touched: not even loc's tables were made.
    expect(await sql(database.url, "SELECT 1 FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
    await expect(copySqliteToPostgres(join(dir, 'nothing-here'), database.url)).rejects.toThrow(NoDatabase);

    const current = new Database(file);
    current.pragma(`user_version = ${MIGRATIONS.length}`);
    current.close();
    const store = await openPostgresStore(database.url);
    await store.createAccount({ name: 'already-here', partner: false, createdAt: 1 });
    await store.close();
    await expect(copySqliteToPostgres(dir, database.url)).rejects.toThrow(new CannotCopy(
      `the PostgreSQL database ${database.url} already holds 1 account: the copy is for an empty database, a new one or one only loc db migrate has run on`,
    ));
    expect(await counts(database.url)).toEqual(none({ accounts: 1 }));
  });
});
