/**
 * What the log says while Redis or PostgreSQL cannot be reached, cut for real by a TCP proxy between
 * the app and the engine, with hundreds of requests answered 503 meanwhile: each cause once in full,
 * with its stack, then one line per interval with how many more requests it failed, and one line when
 * it recovers — not a line with a stack per request.
 */
import Fastify from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';
import { redisServer, stopRedis } from '../../../test/support/redis.ts';
import { testService, type TestService } from '../../../test/support/service.ts';
import { tcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.ts';
import { StoreUnavailable } from '../../store/store.ts';
import { portCalls } from '../plugins/port-calls.ts';
import { KEY_CACHE_MS } from '../plugins/store.ts';
import { outageLog } from './outage-log.ts';

/** The interval of the summary lines here: short, so that a cut of a few seconds spans several. */
const INTERVAL_MS = 500;
/** How long the cut lasts: the review's outage was 5–6 s. */
const CUT_MS = 3000;

type Line = { level: number; msg: string; err?: { stack?: string }; cause?: string; failed?: number };

let service: TestService | undefined;
let proxy: TcpProxy | undefined;
let db: TestDatabase | undefined;
afterEach(async () => {
  await service?.close();
  await proxy?.close();
  await db?.dispose();
  service = proxy = db = undefined;
});
afterAll(async () => {
  await stopPostgres();
  await stopRedis();
});

/** Through a proxy to the engine's URL: the settings that send the app's traffic through it. */
const CUTS = [
  {
    engine: 'Redis',
    settings: async (cut: (url: string) => Promise<string>) => ({ LOC_REDIS_URL: await cut((await redisServer()).url) }),
  },
  {
    engine: 'PostgreSQL',
    settings: async (cut: (url: string) => Promise<string>) => {
      db = await createTestDatabase({ migrated: true });
      return { LOC_DATABASE_URL: await cut(db.url) };
    },
  },
];

describe.each(CUTS)('$engine cut for a few seconds under load', ({ settings }) => {
  it('logs each cause once with its stack, then a count per interval, then its recovery', async () => {
    const through = async (url: string) => {
      const { hostname, port } = new URL(url);
      proxy = await tcpProxy({ host: hostname, port: Number(port) });
      return proxy.through(url);
    };
    const lines: Line[] = [];
    const logStream = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
    const env = { ...(await settings(through)), LOC_LOG_LEVEL: 'warn', LOC_OUTAGE_LOG_MS: String(INTERVAL_MS) };
    service = await testService(env, { logStream });
    const running = service;
    const { secret } = await running.key('acme');
    let failed = 0;
    const lookup = async () => {
      const answer = await running.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } });
      if (answer.statusCode === 503) failed += 1;
      return answer.statusCode;
    };
    expect(await lookup()).toBe(200);

    await proxy!.cut();
    // The key is read from the database again, not from the cache.
    running.clock.advance(KEY_CACHE_MS);
    const cutAt = Date.now();
    while (Date.now() - cutAt < CUT_MS) {
      for (const status of await Promise.all(Array.from({ length: 20 }, lookup))) expect(status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(failed).toBeGreaterThan(300);
    await proxy!.restore();
    await expect.poll(lookup, { timeout: 10_000 }).toBe(200);
    const stacks = () => lines.filter((line) => line.level >= 40 && line.err?.stack !== undefined);
    const causes = [...new Set(stacks().map((line) => line.cause))];
    // One full line per cause: a cut gives one or two (the database, the request counters).
    expect(stacks().length, `${failed} requests failed; the first lines: ${JSON.stringify(stacks().slice(0, 2).map((line) => line.msg))}`).toBe(causes.length);
    expect(causes.length).toBeLessThanOrEqual(2);
    await expect.poll(() => lines.filter((line) => /^recovered after /.test(line.msg)).length, { timeout: 5 * INTERVAL_MS }).toBe(causes.length);

    const logged = lines.filter((line) => line.level >= 40);
    const withStack = stacks();
    const intervals = Math.ceil((Date.now() - cutAt) / INTERVAL_MS);
    // Per cause: its first line, a summary per interval at most, its recovery; nothing else.
    expect(logged.length).toBeLessThanOrEqual(causes.length * (intervals + 2));
    for (const cause of causes) {
      const summaries = logged.filter((line) => line.cause === cause && /^\d+ more .+ failed: /.test(line.msg));
      const firstRequest = withStack.filter((line) => line.cause === cause && line.msg === 'request failed').length;
      const recovered = logged.filter((line) => line.cause === cause && /^recovered after \d+(\.\d)? s: /.test(line.msg));
      expect(recovered, cause).toHaveLength(1);
      expect(logged.filter((line) => line.cause === cause)).toEqual([...withStack.filter((line) => line.cause === cause), ...summaries, ...recovered]);
      // Each failed request is counted: in its cause's first line or in a summary.
      expect(summaries.length).toBeGreaterThan(1);
      if (causes.length === 1) expect(firstRequest + summaries.reduce((sum, line) => sum + (line.failed ?? 0), 0)).toBe(failed);
    }
  });
});

describe('the outage log', () => {
  it('names the source of what it watches, keeps a flapping cause one, says a new outage in full, and leaves other errors to the caller', async () => {
    const lines: Line[] = [];
    const { log } = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } } });
    const outages = outageLog(log, 50, Date.now);
    const request = { log, what: 'request failed', request: true };
    let up = false;
    const calls = portCalls();
    calls.watchWith(outages.watcher);
    const counters = calls.watch({ engine: 'redis', take: async () => {
      if (!up) throw new StoreUnavailable('unreachable', 'Redis: connect ECONNREFUSED');
      return 1;
    } }, 'counters');
    const fail = () => counters.take().then(() => expect.unreachable(), (error: unknown) => expect(outages.failed(error, request)).toBe(true));
    const said = (pattern: RegExp) => lines.filter((line) => pattern.test(line.msg));

    expect(outages.failed(new Error('a bug'), request)).toBe(false);
    await fail();
    await fail();
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'request failed', cause: 'request counters unreachable', err: expect.objectContaining({ stack: expect.any(String) }) })]);
    // Answering, then failing again before the interval ends: still out, and no recovery said.
    up = true;
    await counters.take();
    up = false;
    await fail();
    await expect.poll(() => said(/more requests failed/).length).toBe(1);
    expect(said(/more requests failed/)[0]).toMatchObject({ msg: '2 more requests failed: request counters unreachable', failed: 2 });
    expect(said(/^recovered/)).toEqual([]);
    up = true;
    await counters.take();
    await expect.poll(() => said(/^recovered/).length).toBe(1);
    expect(said(/^recovered/)[0].msg).toMatch(/^recovered after \d+\.\d s: request counters unreachable; 3 requests failed in all$/);
    // A new outage of the same cause is told in full again.
    up = false;
    await fail();
    expect(lines.at(-1)).toMatchObject({ msg: 'request failed', err: expect.objectContaining({ stack: expect.any(String) }) });
    outages.close();
  });
});
