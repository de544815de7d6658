/**
 * The store's and the request counters' metrics, read from the app's registry in process, on real
 * engines: SQLite with the counters in the process; PostgreSQL with the counters in Redis, each reached
 * through a TCP proxy the test cuts, so that they fail as an outage fails them. Also the usage meter's
 * batches, which only a store that fails can show failing.
 */
import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byLabel, sampled } from '../../../test/support/metric-samples.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';
import { redisServer, stopRedis } from '../../../test/support/redis.ts';
import { freshService, testService, type TestService } from '../../../test/support/service.ts';
import { tcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.ts';
import { KEY_CACHE_MS } from '../plugins/store.ts';

const LOOKUP = '/v1/loc/lookup/US-550M-RQ5L';
const STORE_CALLS = 'loc_store_operation_duration_seconds_count';
const COUNTER_CALLS = 'loc_counters_operation_duration_seconds_count';

/** The operations whose calls on `engine` grew while `work` ran. */
async function operationsOf(registry: Registry, engine: string, work: () => Promise<unknown>): Promise<string[]> {
  const before = await byLabel(registry, STORE_CALLS, 'operation', { engine });
  await work();
  const after = await byLabel(registry, STORE_CALLS, 'operation', { engine });
  return [...after].filter(([operation, calls]) => calls > (before.get(operation) ?? 0)).map(([operation]) => operation).sort();
}

afterAll(async () => {
  await stopPostgres();
  await stopRedis();
});

describe('on SQLite, with the counters in the process', () => {
  it('times the store calls a lookup made, and its count, and shows no pool', async () => {
    const registry = new Registry();
    const service = await freshService({}, { metrics: registry });
    const { secret } = await service.key('acme');
    const lookup = async () => expect((await service.request({ url: LOOKUP, headers: { 'x-api-key': secret } })).statusCode).toBe(200);
    expect(await operationsOf(registry, 'sqlite', lookup)).toEqual(['findKeyByHash', 'hasLocations']);
    expect(await sampled(registry, COUNTER_CALLS, { engine: 'memory', operation: 'take' })).toBe(1);
    // A conflict of the store, by kind.
    await expect(service.app.store.createAccount({ name: 'acme', partner: false, createdAt: service.clock.now() })).rejects.toThrow(/already exists/);
    expect(await sampled(registry, 'loc_store_errors_total', { engine: 'sqlite', operation: 'createAccount', kind: 'conflict' })).toBe(1);
    expect(await sampled(registry, 'loc_store_pool_connections')).toBeUndefined();
    expect(await sampled(registry, 'loc_store_pool_waiting')).toBeUndefined();
  });
});

describe('on PostgreSQL, with the counters in Redis', () => {
  let db: TestDatabase;
  let database: TcpProxy;
  let redis: TcpProxy;
  let service: TestService;
  const registry = new Registry();
  const through = async (url: string): Promise<[TcpProxy, string]> => {
    const { hostname, port } = new URL(url);
    const proxy = await tcpProxy({ host: hostname, port: Number(port) });
    return [proxy, proxy.through(url)];
  };
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    const [toDatabase, databaseUrl] = await through(db.url);
    const [toRedis, redisUrl] = await through((await redisServer()).url);
    [database, redis] = [toDatabase, toRedis];
    // One connection: a second statement at once waits for it.
    service = await testService({ LOC_DATABASE_URL: databaseUrl, LOC_REDIS_URL: redisUrl, LOC_DATABASE_POOL_SIZE: '1' }, { metrics: registry });
  });
  afterAll(async () => {
    await service.close();
    await database.close();
    await redis.close();
    await db.dispose();
  });
  const lookup = (secret: string) => service.request({ url: LOOKUP, headers: { 'x-api-key': secret } });

  it('times the store calls a lookup made, and its count in Redis', async () => {
    const { secret } = await service.key('acme');
    expect(await operationsOf(registry, 'postgres', async () => expect((await lookup(secret)).statusCode).toBe(200))).toEqual(['findKeyByHash', 'hasLocations']);
    expect(await sampled(registry, COUNTER_CALLS, { engine: 'redis', operation: 'take' })).toBe(1);
    expect(await byLabel(registry, 'loc_store_pool_connections', 'state')).toEqual(new Map([['in_use', 0], ['idle', 1]]));
    expect(await sampled(registry, 'loc_store_pool_waiting')).toBe(0);
  });

  it('shows the pool’s connection in use and the calls waiting for it', async () => {
    const [one, two] = [await service.key('pool-one'), await service.key('pool-two')];
    service.clock.advance(KEY_CACHE_MS);
    // Another client holds the keys' table: the first lookup's statement waits on the lock, holding
    // the one connection, and the second lookup waits for that connection.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE');
      const answers = Promise.all([lookup(one.secret), lookup(two.secret)]);
      // The pool hands its connection over a moment after a call asks for it: wait for the two to settle.
      // (At least one waits: the usage meter's or the key uses' batch may come to wait too.)
      const busy = async () => ({ inUse: await sampled(registry, 'loc_store_pool_connections', { state: 'in_use' }), waiting: await sampled(registry, 'loc_store_pool_waiting') });
      await expect.poll(busy).toEqual({ inUse: 1, waiting: expect.toSatisfy((waiting: number) => waiting >= 1) });
      await holder.query('ROLLBACK');
      expect((await answers).map((answer) => answer.statusCode)).toEqual([200, 200]);
    } finally {
      await holder.end();
    }
    expect(await sampled(registry, 'loc_store_pool_waiting')).toBe(0);
    expect(await sampled(registry, 'loc_store_pool_connections', { state: 'in_use' })).toBe(0);
  });

  it('counts the calls that failed by kind, the counters out of reach, and the usage batches that failed', async () => {
    const { secret } = await service.key('cut');
    expect((await lookup(secret)).statusCode).toBe(200);
    await redis.cut();
    // A key of its own: no lease of an earlier step answers it without asking Redis.
    const fresh = await service.key('cut-fresh');
    expect((await lookup(fresh.secret)).statusCode).toBe(503);
    expect(await sampled(registry, 'loc_counters_unreachable_total', { engine: 'redis', operation: 'take' })).toBe(1);
    await redis.restore();

    await database.cut();
    service.clock.advance(KEY_CACHE_MS);
    expect((await lookup(secret)).statusCode).toBe(503);
    expect(await sampled(registry, 'loc_store_errors_total', { engine: 'postgres', operation: 'findKeyByHash', kind: 'unavailable' })).toBe(1);
    const flushes = async () => byLabel(registry, 'loc_usage_flushes_total', 'result');
    const before = await flushes();
    await service.app.usage.flush();
    expect((await flushes()).get('failed')).toBe((before.get('failed') ?? 0) + 1);
    await database.restore();
    await service.app.usage.flush();
    expect((await flushes()).get('ok')).toBe((before.get('ok') ?? 0) + 1);
  });
});
