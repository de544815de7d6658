/**
 * A rolling deploy on one PostgreSQL: while the fleet is upgraded one server at a time, servers
 * one schema version apart run on the same database. CI cannot cheaply run an older build, so this
 * shows the mechanism (postgres-migrations.ts: `loc_schema.version` and `compatible_from`) with this
 * loc's build in both roles:
 *
 * (a) As the older server. A newer loc has migrated the database with an expand-only migration (a new
 *     table, a new nullable column on api_keys; `version` SCHEMA_VERSION+1, `compatible_from`
 *     SCHEMA_VERSION) and writes into them beside it: this loc starts, leaves the schema row as it
 *     found it, and serves the whole API — sessions, resolve with save, generate, lookup, its rate
 *     limit headers — on keys and rows the newer one made.
 * (b) A newer migration that breaks this loc (`compatible_from` SCHEMA_VERSION+1): it refuses to start,
 *     exit 1, with one line naming both versions; the database is left untouched.
 * (c) As the newer server. A database at the previous schema version, as an older loc left it (only
 *     MIGRATIONS.slice(0, -1) applied), with that older server still running (an open connection that
 *     reads every table by its old columns): this loc migrates it at start, serves the older one's rows,
 *     and the older one's queries — the old columns of every table, and its writes — still work after.
 */
import { spawn } from 'node:child_process';
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/auth/keys.ts';
import { newPool } from '../../src/store/postgres/postgres-pool.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/postgres/postgres-migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../support/postgres.ts';
import { SpawnedServer, ensureBuilt, seedDataDir, seedStore, type SeededKey } from './harness.ts';

const ORIGIN = 'https://shop.example';

let database: TestDatabase | undefined;
let dataDir: string | undefined;
const servers: SpawnedServer[] = [];
const clients: pg.Client[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill('SIGKILL');
  for (const client of clients.splice(0)) await client.end().catch(() => {});
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  await database?.dispose();
  database = undefined;
  dataDir = undefined;
});
afterAll(() => stopPostgres());

/** A connection of its own to the test's database, closed after the test. */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

async function schemaRow(client: pg.Client): Promise<{ version: number; compatible_from: number }> {
  return (await client.query<{ version: number; compatible_from: number }>('SELECT version, compatible_from FROM loc_schema')).rows[0];
}

/** The migration a newer loc would ship that only adds: what an older server ignores. */
const EXPAND_ONLY = `
  CREATE TABLE loc_future_audit (id bigserial PRIMARY KEY, key_id text NOT NULL, note text NOT NULL, at bigint NOT NULL);
  ALTER TABLE api_keys ADD COLUMN future_note text;
`;

const post = (server: SpawnedServer, path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The API a client uses, through `server` with `key`: every call must succeed and carry its rate limit headers. */
async function exerciseApi(server: SpawnedServer, key: string, n: number): Promise<string[]> {
  const remaining: number[] = [];
  const codes: string[] = [];
  const check = async (response: Response, what: string): Promise<Record<string, unknown>> => {
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, `${what}: ${JSON.stringify(body)}`).toBe(200);
    return body;
  };
  const keyed = { 'x-api-key': key };
  const session = await post(server, '/v1/embed/sessions', keyed, { origin: ORIGIN, ttl: 3600 });
  remaining.push(Number(session.headers.get('ratelimit-remaining')));
  const token = (await check(session, 'session')).session_token as string;
  const generated = await post(server, '/v1/loc/generate', keyed, { latitude: 45.76 + n * 0.01, longitude: 4.83, label: `rolling ${n}`, address: `${n} quai du Rhône` });
  remaining.push(Number(generated.headers.get('ratelimit-remaining')));
  codes.push((await check(generated, 'generate')).loc_code as string);
  const resolved = await post(server, '/v1/embed/resolve', { authorization: `Bearer ${token}`, origin: ORIGIN }, { lat: 48.85 + n * 0.01, lng: 2.35, save: true });
  codes.push((await check(resolved, 'resolve with a session')).loc_code as string);
  expect(resolved.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  const resolvedWithKey = await post(server, '/v1/embed/resolve', keyed, { lat: 43.6 + n * 0.01, lng: 1.44, save: true });
  remaining.push(Number(resolvedWithKey.headers.get('ratelimit-remaining')));
  codes.push((await check(resolvedWithKey, 'resolve with the key')).loc_code as string);
  const looked = await fetch(`${server.url}/v1/loc/lookup/${codes[0]}`, { headers: keyed });
  remaining.push(Number(looked.headers.get('ratelimit-remaining')));
  expect(((await check(looked, 'lookup')).location as { label: string }).label).toBe(`rolling ${n}`);
  // The key's own calls count down one by one in the shared counters.
  for (let i = 1; i < remaining.length; i++) expect(remaining[i], `remaining ${remaining.join(', ')}`).toBe(remaining[i - 1] - 1);
  return codes;
}

/** `loc serve` on `env` to its end, when it fails to start: its exit code and everything it wrote. */
function failedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/cli.js', 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: { ...process.env, LOC_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
    // A server that starts after all is killed after a while, and the test fails on its exit code.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a rolling deploy on one PostgreSQL', () => {
  it('(a) this loc, one schema version behind, serves the whole API beside a newer one that only added', async () => {
    ensureBuilt();
    const seeded = await seedDataDir([{ account: 'acme', hourlyLimit: 1000 }], { engine: 'postgres' });
    ({ database, dataDir } = seeded);
    const newer = await connect(seeded.database!.url);
    // The newer loc's migration, as its start would apply it.
    await newer.query(`BEGIN; ${EXPAND_ONLY} UPDATE loc_schema SET version = ${SCHEMA_VERSION + 1}, compatible_from = ${SCHEMA_VERSION}; COMMIT;`);
    expect(await schemaRow(newer)).toEqual({ version: SCHEMA_VERSION + 1, compatible_from: SCHEMA_VERSION });
    // A key the newer loc made, with its new column filled in (the store's statements, without this loc's migration check).
    const store = new PostgresStore(await newPool(seeded.database!.url, { max: 1 }));
    let made: SeededKey;
    try {
      const [acme] = await store.listAccounts();
      const { key, secret } = await issueKey(store, { accountId: acme.id, origins: [ORIGIN], hourlyLimit: 1000, createdAt: Date.now() });
      made = { id: key.id, accountId: acme.id, secret };
    } finally {
      await store.close();
    }
    await newer.query("UPDATE api_keys SET future_note = 'set by a newer loc'");

    servers.push(await SpawnedServer.start(seeded.dataDir, seeded.env));
    // The older server leaves the schema row as the newer loc set it.
    expect(await schemaRow(newer)).toEqual({ version: SCHEMA_VERSION + 1, compatible_from: SCHEMA_VERSION });
    const [server] = servers;
    for (const [n, key] of [seeded.keys[0], made].entries()) {
      // The newer loc goes on writing beside it: its table, its column.
      await newer.query('INSERT INTO loc_future_audit (key_id, note, at) VALUES ($1, $2, $3)', [key.id, `call ${n}`, Date.now()]);
      await newer.query('UPDATE api_keys SET future_note = $1 WHERE id = $2', [`call ${n}`, key.id]);
      const codes = await exerciseApi(server, key.secret, n);
      // Its saves are the newer loc's rows as well.
      const { rows } = await newer.query<{ code: string }>('SELECT code FROM locations WHERE account_id = $1 AND code = ANY ($2)', [key.accountId, codes]);
      expect(rows.map((row) => row.code).sort()).toEqual([...new Set(codes)].sort());
    }
    expect(await schemaRow(newer)).toEqual({ version: SCHEMA_VERSION + 1, compatible_from: SCHEMA_VERSION });
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 60_000);

  it('(b) this loc refuses, in one line naming both versions, a database a newer loc made incompatible', async () => {
    ensureBuilt();
    const seeded = await seedDataDir([{ account: 'acme' }], { engine: 'postgres' });
    ({ database, dataDir } = seeded);
    const newer = await connect(seeded.database!.url);
    await newer.query(`BEGIN; ${EXPAND_ONLY} UPDATE loc_schema SET version = ${SCHEMA_VERSION + 1}, compatible_from = ${SCHEMA_VERSION + 1}; COMMIT;`);
    const { code, output } = await failedStart({ LOC_DATA_DIR: seeded.dataDir, ...seeded.env });
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines, output).toHaveLength(1);
    expect(lines[0]).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect(lines[0]).toContain(`needs a loc of schema version ${SCHEMA_VERSION + 1} or newer; this loc has ${SCHEMA_VERSION}`);
    // Nothing was changed.
    expect(await schemaRow(newer)).toEqual({ version: SCHEMA_VERSION + 1, compatible_from: SCHEMA_VERSION + 1 });
  }, 30_000);

  it('(c) this loc migrates a database an older loc still runs on, and the older one\'s queries go on working', async () => {
    ensureBuilt();
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'loc-stress-'));
    const url = database.url;
    // The database as the older loc left it: its migrations only, and its schema row.
    const older = await connect(url);
    const previous = SCHEMA_VERSION - 1;
    await older.query('BEGIN');
    await older.query('CREATE TABLE loc_schema (one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL, compatible_from integer NOT NULL)');
    for (const migration of MIGRATIONS.slice(0, -1)) await older.query(migration.sql);
    await older.query('INSERT INTO loc_schema (version, compatible_from) VALUES ($1, $2)', [previous, MIGRATIONS[previous - 1].compatibleFrom]);
    await older.query('COMMIT');
    // Its rows, written by the store's statements on its tables (no migration: the older loc's store).
    const pool = await newPool(url, { max: 2 });
    const olderStore = new PostgresStore(pool);
    let keys: SeededKey[];
    let savedByOlder: string;
    try {
      keys = await seedStore(olderStore, [{ account: 'acme', hourlyLimit: 1000 }]);
      savedByOlder = (await olderStore.saveLocation({
        accountId: keys[0].accountId, mode: 'live', code: 'FR-0RMB-CLY0', latitude: 45.764, longitude: 4.8357, address: '1 place Bellecour, Lyon', label: 'older', createdAt: Date.now(),
      })).location.code;
    } finally {
      await olderStore.close();
    }
    // What the older loc reads: every table it has, by the columns it knows.
    const { rows: columns } = await older.query<{ table_name: string; columns: string[] }>(
      "SELECT table_name, array_agg(column_name::text ORDER BY ordinal_position) AS columns FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name ORDER BY table_name",
    );
    expect(columns.map((row) => row.table_name)).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'locations', 'sessions', 'test_locations']));
    const olderQueries = async () => {
      const counts: Record<string, number> = {};
      for (const { table_name: table, columns: names } of columns) {
        const query = `SELECT ${names.map((name) => `"${name}"`).join(', ')} FROM "${table}"`;
        try {
          counts[table] = (await older.query(query)).rowCount ?? 0;
        } catch (error) {
          throw new Error(`the older loc's ${query} failed: ${(error as Error).message}`);
        }
      }
      return counts;
    };
    await olderQueries();

    // The newer loc starts while the older one is connected, reading as it serves.
    let reading = true;
    const reads = (async () => {
      let done = 0;
      while (reading) {
        await olderQueries();
        done++;
      }
      return done;
    })();
    servers.push(await SpawnedServer.start(dataDir, { LOC_DATABASE_URL: url }));
    reading = false;
    expect(await reads).toBeGreaterThan(0);
    expect(await schemaRow(older)).toEqual({ version: SCHEMA_VERSION, compatible_from: MIGRATIONS[SCHEMA_VERSION - 1].compatibleFrom });

    // The newer loc serves the older one's key and rows, and writes its own.
    const [server] = servers;
    const looked = await fetch(`${server.url}/v1/loc/lookup/${savedByOlder}`, { headers: { 'x-api-key': keys[0].secret } });
    expect(looked.status).toBe(200);
    expect(((await looked.json()) as { location: { label: string } }).location.label).toBe('older');
    const codes = await exerciseApi(server, keys[0].secret, 0);

    // The older loc's reads, of every table by its old columns, still work and see the newer one's rows.
    const after = await olderQueries();
    expect(after.locations).toBeGreaterThanOrEqual(1 + new Set(codes).size);
    expect(after.sessions).toBeGreaterThanOrEqual(1);
    const { rows } = await older.query<{ label: string | null }>('SELECT account_id, code, latitude, longitude, address, label, created_at FROM locations WHERE code = $1', [codes[0]]);
    expect(rows.map((row) => row.label)).toEqual(['rolling 0']);
    // And its writes, as it makes them.
    await older.query(
      'INSERT INTO locations (account_id, code, latitude, longitude, address, label, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [keys[0].accountId, 'FR-0RMB-CLY1', 45.7641, 4.8358, null, 'older again', Date.now()],
    );
    await older.query("UPDATE api_keys SET label = 'renamed by the older loc' WHERE id = $1", [keys[0].id]);
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 60_000);
});
