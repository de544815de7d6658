/**
 * The service on PostgreSQL (LOC_DATABASE_URL): a partner's checkout end to end — a key, an embed
 * session, a confirmed point saved — lands in the PostgreSQL database, and nothing in SQLite's data
 * directory. The store itself is held to the conformance suite in src/store/postgres/postgres.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createTestDatabase, startCluster, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { freePort } from '../../test/support/loc-process.ts';
import { json, testService, type TestService } from '../../test/support/service.ts';
import { DATABASE_FILE } from '../store/sqlite/sqlite-files.ts';
import { StoreUnavailable } from '../store/store.ts';
import { buildApp } from './app.ts';
import { startServer } from './process/server.ts';
import { ConfigError, loadConfig } from './config.ts';

const ORIGIN = 'https://shop.example';
const EIFFEL = { lat: 48.85837, lng: 2.29448 };

let db: TestDatabase;
let service: TestService;
beforeAll(async () => {
  db = await createTestDatabase({ migrated: true });
  service = await testService({ LOC_DATABASE_URL: db.url });
});
afterAll(async () => {
  await service?.close();
  await db?.dispose();
  await stopPostgres();
});

describe('loc on PostgreSQL', () => {
  it('serves a checkout end to end from LOC_DATABASE_URL: the session, the saved point, its lookup', async () => {
    const { secret, account } = await service.key('acme');
    const withKey = { 'x-api-key': secret };
    const session = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: withKey, payload: { origin: ORIGIN } });
    expect(session.statusCode).toBe(200);
    const bearer = { authorization: `Bearer ${json<{ session_token: string }>(session).session_token}`, origin: ORIGIN };
    const confirm = await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: bearer, payload: { ...EIFFEL, save: true } });
    expect(confirm.statusCode).toBe(200);
    const code = json<{ loc_code: string }>(confirm).loc_code;
    const lookup = await service.request({ url: `/v1/loc/lookup/${code}`, headers: withKey });
    expect(lookup.statusCode).toBe(200);
    expect(json(lookup)).toMatchObject({ loc_code: code });

    // In PostgreSQL, read with a connection of the test's own; SQLite's file was never made.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT account_id, code FROM locations');
      expect(rows).toEqual([{ account_id: account.id, code }]);
      expect((await client.query('SELECT count(*)::int AS n FROM sessions')).rows).toEqual([{ n: 1 }]);
    } finally {
      await client.end();
    }
    expect(service.app.store).toBeDefined();
    expect(existsSync(join(service.dataDir, DATABASE_FILE))).toBe(false);
  });

  it('answers 503 service_unavailable with Retry-After while its PostgreSQL is down, never a 500', async () => {
    // A cluster of this test's own: stopping the machine's would stop every other test's.
    const cluster = await startCluster();
    let stopped = false;
    let own: TestService | undefined;
    try {
      await admin(cluster.adminUrl, 'CREATE DATABASE loc');
      own = await testService({ LOC_DATABASE_URL: cluster.adminUrl.replace(/\/postgres$/, '/loc') });
      const { secret } = await own.key('acme');
      const session = () => own!.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: ORIGIN } });
      expect((await session()).statusCode).toBe(200);
      cluster.stop();
      stopped = true;
      // Past the key cache's second, so that the request needs the database.
      own.clock.advance(5000);
      const down = await session();
      expect(down.statusCode).toBe(503);
      expect(json(down)).toMatchObject({ success: false, code: 'service_unavailable', message: 'The service cannot reach its database right now. Retry later.' });
      expect(down.headers['retry-after']).toBe('10');
    } finally {
      await own?.close();
      if (!stopped) cluster.stop();
    }
  });

  it('does not start on a database it cannot reach: StoreUnavailable unreachable, not a raw error', async () => {
    const config = loadConfig({ LOC_DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/loc`, LOC_LOG_LEVEL: 'silent' });
    const refusal = await buildApp(config).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect(refusal).toMatchObject({ reason: 'unreachable' });
  });

  it('starts as loc serve --seed-dev does on PostgreSQL, the data directory holding the development key alone, and refuses a database out of reach in one line that hides the password', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'loc-pg-serve-'));
    // Not made beforehand: on PostgreSQL only the development key file needs it.
    const dataDir = join(parent, 'data');
    let disposeAfter = async () => {};
    try {
      const env = { LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' };
      // An empty database of its own, so that there is something to seed.
      const empty = await createTestDatabase();
      disposeAfter = empty.dispose;
      const running = await startServer(loadConfig({ ...env, LOC_DATABASE_URL: empty.url }), { print: () => {}, seedDevelopment: true });
      try {
        const secret = readFileSync(join(dataDir, 'dev-api-key'), 'utf8').trim();
        expect((await fetch(`${running.url}/v1/loc/lookup/FR-0RMB-CLY0`, { headers: { 'x-api-key': secret } })).status).toBe(200);
        // No loc.db, and no SQLite lock file: the lock guards SQLite's file only.
        expect(readdirSync(dataDir)).toEqual(['dev-api-key']);
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      } finally {
        await running.close();
      }
      const closed = `postgres://postgres:s3cret@127.0.0.1:${await freePort()}/loc`;
      const failure = await startServer(loadConfig({ ...env, LOC_DATABASE_URL: closed }), { print: () => {} }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ name: 'StartFailure' });
      expect((failure as Error).message).toMatch(/^cannot open the database in postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/loc: connect ECONNREFUSED/);
    } finally {
      rmSync(parent, { recursive: true, force: true });
      await disposeAfter();
    }
  });

  it('accepts only a postgres:// URL with a host and a database as LOC_DATABASE_URL, and never shows its password', () => {
    expect(loadConfig({ LOC_DATABASE_URL: 'postgresql://loc:pw@db.internal:5432/loc' }).databaseUrl).toBe('postgresql://loc:pw@db.internal:5432/loc');
    expect(loadConfig({}).databaseUrl).toBeNull();
    for (const bad of ['mysql://loc:pw@db/loc', 'postgres://loc:pw@db.internal', 'db.internal/loc']) {
      const error = (() => {
        try {
          loadConfig({ LOC_DATABASE_URL: bad });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^LOC_DATABASE_URL must be a postgres/);
      expect((error as Error).message).not.toContain(':pw@');
    }
  });
});

