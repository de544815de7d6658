/**
 * `loc db migrate` and `loc db copy-from-sqlite`, run in-process (test/support/cli.ts): the schema
 * version before and after on either engine, and the move of a SQLite data directory into PostgreSQL,
 * after which a server on PostgreSQL accepts the keys and finds the locations made on SQLite.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { EIFFEL, fillSqliteData } from '../../test/support/sqlite-data.ts';
import { loadConfig } from '../server/config.ts';
import { startServer } from '../server/process/server.ts';
import { SCHEMA_VERSION } from '../store/postgres/postgres-migrations.ts';
import { DATABASE_FILE } from '../store/sqlite/sqlite-files.ts';
import { MIGRATIONS } from '../store/sqlite/sqlite-migrations.ts';

const made: string[] = [];
const databases: TestDatabase[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loc-db-'));
  made.push(dir);
  return dir;
}
async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  databases.push(db);
  return db;
}
afterAll(async () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  for (const db of databases) await db.dispose();
  await stopPostgres();
});

async function accountsIn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: [table] } = await client.query<{ found: boolean }>("SELECT to_regclass('accounts') IS NOT NULL AS found");
    return table.found ? (await client.query<{ n: number }>('SELECT count(*)::integer AS n FROM accounts')).rows[0].n : 0;
  } finally {
    await client.end();
  }
}

describe('loc db --help', () => {
  it('works on each command', async () => {
    for (const words of [['db'], ['db', 'migrate'], ['db', 'copy-from-sqlite']]) {
      expect(await runCli({}, ...words, '--help')).toMatchObject({ code: 0, stdout: expect.stringContaining(`Usage: loc ${words.join(' ')}`) });
    }
  });
});

describe('loc db migrate', () => {
  it('on SQLite: creates a new database, migrates an older one, and says when there is nothing to do', async () => {
    const dir = join(scratch(), 'new');
    expect(await runCli({ LOC_DATA_DIR: dir }, 'db', 'migrate')).toEqual({ code: 0, stdout: `schema none → ${MIGRATIONS.length}: created loc's tables in ${dir}\n`, stderr: '' });
    expect(await runCli({ LOC_DATA_DIR: dir }, 'db', 'migrate')).toEqual({ code: 0, stdout: `schema ${MIGRATIONS.length}: up to date, ${dir}\n`, stderr: '' });

    // A database as an older loc left it: its migrations applied, but not the last one.
    for (const json of [false, true]) {
      const old = scratch();
      const db = new Database(join(old, DATABASE_FILE));
      for (const migration of MIGRATIONS.slice(0, -1)) db.exec(migration);
      db.pragma(`user_version = ${MIGRATIONS.length - 1}`);
      db.close();
      const migrated = await runCli({ LOC_DATA_DIR: old }, 'db', 'migrate', ...(json ? ['--json'] : []));
      expect(migrated).toMatchObject({ code: 0, stderr: '' });
      if (json) expect(JSON.parse(migrated.stdout)).toEqual({ database: old, before: MIGRATIONS.length - 1, after: MIGRATIONS.length, latest: MIGRATIONS.length });
      else expect(migrated.stdout).toBe(`schema ${MIGRATIONS.length - 1} → ${MIGRATIONS.length}: migrated ${old}\n`);
    }
  });

  it('on SQLite: refuses a database of a newer loc, as every command does, and leaves it as it is', async () => {
    const dir = scratch();
    expect((await runCli({ LOC_DATA_DIR: dir }, 'db', 'migrate')).code).toBe(0);
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma('user_version = 99');
    db.close();
    expect(await runCli({ LOC_DATA_DIR: dir }, 'db', 'migrate')).toMatchObject({
      code: 1, stdout: '', stderr: expect.stringMatching(new RegExp(`^error: cannot open the database in ${dir}: the database has schema version 99, newer than this loc knows`)),
    });
  });

  it('on PostgreSQL: creates loc\'s tables in a new database, then says it is up to date; the operator commands then work', async () => {
    const { url } = await database();
    const env = { LOC_DATA_DIR: scratch(), LOC_DATABASE_URL: url };
    expect(await runCli(env, 'db', 'migrate')).toEqual({ code: 0, stdout: `schema none → ${SCHEMA_VERSION}: created loc's tables in ${url}\n`, stderr: '' });
    expect(await runCli(env, 'db', 'migrate')).toEqual({ code: 0, stdout: `schema ${SCHEMA_VERSION}: up to date, ${url}\n`, stderr: '' });
    expect(await runCli(env, 'accounts', 'list')).toEqual({ code: 0, stdout: '(none)\n', stderr: '' });
    expect(readdirSync(env.LOC_DATA_DIR)).toEqual([]);
  });
});

describe('loc db copy-from-sqlite', () => {
  it('moves a SQLite data directory into PostgreSQL, where a server accepts its keys and finds its locations', async () => {
    const dir = scratch();
    const data = await fillSqliteData(dir);
    const { url } = await database();
    const copied = await runCli({ LOC_DATABASE_URL: url }, 'db', 'copy-from-sqlite', dir);
    expect(copied).toEqual({
      code: 0, stderr: '',
      stdout: `Copied ${join(dir, DATABASE_FILE)} into ${url}, in one transaction:\n` +
        '  accounts             2\n  api_keys             4\n  audit_log            2\n  held_invitations     1\n  key_last_use         2\n' +
        '  key_rotations        1\n  key_usage            3\n  locations            3\n  sessions             2\n' +
        '  test_locations       2\n  users                2\n  panel_links          2\n' +
        '  panel_sessions       1\n  passkeys             1\n  webauthn_challenges  1\n',
    });

    const server = await startServer(loadConfig({ LOC_DATABASE_URL: url, LOC_DATA_DIR: scratch(), PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' }), { print: () => {} });
    try {
      const lookup = async (secret: string) => {
        const response = await fetch(`${server.url}/v1/loc/lookup/${EIFFEL.code}`, { headers: { 'x-api-key': secret } });
        return { status: response.status, label: response.ok ? ((await response.json()) as { location: { label: string | null } }).location.label : undefined };
      };
      expect(await lookup(data.live.secret)).toEqual({ status: 200, label: 'the tower ✓' });
      expect(await lookup(data.test.secret)).toEqual({ status: 200, label: 'from CI' });
      expect((await lookup(data.disabled.secret)).status).toBe(401);
    } finally {
      await server.close();
    }

    // Once is the rule: a second copy finds the accounts there and refuses, writing nothing.
    expect(await runCli({ LOC_DATABASE_URL: url }, 'db', 'copy-from-sqlite', dir)).toEqual({
      code: 1, stdout: '',
      stderr: `error: the PostgreSQL database ${url} already holds 2 accounts: the copy is for an empty database, a new one or one only loc db migrate has run on\n`,
    });
    expect(await accountsIn(url)).toBe(2);
  });

  it('refuses in one line, exit 1, writing nothing: no LOC_DATABASE_URL, no loc database in DIR, an older SQLite schema, a server running on DIR', async () => {
    const { url } = await database();
    const dir = scratch();
    await fillSqliteData(dir);
    expect(await runCli({}, 'db', 'copy-from-sqlite', dir)).toEqual({
      code: 1, stdout: '', stderr: `error: LOC_DATABASE_URL is not set: set it to the PostgreSQL database to copy ${dir} into\n`,
    });
    const empty = scratch();
    expect(await runCli({ LOC_DATABASE_URL: url }, 'db', 'copy-from-sqlite', empty)).toEqual({
      code: 1, stdout: '', stderr: `error: there is no loc database in ${empty} (the directory has no loc.db): give the data directory of the SQLite server\n`,
    });
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma(`user_version = ${MIGRATIONS.length - 1}`);
    db.close();
    expect(await runCli({ LOC_DATABASE_URL: url }, 'db', 'copy-from-sqlite', dir)).toEqual({
      code: 1, stdout: '',
      stderr: `error: the SQLite database in ${dir} has schema version ${MIGRATIONS.length - 1}, and this loc copies version ${MIGRATIONS.length}: run loc db migrate with LOC_DATA_DIR=${dir} first\n`,
    });
    // A server still running on DIR (another live process, this one's parent, stands in for it; the
    // command runs in this process, whose own pid in the file would be a lock left by itself):
    // what it writes after the copy would be lost.
    writeFileSync(join(empty, 'server.pid'), String(process.ppid));
    expect(await runCli({ LOC_DATABASE_URL: url }, 'db', 'copy-from-sqlite', empty)).toEqual({
      code: 1, stdout: '', stderr: `error: a loc server (pid ${process.ppid}) is running on ${empty}: stop it first, so that nothing is written there after the copy\n`,
    });
    expect(await accountsIn(url)).toBe(0);
    expect(readdirSync(empty)).toEqual(['server.pid']);
  });
});
