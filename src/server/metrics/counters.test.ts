/**
 * The shared counters' metrics — their steps, leases and refusals here — read from a real app's
 * registry in process, with the counters in PostgreSQL and in Redis, each reached through a TCP proxy
 * the test cuts for a step that fails; and none of them with the counters in memory.
 */
import { Registry } from 'prom-client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sampled } from '../../../test/support/metric-samples.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';
import { redisServer, stopRedis } from '../../../test/support/redis.ts';
import { freshService, type TestService } from '../../../test/support/service.ts';
import { tcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.ts';

const LOOKUP = '/v1/loc/lookup/US-550M-RQ5L';

/** What a scrape shows of the shared counters on `engine`, by what each figure means. */
async function figures(registry: Registry, engine: string) {
  const read = async (name: string, labels: Record<string, string> = {}) => sampled(registry, name, { engine, ...labels });
  return {
    steps: await read('loc_counters_steps_total', { result: 'ok' }),
    failedSteps: await read('loc_counters_steps_total', { result: 'failed' }),
    timed: await read('loc_counters_step_duration_seconds_count'),
    carried: await read('loc_counters_step_requests_sum'),
    sets: await read('loc_counters_step_sets_sum'),
    leased: await read('loc_counters_leased_requests_total'),
    leasedCounts: await read('loc_counters_leased_counts_total'),
    refusedHere: await read('loc_counters_refused_here_total'),
    takes: await read('loc_counters_operation_duration_seconds_count', { operation: 'take' }),
  };
}

afterAll(async () => {
  await stopPostgres();
  await stopRedis();
});

describe.each([
  ['PostgreSQL', 'postgres', async (db: TestDatabase) => db.url],
  ['Redis', 'redis', async () => (await redisServer()).url],
])('the shared counters in %s', (_, engine, engineUrl) => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  afterEach(async () => {
    await proxy.close();
    await db.dispose();
  });

  /** A service whose counters reach their engine through `proxy`, with its metrics in `registry`. */
  async function service(registry: Registry): Promise<TestService> {
    db = await createTestDatabase({ migrated: true });
    const url = await engineUrl(db);
    const { hostname, port } = new URL(url);
    proxy = await tcpProxy({ host: hostname, port: Number(port) });
    const counters: Record<string, string> = engine === 'postgres' ? { LOC_DATABASE_URL: proxy.through(url) } : { LOC_DATABASE_URL: db.url, LOC_REDIS_URL: proxy.through(url) };
    return freshService(counters, { metrics: registry });
  }

  it('counts the steps, what they carried, the requests leases answered, the counts leased and the refusals made here', async () => {
    const registry = new Registry();
    const loc = await service(registry);
    const lookups = async (secret: string, n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await loc.request({ url: LOOKUP, headers: { 'x-api-key': secret } })).statusCode);
      return statuses;
    };
    // One after another: a step; a step with a lease of 1, which the next spends; a step with a lease
    // of 2 (the demand since), which the next two spend; a step with a lease of 3.
    expect(await lookups((await loc.key('leased', { hourlyLimit: 1000 })).secret, 7)).toEqual(Array(7).fill(200));
    expect(await figures(registry, engine)).toEqual({ steps: 4, failedSteps: 0, timed: 4, carried: 4, sets: 4, leased: 3, leasedCounts: 6, refusedHere: 0, takes: 7 });
    // A limit of 2: two steps count, a third is refused by the engine, the next two here.
    expect(await lookups((await loc.key('spent', { hourlyLimit: 2 })).secret, 5)).toEqual([200, 200, 429, 429, 429]);
    expect(await figures(registry, engine)).toEqual({ steps: 7, failedSteps: 0, timed: 7, carried: 7, sets: 7, leased: 3, leasedCounts: 6, refusedHere: 2, takes: 12 });

    // At once: the requests that wait share a step.
    const { secret } = await loc.key('burst', { hourlyLimit: 1000 });
    await lookups(secret, 1);
    const burst = await Promise.all(Array.from({ length: 20 }, () => loc.request({ url: LOOKUP, headers: { 'x-api-key': secret } })));
    expect(burst.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    const after = await figures(registry, engine);
    expect(after.carried! + after.leased! + after.refusedHere!).toBe(after.takes);
    expect(await sampled(registry, 'loc_counters_step_requests_bucket', { engine, le: '1' })).toBeLessThan(after.timed!);

    // The engine away: the step of a request no lease answers fails, and is counted so.
    const away = await loc.key('away', { hourlyLimit: 1000 });
    await lookups(away.secret, 1);
    await proxy.cut();
    expect(await lookups(away.secret, 1)).toEqual([503]);
    expect(await figures(registry, engine)).toMatchObject({ steps: after.steps! + 1, failedSteps: 1, timed: after.timed! + 2, takes: after.takes! + 2 });
    await proxy.restore();
  });
});

it('has none of them with the counters in memory', async () => {
  const registry = new Registry();
  const loc = await freshService({}, { metrics: registry });
  const { secret } = await loc.key('acme');
  expect((await loc.request({ url: LOOKUP, headers: { 'x-api-key': secret } })).statusCode).toBe(200);
  expect(await sampled(registry, 'loc_counters_operation_duration_seconds_count', { engine: 'memory' })).toBe(1);
  for (const name of ['loc_counters_steps_total', 'loc_counters_step_duration_seconds_count', 'loc_counters_leased_requests_total', 'loc_counters_refused_here_total']) {
    expect(await sampled(registry, name), name).toBeUndefined();
  }
});
