/**
 * The PostgreSQL adapter against the store conformance suite, on a real PostgreSQL (test/support/
 * postgres.ts finds or starts one; each test gets a database of its own, migrated from the run's
 * template where the migrations are not what it tests), bare and behind the request cache as the
 * server uses it; plus what only a networked engine has: several pools on one database, migrations
 * racing, a schema from a newer loc, a database out of reach.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { auditStoreConformance } from '../../../test/conformance/audit-store.ts';
import { boundsConformance } from '../../../test/conformance/bounds.ts';
import { panelStoreConformance } from '../../../test/conformance/panel-store.ts';
import { heldInvitationsConformance } from '../../../test/conformance/held-invitations.ts';
import { storeConformance, type OpenedStore } from '../../../test/conformance/store.ts';
import { usageStoreConformance } from '../../../test/conformance/usage-store.ts';
import { postgresFill } from '../../../test/support/postgres-fill.ts';
import { createTestDatabase, sql, stopPostgres, type DatabaseOptions, type TestDatabase } from '../../../test/support/postgres.ts';
import { freePort } from '../../../test/support/loc-process.ts';
import { cachedStore } from '../cached.ts';
import { translatePostgresError } from './postgres-errors.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './postgres-migrations.ts';
import { newPool, redactUrl } from './postgres-pool.ts';
import { openPostgresStore, PostgresStore } from './postgres.ts';
import { NoDatabase, StoreUnavailable, type SavedLocation } from '../store.ts';

afterAll(stopPostgres);

// Two stores, two pools: the panel suite's races run across them as across two processes.
const open = async (): Promise<OpenedStore> => {
  const db = await createTestDatabase({ migrated: true });
  const store = await openPostgresStore(db.url);
  return {
    store, second: await openPostgresStore(db.url), settle: () => {}, fill: postgresFill(db.url), sql: async (text) => void (await sql(db.url, text)),
    dispose: db.dispose,
  };
};
storeConformance('postgres', open);
panelStoreConformance('postgres', open);
heldInvitationsConformance('postgres', open);
usageStoreConformance('postgres', open);
boundsConformance('postgres', open);
auditStoreConformance('postgres', open);

// As the server uses it: behind the request cache (cached.ts), with another store writing beside it.
storeConformance('postgres behind the request cache', async () => {
  const db = await createTestDatabase({ migrated: true });
  let now = 0;
  const ttlMs = 1000;
  return {
    store: cachedStore(await openPostgresStore(db.url), { now: () => now, ttlMs }),
    second: await openPostgresStore(db.url),
    settle: () => void (now += ttlMs),
    fill: postgresFill(db.url),
    dispose: db.dispose,
  };
});

const T0 = Date.UTC(2030, 0, 1);


/** A URL on this machine where nothing listens. */
const closedPortUrl = async () => `postgres://postgres@127.0.0.1:${await freePort()}/loc`;

describe('postgres store', () => {
  let db: TestDatabase;
  const opened: PostgresStore[] = [];
  const open = async (options?: { create?: boolean }) => {
    const store = await openPostgresStore(db.url, options);
    opened.push(store);
    return store;
  };
  const fresh = async (options?: DatabaseOptions) => {
    db = await createTestDatabase(options);
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await db?.dispose();
  });

  it('lets two stores, two pools, on one database agree, and loses no change when both edit one key at once', async () => {
    await fresh({ migrated: true });
    const [one, two] = [await open(), await open()];
    const acme = await one.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    expect(await two.getAccount(acme.id)).toEqual(acme);
    const key = await two.createKey({
      accountId: acme.id, mode: 'live', hash: 'h'.repeat(64), label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null,
      sessionLimit: null, createdAt: T0,
    });
    const origins = Array.from({ length: 20 }, (_, i) => `https://shop${i}.example`);
    await Promise.all(origins.map((origin, i) => (i % 2 === 0 ? one : two).updateKeyList(key.id, 'origins', { add: origin })));
    expect((await one.getKey(key.id))?.origins.sort()).toEqual([...origins].sort());
    await Promise.all(origins.slice(0, 10).map((origin, i) => (i % 2 === 0 ? two : one).updateKeyList(key.id, 'origins', { remove: origin })));
    expect((await two.getKey(key.id))?.origins.sort()).toEqual(origins.slice(10).sort());
    await one.setKeyStatus(key.id, 'disabled');
    expect(await two.findKeyByHash('h'.repeat(64))).toMatchObject({ key: { status: 'disabled' }, account: acme });
  });

  it('makes exactly one of two stores\' concurrent first saves of a cell win, and both read the winner', async () => {
    await fresh({ migrated: true });
    const [one, two] = [await open(), await open()];
    const acme = await one.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    const spot = (i: number): SavedLocation => ({
      accountId: acme.id, mode: 'live', code: 'FR-0RMB-CLY0', latitude: 48.8584, longitude: 2.2945, address: null, label: `try ${i}`, createdAt: T0 + i,
    });
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? one : two).saveLocation(spot(i))));
    const winners = results.filter((result) => result.created);
    expect(winners).toHaveLength(1);
    for (const result of results) expect(result.location).toEqual(winners[0].location);
    expect(await one.findLocation(acme.id, 'live', 'FR-0RMB-CLY0')).toEqual(winners[0].location);
    expect(await two.findLocation(acme.id, 'live', 'FR-0RMB-CLY0')).toEqual(winners[0].location);
  });

  it('migrates once when three stores open a new database at the same time', async () => {
    await fresh();
    // Without the lock, the second CREATE TABLE of a race fails (42P07, or 23505 on the catalogue).
    const stores = await Promise.all([open(), open(), open()]);
    expect(await sql(db.url, 'SELECT version, compatible_from FROM loc_schema')).toEqual([
      { version: SCHEMA_VERSION, compatible_from: MIGRATIONS[SCHEMA_VERSION - 1].compatibleFrom },
    ]);
    await stores[0].createAccount({ name: 'acme', partner: false, createdAt: T0 });
    expect(await stores[2].findAccount('acme')).toMatchObject({ name: 'acme' });
  });

  it('runs on a newer schema that says it still fits this loc (a rolling deploy), and leaves its version as it is', async () => {
    await fresh();
    await (await open()).close();
    await sql(db.url, 'UPDATE loc_schema SET version = $1, compatible_from = $2', [SCHEMA_VERSION + 1, SCHEMA_VERSION]);
    const store = await open();
    await expect(store.ping()).resolves.toBeUndefined();
    expect(await sql(db.url, 'SELECT version, compatible_from FROM loc_schema')).toEqual([{ version: SCHEMA_VERSION + 1, compatible_from: SCHEMA_VERSION }]);
  });

  it('refuses a schema that needs a newer loc, with a message that says so', async () => {
    await fresh();
    await (await open()).close();
    await sql(db.url, 'UPDATE loc_schema SET version = $1, compatible_from = $1', [SCHEMA_VERSION + 1]);
    const refusal = await open().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect(refusal).toMatchObject({ reason: 'cannot-open' });
    expect((refusal as Error).message).toBe(
      `the database has schema version ${SCHEMA_VERSION + 1}, which needs a loc of schema version ${SCHEMA_VERSION + 1} or newer; this loc has ${SCHEMA_VERSION}: run a newer loc`,
    );
  });

  it('without create, refuses a database loc never ran in, and writes nothing to it', async () => {
    await fresh();
    const refusal = await open({ create: false }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(NoDatabase);
    expect((refusal as Error).message).toContain(`/${db.name}`);
    expect(await sql(db.url, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).toEqual([{ n: 0 }]);
    await (await open()).close();
    await expect(open({ create: false })).resolves.toBeInstanceOf(PostgresStore);
  });

  it('sorts by bytes as SQLite does, whatever the database\'s locale, and reads times as numbers', async () => {
    // A database whose own order is English dictionary order (alpha, Alpha, beta, éclair, Zulu).
    await fresh({ icuLocale: 'en' });
    const store = await open();
    for (const name of ['beta', 'Zulu', 'éclair', 'alpha', 'Alpha']) await store.createAccount({ name, partner: false, createdAt: T0 });
    expect((await store.listAccounts()).map((a) => a.name)).toEqual(['Alpha', 'Zulu', 'alpha', 'beta', 'éclair']);
    expect((await store.findAccount('beta'))?.createdAt).toBe(T0);
  });

  it('refuses a TRUNCATE of the audit log, which keeps its entries', async () => {
    await fresh({ migrated: true });
    const store = await open();
    const acme = await store.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    const entry = await store.audit.appendAudit({
      at: T0, accountId: acme.id, via: 'cli', actor: 'root', source: 'ops-1', action: 'account.create', target: 'acme', details: {},
    });
    await expect(sql(db.url, 'TRUNCATE audit_log')).rejects.toThrow(/the audit log is append-only/);
    expect(await store.audit.listAudit({ accountId: null, limit: 10 })).toEqual([entry]);
  });

  it('gives each statement 5 seconds', async () => {
    await fresh();
    const pool = await newPool(db.url);
    try {
      expect((await pool.query('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '5s' }]);
    } finally {
      await pool.end();
    }
  });
});

describe('postgres store out of reach', () => {
  it('refuses to open a database nobody answers for, as unreachable, the password never shown', async () => {
    const url = (await closedPortUrl()).replace('postgres@', 'postgres:s3cret@');
    const refusal = await openPostgresStore(url).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect(refusal).toMatchObject({ reason: 'unreachable' });
    expect(redactUrl(url)).not.toContain('s3cret');
  });

  it('answers each method unreachable, never a raw error, and a look-up key with U+0000 null without a query', async () => {
    const store = new PostgresStore(await newPool(await closedPortUrl()));
    try {
      for (const call of [() => store.ping(), () => store.findAccount('acme'), () => store.listAccounts(), () => store.deleteSessionsExpiredBefore(T0), () => store.panel.sweep(T0)]) {
        await expect(call()).rejects.toMatchObject({ name: 'StoreUnavailable', reason: 'unreachable' });
      }
      // Had these queried, they would have failed as above.
      expect(await store.findAccount('ac\0me')).toBeNull();
      expect(await store.getSession('sid\0')).toBeNull();
      expect(await store.findKeyByHash('\0')).toBeNull();
      expect(await store.findLocation('acct_x', 'live', 'FR-0RMB\0')).toBeNull();
      expect(await store.panel.getUser('usr_\0')).toBeNull();
      expect(await store.panel.findUserByEmail('ada\0@example.com')).toBeNull();
      expect(await store.panel.setOperator('ada\0@example.com', true)).toBeNull();
      expect(await store.panel.findPasskey('cred\0')).toBeNull();
      expect(await store.panel.deletePasskey('usr_x', 'cred\0')).toBe(false);
      expect(await store.panel.takeChallenge('c\0', T0)).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('maps PostgreSQL\'s SQLSTATEs of a machine at fault to the port\'s reasons, and leaves the others alone', () => {
    const reason = (code: string) => {
      const error = translatePostgresError(Object.assign(new Error('m'), { code }));
      return error instanceof StoreUnavailable ? error.reason : null;
    };
    expect(['53100', '25006', '58030', '40001', '40P01', '55P03', '53300', '08006', '08001', '57P01', '57P03', 'ECONNREFUSED', 'ETIMEDOUT'].map(reason)).toEqual([
      'full', 'read-only', 'io-error', 'busy', 'busy', 'busy', 'busy', 'unreachable', 'unreachable', 'unreachable', 'unreachable', 'unreachable', 'unreachable',
    ]);
    expect(['23505', '22021', '42P01'].map(reason)).toEqual([null, null, null]);
    expect(translatePostgresError(new Error('Connection terminated unexpectedly'))).toMatchObject({ reason: 'unreachable' });
  });
});
