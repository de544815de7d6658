/**
 * The counters several processes share, on real PostgreSQL and real Redis: the same cases for both.
 * Two counter instances stand for two loc processes (each has its own connections and its own
 * memory of spent budgets); a cut TCP proxy stands for the engine going away and coming back.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { redisServer, stopRedis } from '../../test/support/redis.ts';
import { tcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.ts';
import { StoreUnavailable } from './store.ts';
import { HOUR_MS } from '../durations.ts';
import type { Budget, SettledStep } from './counters.ts';
import { postgresCountEngine, postgresCounters } from './postgres/postgres-counters.ts';
import { redisCountEngine, redisCounters } from './redis/redis-counters.ts';
import { sharedCounters, type CountEngine, type SharedCounters } from './shared-counters.ts';

const NOW = 1_800_000_000_000;
const now = () => NOW;

interface Row {
  used: number;
  /** When the engine forgets the window, ms since the epoch (Redis: the hash's expiry; PostgreSQL: resets_at, swept after). */
  forgetAt: number;
}

interface Engine {
  /** A counter instance, as one loc process has (through `url` when given: a proxy's). */
  open(url?: string): Promise<SharedCounters>;
  /** The engine's own step, with connections of its own, closed by the caller. */
  countEngine(): Promise<CountEngine>;
  /** What the engine holds for a budget, or null. */
  row(id: string): Promise<Row | null>;
  /** The engine's URL, for a proxy to stand in front of. */
  url: string;
  dispose(): Promise<void>;
}

async function postgresEngine(): Promise<Engine> {
  const database: TestDatabase = await createTestDatabase({ migrated: true });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return {
    url: database.url,
    open: (url = database.url) => postgresCounters(url, { now }),
    countEngine: async () => postgresCountEngine(new pg.Pool({ connectionString: database.url })),
    async row(id) {
      const { rows } = await client.query<Row>('SELECT used::int, resets_at::float8 AS "forgetAt" FROM request_counts WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async dispose() {
      await client.end();
      await database.dispose();
    },
  };
}

async function redisEngine(): Promise<Engine> {
  const { url } = await redisServer();
  // Each run writes under a prefix of its own: the machine's Redis is shared with other test files.
  const prefix = `loc-test-${randomBytes(4).toString('hex')}:`;
  const { Redis } = await import('ioredis');
  const reader = new Redis(url);
  return {
    url,
    open: (through = url) => redisCounters(through, { now, prefix }),
    countEngine: async () => redisCountEngine(new Redis(url), prefix),
    async row(id) {
      const hash = await reader.hgetall(`${prefix}count:${id}`);
      if (hash.used === undefined) return null;
      return { used: Number(hash.used), forgetAt: Number(await reader.call('PEXPIRETIME', `${prefix}count:${id}`)) };
    },
    async dispose() {
      const keys = await reader.keys(`${prefix}*`);
      if (keys.length > 0) await reader.del(...keys);
      reader.disconnect();
    },
  };
}

const hour = Math.floor(NOW / HOUR_MS);
const budget = (id: string, limit: number, kind = 'server', resetsAt = (hour + 1) * HOUR_MS): Budget => ({ id, limit, resetsAt, keyId: 'key_1', kind });

afterAll(async () => {
  await stopPostgres();
  await stopRedis();
});

describe.each([
  ['PostgreSQL', postgresEngine],
  ['Redis', redisEngine],
])('counters shared in %s', (_, makeEngine) => {
  let engine: Engine;
  const opened: SharedCounters[] = [];
  const open = async (url?: string) => {
    const counters = await engine.open(url);
    opened.push(counters);
    return counters;
  };

  beforeAll(async () => {
    engine = await makeEngine();
  });
  afterAll(async () => {
    for (const counters of opened) await counters.close().catch(() => {});
    await engine.dispose();
  });

  it('counts a budget down to zero, then refuses, the first refusal said once', async () => {
    const counters = await open();
    const b = [budget(`a:${hour}`, 2)];
    expect(await counters.take(b, NOW)).toEqual({ spent: -1, remaining: [1], firstRefusal: false });
    expect(await counters.take(b, NOW)).toEqual({ spent: -1, remaining: [0], firstRefusal: false });
    expect(await counters.take(b, NOW)).toEqual({ spent: 0, remaining: [0], firstRefusal: true });
    expect(await counters.take(b, NOW)).toMatchObject({ spent: 0, firstRefusal: false });
    // A second process asks the engine, which has the refusal already: not a first one either.
    expect(await (await open()).take(b, NOW)).toMatchObject({ spent: 0, firstRefusal: false });
  });

  it('counts a request against every budget or none, and names the first spent one', async () => {
    const counters = await open();
    const small = budget('session:s1', 1, 'session');
    const large = budget(`embed:k1:${hour}`, 5, 'embed');
    expect(await counters.take([small, large], NOW)).toEqual({ spent: -1, remaining: [0, 4], firstRefusal: false });
    expect(await counters.take([small, large], NOW)).toMatchObject({ spent: 0, firstRefusal: true });
    expect(await counters.take([large], NOW)).toEqual({ spent: -1, remaining: [3], firstRefusal: false });
    expect((await engine.row(large.id))?.used).toBe(2);
  });

  it('applies a limit raised within the window, in a process that had seen the budget spent', async () => {
    const counters = await open();
    const id = `raised:${hour}`;
    await counters.take([budget(id, 1)], NOW);
    expect((await counters.take([budget(id, 1)], NOW)).spent).toBe(0);
    expect(await counters.take([budget(id, 3)], NOW)).toMatchObject({ spent: -1, remaining: [1] });
  });

  it('hands out each remaining value once across two processes taking at once, and passes exactly the limit', async () => {
    const [one, two] = [await open(), await open()];
    const b = [budget(`race:${hour}`, 150)];
    const results = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? one : two).take(b, NOW)));
    const passed = results.filter((r) => r.spent < 0);
    expect(passed).toHaveLength(150);
    expect(new Set(passed.map((r) => r.remaining[0])).size).toBe(150);
    expect(results.filter((r) => r.firstRefusal)).toHaveLength(1);
    expect((await engine.row(b[0].id))?.used).toBe(150);
  });

  it('takes in one step as many requests as every budget has room for, each all or nothing, naming the first budget with the least room', async () => {
    const step = await engine.countEngine();
    try {
      const small = budget(`step-small:${hour}`, 3);
      const large = budget(`step-large:${hour}`, 10);
      const tied = budget(`step-tied:${hour}`, 3);
      expect(await step.take([{ budgets: [large, small, tied], wanted: 5 }], NOW)).toEqual([{ granted: 3, spent: 1, counts: [3, 3, 3], firstRefusal: true }]);
      expect(await step.take([{ budgets: [large, small, tied], wanted: 2 }], NOW)).toEqual([{ granted: 0, spent: 1, counts: [3, 3, 3], firstRefusal: false }]);
      expect(await step.take([{ budgets: [large], wanted: 4 }], NOW)).toEqual([{ granted: 4, spent: -1, counts: [7], firstRefusal: false }]);
      expect((await engine.row(large.id))?.used).toBe(7);
    } finally {
      await step.close();
    }
  });

  it('takes several budget sets in one step, in turn, a later set seeing what an earlier one took from a budget they share', async () => {
    const step = await engine.countEngine();
    try {
      // Two sessions of one key: each its own budget, both the key's embed budget, which has room for 5.
      const embed = budget(`shared-embed:${hour}`, 5, 'embed');
      const [one, two] = [budget('shared-session:1', 4, 'session', NOW + 60_000), budget('shared-session:2', 4, 'session', NOW + 60_000)];
      const other = budget(`shared-other:${hour}`, 2);
      expect(await step.take([{ budgets: [one, embed], wanted: 3 }, { budgets: [other], wanted: 3 }, { budgets: [two, embed], wanted: 4 }], NOW)).toEqual([
        { granted: 3, spent: -1, counts: [3, 3], firstRefusal: false },
        { granted: 2, spent: 0, counts: [2], firstRefusal: true },
        { granted: 2, spent: 1, counts: [2, 5], firstRefusal: true },
      ]);
      expect([(await engine.row(embed.id))?.used, (await engine.row(two.id))?.used, (await engine.row(other.id))?.used]).toEqual([5, 2, 2]);
    } finally {
      await step.close();
    }
  });

  it('gathers the requests that wait into one step, by budget set: one step in flight per process, each request its own count', async () => {
    const real = await engine.countEngine();
    const steps: number[][] = [];
    const counters = sharedCounters({ ...real, take: (sets, at) => (steps.push(sets.map((set) => set.wanted)), real.take(sets, at)) }, { now });
    try {
      const b = [budget(`gathered:${hour}`, 100)];
      const results = await Promise.all(Array.from({ length: 40 }, () => counters.take(b, NOW)));
      // The first goes alone; the 39 that came while it was in flight go in the next step, together.
      expect(steps).toEqual([[1], [39]]);
      expect(results.map((result) => result.remaining[0])).toEqual(Array.from({ length: 40 }, (_, i) => 99 - i));
      expect((await engine.row(b[0].id))?.used).toBe(40);
      const over = await Promise.all(Array.from({ length: 70 }, () => counters.take(b, NOW)));
      expect(over.filter((result) => result.spent < 0)).toHaveLength(60);
      expect(over.filter((result) => result.firstRefusal)).toHaveLength(1);
      expect((await engine.row(b[0].id))?.used).toBe(100);

      // Ten keys, three requests each, at once: two steps in all, the second with every key's (the first
      // key's two left come last: its line was sent and made anew).
      steps.length = 0;
      const keys = Array.from({ length: 10 }, (_, k) => [budget(`many-${k}:${hour}`, 2)]);
      const many = await Promise.all(Array.from({ length: 30 }, (_, i) => counters.take(keys[i % 10], NOW)));
      expect(steps).toEqual([[1], [3, 3, 3, 3, 3, 3, 3, 3, 3, 2]]);
      expect(many.filter((result) => result.spent < 0)).toHaveLength(20);
      for (const key of keys) expect((await engine.row(key[0].id))?.used).toBe(2);
    } finally {
      await counters.close();
    }
  });

  it('leases a key\'s budget to a process by its demand: counts handed out without a step, each once, all of them counted', async () => {
    const real = await engine.countEngine();
    const steps: number[][] = [];
    const counters = sharedCounters({ ...real, take: (sets, at) => (steps.push(sets.map((set) => set.wanted)), real.take(sets, at)) }, { now });
    try {
      const b = [budget(`leased:${hour}`, 10_000)];
      const passed: number[] = [];
      for (let wave = 0; wave < 6; wave++) {
        for (const result of await Promise.all(Array.from({ length: 50 }, () => counters.take(b, NOW)))) passed.push(result.remaining[0]);
      }
      // A wave's first request goes alone with a lease as large as the demand the line has had, the
      // rest wait for it and are answered from that lease; from the fourth wave on, one step a wave.
      expect(steps.slice(0, 4)).toEqual([[1], [49], [2], [97]]);
      expect(steps).toHaveLength(7);
      expect(passed.sort((x, y) => y - x)).toEqual(Array.from({ length: 300 }, (_, i) => 9_999 - i));
      // The engine counted what was asked, nothing refused: beyond the requests, the lease still held.
      const used = (await engine.row(b[0].id))?.used;
      expect(used).toBe(steps.flat().reduce((sum, wanted) => sum + wanted));
      expect(used! - 300).toBeLessThanOrEqual(256);
    } finally {
      await counters.close();
    }
  });

  it('totals its steps, the requests its leases answered, the counts leased and the refusals made here, and tells an observer of each step', async () => {
    const real = await engine.countEngine();
    let away = false;
    const cut = () => Promise.reject(new StoreUnavailable('unreachable', 'the test cut the engine off'));
    const counters = sharedCounters({ ...real, take: (sets, at) => (away ? cut() : real.take(sets, at)) }, { now });
    const steps: Omit<SettledStep, 'seconds'>[] = [];
    counters.observeSteps(({ seconds, ...step }) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      steps.push(step);
    });
    let takes = 0;
    const take = (b: Budget[]) => (takes++, counters.take(b, NOW));
    const at = (n: number, b: Budget[]) => Promise.all(Array.from({ length: n }, () => take(b)));
    try {
      const b = [budget(`stats:${hour}`, 10_000)];
      // As the lease test: [1], [49]; then [1 with a lease of 1], which answers one of the 49 waiting,
      // and [48 with a lease of 49]; then 49 answered from that lease at once, the last with a lease of 50.
      for (let wave = 0; wave < 3; wave++) await at(50, b);
      expect(counters.stats()).toEqual({ steps: 5, failedSteps: 0, leased: 50, leaseCounts: 100, refusedHere: 0 });
      // A budget of 1: counted, refused by the engine, then twice refused here.
      const one = [budget(`stats-one:${hour}`, 1)];
      for (let i = 0; i < 4; i++) await take(one);
      // Ten keys at once: the first alone, then the 29 others of ten budget sets in one step.
      const keys = Array.from({ length: 10 }, (_, k) => [budget(`stats-${k}:${hour}`, 2)]);
      await Promise.all(Array.from({ length: 30 }, (_, i) => take(keys[i % 10])));
      away = true;
      const failed = await Promise.allSettled([take([budget(`stats-away:${hour}`, 5)]), take([budget(`stats-away:${hour}`, 5)])]);
      expect(failed.map((settled) => settled.status)).toEqual(['rejected', 'rejected']);
      expect(counters.stats()).toEqual({ steps: 11, failedSteps: 2, leased: 50, leaseCounts: 100, refusedHere: 2 });
      const ok = (requests: number, sets = 1) => ({ requests, sets, failed: false });
      expect(steps).toEqual([ok(1), ok(49), ok(1), ok(48), ok(1), ok(1), ok(1), ok(1), ok(29, 10), { requests: 1, sets: 1, failed: true }, { requests: 1, sets: 1, failed: true }]);
      // Every request went in a step, or was answered from a lease, or refused here.
      const stats = counters.stats();
      expect(steps.reduce((sum, step) => sum + step.requests, 0) + stats.leased + stats.refusedHere).toBe(takes);
    } finally {
      await counters.close();
    }
  });

  it('spends what a lease holds while the engine is away, each count once, then answers 503 material: nothing passes uncounted', async () => {
    const { hostname, port } = new URL(engine.url);
    const proxy: TcpProxy = await tcpProxy({ host: hostname, port: Number(port || 6379) });
    try {
      const counters = await open(proxy.through(engine.url));
      const b = [budget(`leased-away:${hour}`, 10_000)];
      for (let wave = 0; wave < 4; wave++) await Promise.all(Array.from({ length: 50 }, () => counters.take(b, NOW)));
      await counters.take(b, NOW);
      const held = (await engine.row(b[0].id))!.used - 201;
      expect(held).toBeGreaterThan(0);
      await proxy.cut();
      let passedWhileAway = 0;
      while (await counters.take(b, NOW).then(() => true, (error: unknown) => (expect(error).toBeInstanceOf(StoreUnavailable), false))) passedWhileAway++;
      expect(passedWhileAway).toBe(held);
      expect((await engine.row(b[0].id))?.used).toBe(201 + held);
    } finally {
      await proxy.close();
    }
  });

  it('says a budget\'s first refusal once when it fell on a lease rather than on a request: at this process\'s next refusal', async () => {
    const real = await engine.countEngine();
    const steps: number[][] = [];
    const one = sharedCounters({ ...real, take: (sets, at) => (steps.push(sets.map((set) => set.wanted)), real.take(sets, at)) }, { now });
    const two = await open();
    const other = await engine.countEngine();
    try {
      const b = [budget(`lease-refused:${hour}`, 1_000)];
      const results = [await one.take(b, NOW)];
      await other.take([{ budgets: b, wanted: 998 }], NOW);
      // The last count left goes to the request, the lease it asked for finds none: the engine's first refusal.
      results.push(await one.take(b, NOW), await two.take(b, NOW), await one.take(b, NOW));
      expect(steps).toEqual([[1], [2]]);
      expect(results.map((r) => [r.spent, r.firstRefusal])).toEqual([[-1, false], [-1, false], [0, false], [0, true]]);
      expect((await engine.row(b[0].id))?.used).toBe(1_000);
    } finally {
      await one.close();
      await other.close();
    }
  });

  it('forgets every window when it ends, hourly ones too: usage is the store\'s, not the counters\'', async () => {
    const counters = await open();
    const hourly = budget(`server:k:${hour}`, 5);
    const session = budget('session:s9', 5, 'session', NOW + 90_000);
    await counters.take([session, hourly], NOW);
    expect(await engine.row(hourly.id)).toEqual({ used: 1, forgetAt: hourly.resetsAt });
    expect(await engine.row(session.id)).toEqual({ used: 1, forgetAt: session.resetsAt });
  });

  it('answers 503 material (StoreUnavailable) while the engine is away, never a pass, and recovers by itself', async () => {
    const { hostname, port } = new URL(engine.url);
    const proxy: TcpProxy = await tcpProxy({ host: hostname, port: Number(port || 6379) });
    try {
      const counters = await open(proxy.through(engine.url));
      const spent = [budget(`gone-spent:${hour}`, 1)];
      await counters.take(spent, NOW);
      await counters.take(spent, NOW);
      await proxy.cut();
      await expect(counters.take([budget(`gone:${hour}`, 10)], NOW)).rejects.toBeInstanceOf(StoreUnavailable);
      // A batch the engine fails fails each of its requests: none passes uncounted.
      const batch = await Promise.allSettled(Array.from({ length: 10 }, () => counters.take([budget(`gone:${hour}`, 10)], NOW)));
      expect(batch.map((settled) => settled.status === 'rejected' && settled.reason instanceof StoreUnavailable)).toEqual(Array(10).fill(true));
      // A budget this process saw spent stays refused without the engine: 429, not 503.
      expect(await counters.take(spent, NOW)).toMatchObject({ spent: 0 });
      await proxy.restore();
      await expect.poll(() => counters.take([budget(`gone:${hour}`, 10)], NOW).then((r) => r.spent, () => 'unavailable'), { timeout: 10_000 }).toBe(-1);
    } finally {
      await proxy.close();
    }
  });

  it('refuses to open on an engine that cannot be reached, or counts nothing through it', async () => {
    const proxy = await tcpProxy({ host: '127.0.0.1', port: 1 });
    await proxy.cut();
    const opening = open(proxy.through(engine.url)).then((counters) => counters.take([budget(`never:${hour}`, 5)], NOW));
    await expect(opening).rejects.toBeInstanceOf(StoreUnavailable);
  });
});

describe('PostgreSQL sweep', () => {
  it('deletes the windows that have ended, hourly and session ones alike, and keeps the others', async () => {
    const engine = await postgresEngine();
    try {
      const counters = await engine.open();
      const ended = (hour - 1) * HOUR_MS;
      await counters.take([budget('session:old', 5, 'session', ended)], NOW - HOUR_MS);
      await counters.take([budget(`server:k:${hour - 1}`, 5, 'server', ended)], NOW - HOUR_MS);
      await counters.take([budget(`server:k:${hour}`, 5)], NOW);
      const pool = new pg.Pool({ connectionString: engine.url });
      await postgresCountEngine(pool).sweep(NOW);
      await pool.end();
      expect(await engine.row('session:old')).toBeNull();
      expect(await engine.row(`server:k:${hour - 1}`)).toBeNull();
      expect(await engine.row(`server:k:${hour}`)).toMatchObject({ used: 1 });
      await counters.close();
    } finally {
      await engine.dispose();
    }
  });
});
