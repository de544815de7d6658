/**
 * PostgreSQL stopped and started again under load (scale-out.md §8 item 4): a built `loc serve`
 * on a throwaway cluster of this test's own (never the machine's PostgreSQL, which other suites
 * share), with a few clients doing lookups, generates and resolves that save, and health checks, as
 * fast as they can. PostgreSQL is then stopped at once (`pg_ctl -m immediate stop`: a crash, no
 * checkpoint, every connection cut) for a couple of seconds, and started again on the same port.
 *
 * - While it is down, every answer is 503 `service_unavailable` with Retry-After, or a 2xx served from
 *   memory within the key cache's half-second — never a 500, never a socket error: the server does not
 *   crash or hang up, and the requests, their shared counters included, fail closed.
 * - Once it is back, the same server process, not restarted, answers 2xx again within a few seconds on
 *   every endpoint, and then nothing but 2xx.
 * - The server logged the outage (each cause once, with the store's reason) and nothing worse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_MS } from '../../src/server/plugins/store.ts';
import { createTestDatabase, startCluster, type Cluster } from '../support/postgres.ts';
import { SpawnedServer, ensureBuilt, seedDataDir, type Seeded } from './harness.ts';

const CLIENTS = 4;
/** How long PostgreSQL stays down: three times the key cache's time, so nothing is served from memory at the end. */
const DOWN_MS = 3 * KEY_CACHE_MS;
/** How soon after PostgreSQL is back every endpoint must answer 2xx again. */
const RECOVERY_MS = 5000;

type Route = 'lookup' | 'generate' | 'resolve' | 'healthz';
const ROUTES: Route[] = ['lookup', 'generate', 'resolve', 'healthz'];

interface Answer {
  route: Route;
  sentAt: number;
  answeredAt: number;
  /** 0: a socket error (`error` says which). */
  status: number;
  code?: string;
  retryAfter?: string | null;
  error?: string;
}

let cluster: Cluster;
let seeded: Seeded;
let server: SpawnedServer;

beforeAll(async () => {
  ensureBuilt();
  cluster = await startCluster();
  seeded = await seedDataDir([{ account: 'acme' }], { engine: 'postgres', database: await createTestDatabase({ on: cluster }) });
  // Info: the requests' own lines too, so the outage shows in the log with each failed request.
  server = await SpawnedServer.start(seeded.dataDir, { ...seeded.env, LOC_LOG_LEVEL: 'info' });
});
afterAll(async () => {
  await server?.kill('SIGKILL');
  cluster?.stop();
});

let n = 0;
async function send(route: Route): Promise<Answer> {
  const key = { 'x-api-key': seeded.keys[0].secret };
  const json = { ...key, 'content-type': 'application/json' };
  const i = n++;
  const point = { lat: 45 + (i % 500) * 0.004, lng: 2 + Math.floor(i / 500) * 0.004 };
  const sentAt = performance.now();
  try {
    const response = await (route === 'lookup'
      ? fetch(`${server.url}/v1/loc/lookup/FR-0RMB-CLY0`, { headers: key })
      : route === 'generate'
        ? fetch(`${server.url}/v1/loc/generate`, { method: 'POST', headers: json, body: JSON.stringify({ latitude: point.lat, longitude: point.lng, label: `restart ${i}` }) })
        : route === 'resolve'
          ? fetch(`${server.url}/v1/embed/resolve`, { method: 'POST', headers: json, body: JSON.stringify({ ...point, save: true }) })
          : fetch(`${server.url}/healthz`));
    const body = (await response.json()) as { code?: string };
    return { route, sentAt, answeredAt: performance.now(), status: response.status, code: body.code, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    return { route, sentAt, answeredAt: performance.now(), status: 0, error: String((error as Error).cause ?? error) };
  }
}

/** Clients sending every route in turn until `until` resolves; every answer, in order of arrival, also to `seen`. */
async function load(until: Promise<unknown>, seen: (answer: Answer) => void): Promise<Answer[]> {
  const answers: Answer[] = [];
  let done = false;
  void until.finally(() => (done = true));
  await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
    for (let j = c; !done; j++) {
      const answer = await send(ROUTES[j % ROUTES.length]);
      answers.push(answer);
      seen(answer);
    }
  }));
  return answers;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Answers by status and code, for the log. */
function summary(answers: Answer[]): string {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.status}${a.code ? ` ${a.code}` : ''}`] = (counts[`${a.status}${a.code ? ` ${a.code}` : ''}`] ?? 0) + 1;
  return JSON.stringify(counts);
}

describe('PostgreSQL stopped and started again under load', () => {
  it('answers 503 with Retry-After while it is down, never a 500 or a dropped connection, and serves again once it is back', async () => {
    const pid = server.pid;
    let haltingAt = 0;
    let haltedAt = 0;
    let resumingAt = 0;
    let resumedAt = 0;
    const firstOk = new Map<Route, number>();
    const warm = new Set<Route>();
    const outage = (async () => {
      // Steady load first: every route has answered 2xx (the first requests warm the server up), then half a second more.
      for (const started = performance.now(); warm.size < ROUTES.length && performance.now() - started < 10_000;) await sleep(50);
      await sleep(500);
      haltingAt = performance.now();
      await cluster.halt();
      haltedAt = performance.now();
      await sleep(DOWN_MS);
      resumingAt = performance.now();
      await cluster.resume();
      resumedAt = performance.now();
      // Until every route has answered 2xx again (or too long has passed), then a second of steady load.
      while (firstOk.size < ROUTES.length && performance.now() - resumedAt < RECOVERY_MS * 2) await sleep(50);
      await sleep(1000);
    })();
    const answers = await load(outage, (answer) => {
      if (haltingAt === 0 && answer.status === 200) warm.add(answer.route);
      if (resumedAt > 0 && answer.sentAt > resumedAt && answer.status === 200 && !firstOk.has(answer.route)) firstOk.set(answer.route, answer.sentAt - resumedAt);
    });

    // Answered before the stop began; those under way while PostgreSQL went down may have been either.
    const before = answers.filter((a) => a.answeredAt < haltingAt);
    const down = answers.filter((a) => a.sentAt > haltedAt && a.sentAt < resumingAt);
    const after = answers.filter((a) => a.sentAt > resumedAt);
    console.log(
      `PostgreSQL restart under load: ${answers.length} requests; stop took ${Math.round(haltedAt - haltingAt)} ms, start ${Math.round(resumedAt - resumingAt)} ms; before ${summary(before)}; while down (${DOWN_MS} ms) ${summary(down)}; ` +
        `after ${summary(after)}; first 2xx after the restart ${JSON.stringify(Object.fromEntries([...firstOk].map(([r, ms]) => [r, Math.round(ms)])))} ms`,
    );

    // Nothing dropped, nothing 500, ever.
    expect(answers.filter((a) => a.status === 0).map((a) => `${a.route}: ${a.error}`)).toEqual([]);
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503).map((a) => `${a.route}: ${a.status} ${a.code}`)).toEqual([]);
    expect(new Set(before.map((a) => a.route)).size).toBe(ROUTES.length);
    expect(before.filter((a) => a.status !== 200).map((a) => `${a.route}: ${a.status} ${a.code}`)).toEqual([]);
    // While down: 503 service_unavailable with Retry-After, or a 2xx from memory only within the cache's time.
    expect(down.length).toBeGreaterThan(CLIENTS * ROUTES.length);
    const wrong = down.filter((a) =>
      a.status === 503 ? a.code !== 'service_unavailable' || !/^\d+$/.test(a.retryAfter ?? '') : !(a.status === 200 && a.sentAt - haltedAt < KEY_CACHE_MS));
    expect(wrong.map((a) => `${a.route} ${Math.round(a.sentAt - haltedAt)} ms into the outage: ${a.status} ${a.code} retry-after ${a.retryAfter}`)).toEqual([]);
    for (const route of ROUTES) expect(down.filter((a) => a.route === route && a.status === 503).length, route).toBeGreaterThan(0);
    // Back: every route within RECOVERY_MS, and once a route is back, it stays back.
    for (const route of ROUTES) {
      expect(firstOk.get(route), route).toBeLessThan(RECOVERY_MS);
      const recovered = resumedAt + firstOk.get(route)!;
      expect(after.filter((a) => a.route === route && a.sentAt > recovered + 200 && a.status !== 200).map((a) => `${route}: ${a.status} ${a.code}`)).toEqual([]);
    }
    // The same process throughout, and it logged the outage: each cause once in full, with the store's
    // reason, by whichever failed first (a request, the health check, or the service's own work); nothing fatal.
    expect(server.running).toBe(true);
    expect(server.pid).toBe(pid);
    const logged = server.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string; cause?: string; err?: { type?: string } });
    expect(logged.filter((entry) => entry.level >= 60)).toEqual([]);
    const causes = logged.filter((entry) => entry.err?.type === 'StoreUnavailable').map((entry) => entry.cause);
    // Both the store and the request counters are on this PostgreSQL.
    expect(causes.every((cause) => /^(database|request counters) /.test(cause ?? '')), causes.join()).toBe(true);
    expect(causes.some((cause) => cause?.startsWith('database ')), causes.join()).toBe(true);
    expect(new Set(causes).size).toBe(causes.length);
  }, 60_000);
});
