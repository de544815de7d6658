/**
 * The hourly limits stay exact across a fleet — a partner's limit is one promise however many
 * processes serve its key: two spawned `loc serve` on one PostgreSQL database, each a cluster of two
 * workers (LOC_WORKERS=2), so that four processes count every key in the shared counters, in
 * PostgreSQL and in Redis, each with one step in flight for the requests it gathered and with leases
 * of a busy key's counts (src/store/shared-counters.ts). Fifty keep-alive clients send bursts of three
 * times each limit, alternating between the servers as a load balancer would. Shown, on both engines:
 * 1. across the end of the clock hour, exactly each key's limit passes in the hour before and in the
 *    hour after, each count (RateLimit-Remaining) handed out once per hour, the counters ending at the
 *    limit, one "hourly limit reached" line per key and hour from the four processes, all else 429;
 * 2. a limit raised mid-hour with `loc keys set-limit`: exactly the new limit passes in that hour, each count once;
 * 3. a worker SIGKILLed mid-burst: never past the limit; counted and never answered, at most what it had
 *    in flight and its lease; its primary starts a new worker that serves;
 * 4. the counters cut mid-burst (a TCP proxy): 503 with Retry-After while cut, but for what the
 *    processes' leases held, counted before; never a 500 or a dropped connection; nothing passes
 *    uncounted; never past the limit once they are back, the loss bounded by what was in flight.
 * What a lease may cost (docs/operations.md, "Exact limits across processes") bounds 3 and 4.
 * The hour's end comes seconds after the first burst starts: the servers' clock is moved forward
 * (test/support/clock-shift.mjs in NODE_OPTIONS, which the workers inherit). loc reads a window's time
 * from Date.now() alone and hands it to the counters — loc_take_v2 counts by the window id and `now_ms`
 * it is given, never PostgreSQL's now(); the Redis script likewise — so nothing disagrees with it.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_MS } from '../../src/server/plugins/store.ts';
import { runCli } from '../support/cli.ts';
import { shiftedClock } from '../support/clock-shift.ts';
import { KeepAliveLoad, countOf, expectRetryAfter, inRandomOrder, passedCounts, runClients, type Answer, type Call } from '../support/keep-alive-load.ts';
import { sql, stopPostgres } from '../support/postgres.ts';
import { redisServer, stopRedis } from '../support/redis.ts';
import { tcpProxy } from '../support/tcp-proxy.ts';
import { SpawnedServer, childPids, connectionsOn, dispose, ensureBuilt, leaseAtMost, logEntries, scale, seedDataDir } from './harness.ts';

const HOUR_MS = 3_600_000;
const CLIENTS = 50;
/** The four keys whose hour ends mid-test. */
const LIMITS = scale([60, 45, 30, 15], [600, 450, 300, 150]);
/** The key whose limit is raised mid-hour: from, to. */
const RAISE = scale([30, 75], [300, 750]);
const KILL_LIMIT = scale(150, 1500);
const CUT_LIMIT = scale(150, 1500);
/** How long the counters stay cut. */
const CUT_MS = scale(1000, 3000);
/** From the jump of the servers' clock to the end of their hour: the first burst fits before. */
const HOUR_ENDS_IN_MS = scale(3000, 8000);
/** How long a request may wait: a connection handed to a worker as it is killed is held by the primary, never answered nor closed. */
const ANSWER_TIMEOUT_MS = 4000;
/** How long a client waits after a refusal, as a client honouring Retry-After would, more or less. */
const PAUSE_MS = 50;

type CounterEngine = 'postgres' | 'redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Two servers × two workers on one database, the counters behind a proxy the test can cut; `used` reads a budget's count around it. */
async function startFleet(counters: CounterEngine) {
  ensureBuilt();
  const seeded = await seedDataDir([
    ...LIMITS.map((limit, i) => ({ account: `hour-end-${i}`, hourlyLimit: limit })),
    { account: 'raised', hourlyLimit: RAISE[0] },
    { account: 'killed', hourlyLimit: KILL_LIMIT },
    { account: 'cut', hourlyLimit: CUT_LIMIT },
    { account: 'spare' },
  ], { engine: 'postgres' });
  const target = new URL(counters === 'postgres' ? seeded.database!.url : (await redisServer()).url);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || (counters === 'postgres' ? 5432 : 6379)) });
  // On PostgreSQL the store and the counters share LOC_DATABASE_URL (there is no URL of the counters' own): both are cut.
  const countersEnv: Record<string, string> = counters === 'postgres' ? { LOC_DATABASE_URL: proxy.through(target.href) } : { LOC_REDIS_URL: proxy.through(target.href) };
  const clock = shiftedClock();
  const env = { ...seeded.env, ...countersEnv, ...clock.env, LOC_WORKERS: '2' };
  const started = Date.now();
  const servers = await Promise.all([0, 1].map(() => SpawnedServer.start(seeded.dataDir, env)));
  console.log(`fleet with counters in ${counters} started in ${Date.now() - started} ms`);
  const redis = counters === 'redis' ? new Redis(target.href) : undefined;
  const load = new KeepAliveLoad(servers.map((server) => server.url), CLIENTS, ANSWER_TIMEOUT_MS);
  return {
    seeded, servers, proxy, clock, load,
    used: async (id: string) => Number(counters === 'postgres'
      ? (await sql<{ used: string }>(seeded.database!.url, 'SELECT used FROM request_counts WHERE id = $1', [id]))[0]?.used ?? 0
      : (await redis!.hget(`loc:count:${id}`, 'used')) ?? 0),
    async close() {
      load.close();
      for (const server of servers) for (const pid of server.running ? childPids(server.pid) : []) process.kill(pid, 'SIGKILL');
      await servers[1].kill('SIGKILL');
      await dispose(servers[0], seeded.dataDir, seeded.database);
      await proxy.close();
      clock.dispose();
      // The machine's Redis outlives the test: its windows go now, not when they expire.
      const windows = (await Promise.all(seeded.keys.map(({ id }) => redis?.keys(`loc:count:*:${id}:*`) ?? []))).flat();
      if (windows.length > 0) await redis!.del(...windows);
      redis?.disconnect();
    },
  };
}

type Fleet = Awaited<ReturnType<typeof startFleet>>;

/** The id of a key's hourly budget of server calls in the hour that holds `at` (the servers' time). */
const windowOf = (keyId: string, at: number): string => `server:${keyId}:${Math.floor(at / HOUR_MS)}`;

const lookup = (tag: string, secret: string): Call => ({ tag, path: '/v1/loc/lookup/FR-0RMB-CLY0', headers: { 'x-api-key': secret } });


const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The "hourly limit reached" lines of every process of the fleet. */
const limitLines = (fleet: Fleet) => logEntries<{ key: string; limit: number; time: number }>(fleet.servers, 'hourly limit reached');

/** A lookup with the key no scenario spends. */
const spareLookup = (fleet: Fleet): Call => lookup('spare', fleet.seeded.keys.at(-1)!.secret);

/** The statuses of `n` lookups on connections of their own, which a cluster's primary deals out to its workers in turn. */
const freshLookups = (fleet: Fleet, server: SpawnedServer, n: number): Promise<number[]> =>
  Promise.all(Array.from({ length: n }, async () => {
    const { path, headers } = spareLookup(fleet);
    return (await fetch(`${server.url}${path}`, { headers: { ...headers, connection: 'close' } })).status;
  }));

/** Scenario 1: bursts on four keys in the hour that ends, and again in the next one. */
async function acrossTheHourEnd(fleet: Fleet, counters: CounterEngine): Promise<void> {
  const { clock, load } = fleet;
  const keys = fleet.seeded.keys.slice(0, LIMITS.length);
  const burst = () => runClients(load, CLIENTS, inRandomOrder(keys.flatMap((key, i) => Array.from({ length: 3 * LIMITS[i] }, () => lookup(String(i), key.secret)))));
  // Each worker's first requests load what it loads lazily (drivers, the places): not in the burst's time.
  for (const server of fleet.servers) expect(await freshLookups(fleet, server, 8)).toEqual(Array(8).fill(200));
  await clock.endHourIn(HOUR_ENDS_IN_MS);
  const before = await burst();
  const lastBefore = Math.max(...before.map((answer) => answer.answeredAt));
  expect(lastBefore, 'the first burst must end before the hour does').toBeLessThan(clock.hourEndHere);
  // Read before the hour's end: Redis forgets a window when it ends.
  const rowsBefore = await Promise.all(keys.map((key) => fleet.used(windowOf(key.id, clock.hourEnd - 1))));
  await sleep(clock.hourEndHere - Date.now() + 50);
  const after = await burst();
  const rowsAfter = await Promise.all(keys.map((key) => fleet.used(windowOf(key.id, clock.hourEnd))));
  console.log(`fleet on ${counters}: ${before.length} requests in the ${Math.round((lastBefore - Math.min(...before.map((a) => a.sentAt))) / 100) / 10} s before the hour's end (${Math.round((clock.hourEndHere - lastBefore) / 100) / 10} s to spare), ${after.length} after; passed ${[before, after].map((answers) => answers.filter((a) => a.status === 200).length).join(' and ')}`);
  keys.forEach((_, i) => {
    for (const [answers, end] of [[before, clock.hourEndHere], [after, clock.hourEndHere + HOUR_MS]] as const) {
      const mine = answers.filter((answer) => answer.tag === String(i));
      expect(passedCounts(mine), `key ${i}: each count from 1 to ${LIMITS[i]} once`).toEqual(range(1, LIMITS[i]));
      expectRetryAfter(mine, end);
    }
  });
  expect([rowsBefore, rowsAfter]).toEqual([LIMITS, LIMITS]);
  const expected = keys.flatMap((key) => [`${key.id} before`, `${key.id} after`]).sort();
  const seen = () => limitLines(fleet).map((line) => `${line.key} ${line.time < clock.hourEnd ? 'before' : 'after'}`).sort();
  await expect.poll(() => seen().length, { timeout: 5000 }).toBeGreaterThanOrEqual(expected.length);
  expect(seen()).toEqual(expected);
}

/** Scenario 2: the spent key's limit raised with the CLI while the fleet keeps refusing it. */
async function raisedMidHour(fleet: Fleet): Promise<void> {
  const [from, to] = RAISE;
  const key = fleet.seeded.keys[LIMITS.length];
  const first = await runClients(fleet.load, CLIENTS, inRandomOrder(Array.from({ length: 3 * from }, () => lookup('first', key.secret))));
  expect(passedCounts(first)).toEqual(range(1, from));
  let raisedAt = Infinity;
  let reachedAt = Infinity;
  let passed = 0;
  // Hammered until a second after the new limit is used up, or 5 s after the raise.
  const serving = runClients(fleet.load, CLIENTS, () => (Date.now() < Math.min(raisedAt + 5000, reachedAt + 1000) ? lookup('then', key.secret) : null), (answer) => {
    if (answer.status === 200 && ++passed === to - from) reachedAt = answer.answeredAt;
    return answer.status === 200 ? 0 : PAUSE_MS;
  });
  await sleep(300);
  const raise = await runCli({ LOC_DATABASE_URL: fleet.seeded.database!.url, LOC_DATA_DIR: fleet.seeded.dataDir }, 'keys', 'set-limit', key.id, String(to));
  raisedAt = Date.now();
  expect(raise).toMatchObject({ code: 0, stderr: '' });
  const then = await serving;
  const firstPass = Math.min(...then.filter((answer) => answer.status === 200).map((answer) => answer.answeredAt));
  console.log(`limit raised from ${from} to ${to}: ${then.length} requests after the first ${first.length}; the first pass ${firstPass - raisedAt} ms after the raise (key cache ${KEY_CACHE_MS} ms), the new limit used up ${reachedAt - raisedAt} ms after it`);
  expect(passedCounts([...first, ...then]), `each count from 1 to ${to} once`).toEqual(range(1, to));
  expect(then.filter((answer) => answer.status === 200 && answer.limit !== to)).toEqual([]);
  expect(await fleet.used(windowOf(key.id, fleet.clock.now()))).toBe(to);
  // "hourly limit reached" is once per key and hour (docs/operations.md), the engine's first refusal
  // of the window: the new limit used up in the same hour writes no second line.
  expect(limitLines(fleet).filter((line) => line.key === key.id).map((line) => line.limit)).toEqual([from]);
}

/** Scenario 3: a worker of the first server killed with SIGKILL once a third of the limit has passed. */
async function workerKilled(fleet: Fleet): Promise<void> {
  const key = fleet.seeded.keys[LIMITS.length + 1];
  const [primary] = fleet.servers;
  const workers = childPids(primary.pid);
  expect(workers).toHaveLength(2);
  let killedAt = Infinity;
  let passed = 0;
  const answers = await runClients(fleet.load, CLIENTS, inRandomOrder(Array.from({ length: 3 * KILL_LIMIT }, () => lookup('killed', key.secret))), (answer) => {
    if (answer.status === 200 && ++passed === Math.floor(KILL_LIMIT / 3)) {
      process.kill(workers[0], 'SIGKILL');
      killedAt = Date.now();
    }
    return 0;
  });
  const dropped = answers.filter((answer) => answer.status === 0);
  const served = passedCounts(answers.filter((answer) => answer.status !== 0));
  const used = await fleet.used(windowOf(key.id, fleet.clock.now()));
  console.log(`worker killed at ${KILL_LIMIT / 3} of ${KILL_LIMIT}: ${answers.filter((a) => a.sentAt > killedAt).length} requests sent after the kill; ${served.length} passed, ${dropped.length} dropped (${[...new Set(dropped.map((a) => a.error))].join(', ')}), ${used} counted`);
  expect(answers.filter((answer) => answer.answeredAt > killedAt).length, 'the kill came mid-burst').toBeGreaterThan(CLIENTS);
  expect(served.filter((count, i) => count < 1 || count > KILL_LIMIT || count === served[i - 1])).toEqual([]);
  // Never past the limit; counted and not seen to pass, at most what the killed worker had in flight and its lease.
  expect(used).toBe(KILL_LIMIT);
  expect(used - served.length).toBeLessThanOrEqual(dropped.length + leaseAtMost(KILL_LIMIT));
  expect(primary.output()).toMatch(/exited \(signal SIGKILL\); starting it again/);
  await expect.poll(() => childPids(primary.pid).filter((pid) => pid !== workers[0]), { timeout: 10_000 }).toHaveLength(2);
  const replacement = childPids(primary.pid).find((pid) => !workers.includes(pid))!;
  // Connections kept open, dealt out in turn: once the new worker listens, it holds some and answers on them.
  const servesOnNewWorker = async () => {
    const load = new KeepAliveLoad([primary.url], 4);
    const statuses = (await Promise.all(Array.from({ length: 4 }, () => load.send(spareLookup(fleet))))).map((answer) => answer.status);
    const held = connectionsOn(replacement, primary.port);
    load.close();
    return statuses.every((status) => status === 200) && held > 0;
  };
  await expect.poll(servesOnNewWorker, { timeout: 10_000 }).toBe(true);
}

/** Scenario 4: the counters cut for CUT_MS once a third of the limit has passed, then restored. */
async function countersCut(fleet: Fleet, counters: CounterEngine): Promise<void> {
  const key = fleet.seeded.keys[LIMITS.length + 2];
  /** This process's clock: the start, the cut asked for, done (nothing reaches the counters from then on), the restore asked for, done. */
  const at = { started: Date.now(), cutting: Infinity, cut: Infinity, restoring: Infinity, restored: Infinity };
  let cutting: Promise<void> | undefined;
  let usedWhileCut = NaN;
  let passed = 0;
  let refusedAfter = 0;
  const cut = async () => {
    at.cutting = Date.now();
    await fleet.proxy.cut();
    at.cut = Date.now();
    await sleep(CUT_MS);
    usedWhileCut = await fleet.used(windowOf(key.id, fleet.clock.now()));
    at.restoring = Date.now();
    await fleet.proxy.restore();
    at.restored = Date.now();
  };
  const done = () => refusedAfter >= CLIENTS || Date.now() > Math.min(at.restored + 15_000, at.started + 30_000);
  const answers = await runClients(fleet.load, CLIENTS, () => (done() ? null : lookup('cut', key.secret)), (answer) => {
    if (answer.status === 200 && ++passed === CUT_LIMIT / 3) cutting = cut();
    if (answer.status === 429 && answer.sentAt > at.restored) refusedAfter++;
    return answer.status === 200 ? 0 : PAUSE_MS;
  });
  await cutting;
  // Sent once the cut was done and answered before the restore began: wholly while the counters were out of reach.
  const whileCut = answers.filter((answer) => answer.sentAt >= at.cut && answer.answeredAt < at.restoring);
  // Sent before the cut was done and answered 503 after it began: in flight when it came.
  const lostInFlight = answers.filter((answer) => answer.sentAt < at.cut && answer.answeredAt >= at.cutting && answer.status === 503).length;
  const served = answers.filter((answer) => answer.status === 200).map(countOf);
  const used = await fleet.used(windowOf(key.id, fleet.clock.now()));
  const back = Math.min(...answers.filter((answer) => answer.status === 200 && answer.sentAt >= at.restored).map((answer) => answer.answeredAt)) - at.restored;
  const leased = whileCut.filter((answer) => answer.status === 200);
  console.log(`counters in ${counters} cut for ${CUT_MS} ms: ${whileCut.length} requests answered while cut, ${leased.length} of them 200; `
    + `${lostInFlight} in flight at the cut answered 503; 200s again ${back} ms after the restore; ${served.length} passed, ${used} counted`);
  expect(whileCut.length).toBeGreaterThan(CLIENTS);
  const unavailable = (answer: Answer) => answer.status === 503 && answer.code === 'service_unavailable' && Number.isInteger(answer.retryAfter) && answer.retryAfter! >= 1;
  // While cut: 503, but for what the processes' leases held, counted before the cut (at most one lease each).
  expect(whileCut.filter((answer) => !unavailable(answer) && !(answer.status === 200 && countOf(answer) <= usedWhileCut))).toEqual([]);
  expect(leased.length).toBeLessThanOrEqual(4 * leaseAtMost(CUT_LIMIT));
  // Never a 500 nor a dropped connection, before, during or after: a 503 as above, or a count's answer.
  expect(answers.filter((answer) => !unavailable(answer) && answer.status !== 200 && !(answer.status === 429 && answer.code === 'rate_limited'))).toEqual([]);
  expect(new Set(served).size).toBe(served.length);
  expect(back).toBeLessThan(5000);
  // Every 200 counted, never past the limit; counted and not seen to pass, at most the steps in flight at the cut: their requests, answered 503, and their leases.
  expect(Math.max(...served)).toBeLessThanOrEqual(used);
  expect(used).toBe(CUT_LIMIT);
  expect(used - served.length).toBeLessThanOrEqual(lostInFlight + 4 * leaseAtMost(CUT_LIMIT));
}

afterAll(async () => {
  await stopPostgres();
  await stopRedis();
});

/** The scenarios, in order: the first spans the end of the hour, the others count in the hour after it. */
const SCENARIOS: [string, (fleet: Fleet, counters: CounterEngine) => Promise<void>, number][] = [
  [`pass exactly each limit (${LIMITS.join(', ')}) in the hour that ends mid-test and in the next, each count once, one limit line per key and hour`, acrossTheHourEnd, 60_000],
  [`apply a limit raised mid-hour (${RAISE.join(' → ')}) with loc keys set-limit: exactly the new limit in the hour, each count once`, raisedMidHour, 30_000],
  ['never serve past the limit when a worker is SIGKILLed, lose at most what it had in flight and leased, and serve on with a new worker', workerKilled, 30_000],
  ['answer 503 with Retry-After while the counters are cut once the leases are spent, let nothing pass uncounted, and never past the limit once they are back', countersCut, 40_000],
];

describe.each(['postgres', 'redis'] as const)('the hourly limits of two servers × LOC_WORKERS=2, counters in %s', (counters) => {
  let fleet: Fleet | undefined;
  beforeAll(async () => {
    fleet = await startFleet(counters);
  });
  afterAll(() => fleet?.close());
  SCENARIOS.forEach(([name, scenario, timeout], i) => it(name, async () => {
    // Whatever became of the first scenario, the others count in the hour after the end.
    if (i > 0) await sleep(fleet!.clock.hourEndHere - Date.now() + 50);
    await scenario(fleet!, counters);
  }, scale(timeout, 3 * timeout)));
});
