/**
 * Rate limits under load, by 50 concurrent clients on keep-alive connections sending three times each
 * budget, across lookup, resolve and generate, all shuffled together:
 * - keys a and b, with hourly limits of N and N/2, calling with the key;
 * - one session of key a, with a session limit of N/4: its calls never touch a's hourly budget;
 * - ten sessions of key c, whose embed budget of N/2 an hour holds all of them together.
 * Exactly each budget succeeds, each RateLimit-Remaining value from limit − 1 down to 0 is handed out
 * once, and every other request is 429 with RateLimit-Remaining 0: `rate_limited` with a Retry-After
 * that points at the end of the clock hour, or for the spent session `session_limit_reached` without one.
 *
 * On both engines. On PostgreSQL the counts are the shared ones (request_counts, one row per budget
 * and window, taken under its row lock by every loc process on the database), and the run goes
 * through two spawned servers on the one database, the requests alternating between them as a load
 * balancer would (scale-out.md §8 item 2): the same exact figures across both processes, one "limit
 * reached" line per budget between them, and the rows end at exactly each limit.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeepAliveLoad, inRandomOrder, runClients, type Call } from '../support/keep-alive-load.ts';
import { stopPostgres } from '../support/postgres.ts';
import { MAX_LIMIT } from '../../src/limits/budgets.ts';
import { ENGINES, SpawnedServer, dispose, ensureBuilt, leaseAtMost, scale, seedDataDir, type Seeded } from './harness.ts';

const LIMIT = scale(300, 3000);
const CLIENTS = 50;
const HOUR_MS = 3_600_000;

/** Who sends: a key itself, key a's one session, or key c's ten sessions. */
type Sender = 'a' | 'b' | 'a-session' | 'c-sessions';

/** What each sender may pass, and what its refusals are. */
const BUDGETS: Record<Sender, { limit: number; refusal: 'rate_limited' | 'session_limit_reached' }> = {
  a: { limit: LIMIT, refusal: 'rate_limited' },
  b: { limit: LIMIT / 2, refusal: 'rate_limited' },
  'a-session': { limit: LIMIT / 4, refusal: 'session_limit_reached' },
  'c-sessions': { limit: LIMIT / 2, refusal: 'rate_limited' },
};

afterAll(() => stopPostgres());

/**
 * The window is the clock hour of the server's real clock: a run that straddled its end would see the
 * counts reset. Starting more than `marginMs` before the end rules that out; closer, wait for the new hour.
 */
async function clearOfHourEnd(marginMs: number): Promise<void> {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe.each(ENGINES)('hourly limits under concurrent load, on %s', (engine) => {
  /** One server on SQLite (its data directory is its own); two on PostgreSQL, on the same database. */
  const servers: SpawnedServer[] = [];
  let seeded: Seeded;
  let keys: { a: string; b: string; c: string };

  beforeAll(async () => {
    ensureBuilt();
    seeded = await seedDataDir([
      { account: 'acme', hourlyLimit: LIMIT, sessionLimit: LIMIT / 4 },
      { account: 'beta', hourlyLimit: LIMIT / 2 },
      { account: 'gamma', embedHourlyLimit: LIMIT / 2 },
    ], { engine });
    keys = { a: seeded.keys[0].secret, b: seeded.keys[1].secret, c: seeded.keys[2].secret };
    for (let i = 0; i < (engine === 'postgres' ? 2 : 1); i++) servers.push(await SpawnedServer.start(seeded.dataDir, seeded.env));
  });
  afterAll(async () => {
    for (const server of servers.slice(1)) await server.kill('SIGKILL');
    await dispose(servers[0], seeded?.dataDir, seeded?.database);
  });

  it(`lets exactly each budget through (keys ${LIMIT} and ${LIMIT / 2}, a session ${LIMIT / 4}, ten sessions ${LIMIT / 2}), all else 429`, async () => {
    await clearOfHourEnd(scale(10_000, 30_000));
    const load = new KeepAliveLoad(servers.map((server) => server.url), CLIENTS);
    const call = (key: Sender, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Call => ({ tag: key, method, path, headers, body });

    const newSession = async (secret: string): Promise<string> => {
      const created = await fetch(`${servers[0].url}/v1/embed/sessions`, {
        method: 'POST', headers: { 'x-api-key': secret, 'content-type': 'application/json' }, body: JSON.stringify({ origin: 'https://shop.example' }),
      });
      return ((await created.json()) as { session_token: string }).session_token;
    };
    // Key a's session counts as one of a's own calls; its resolves never do.
    const token = await newSession(keys.a);
    const tokens = await Promise.all(Array.from({ length: 10 }, () => newSession(keys.c)));

    const calls: Call[] = [];
    const pointOf = (i: number) => JSON.stringify({ lat: 45 + (i % 97) * 0.01, lng: 2 + (i % 89) * 0.01 });
    for (const key of ['a', 'b'] as const) {
      const secret = keys[key];
      for (let i = 0; i < 3 * BUDGETS[key].limit; i++) {
        const point = { lat: 45 + (i % 97) * 0.01, lng: 2 + (i % 89) * 0.01 };
        switch (i % 3) {
          case 0: calls.push(call(key, 'GET', '/v1/loc/lookup/FR-0RMB-CLY0', { 'x-api-key': secret })); break;
          case 1: calls.push(call(key, 'POST', '/v1/embed/resolve', { 'x-api-key': secret }, JSON.stringify(point))); break;
          default: calls.push(call(key, 'POST', '/v1/loc/generate', { 'x-api-key': secret }, JSON.stringify({ latitude: point.lat, longitude: point.lng })));
        }
      }
    }
    for (let i = 0; i < 3 * BUDGETS['a-session'].limit; i++) {
      calls.push(call('a-session', 'POST', '/v1/embed/resolve', { authorization: `Bearer ${token}` }, pointOf(i)));
    }
    for (let i = 0; i < 3 * BUDGETS['c-sessions'].limit; i++) {
      calls.push(call('c-sessions', 'POST', '/v1/embed/resolve', { authorization: `Bearer ${tokens[i % tokens.length]}` }, pointOf(i)));
    }
    const started = performance.now();
    // In a random order, so the keys and the endpoints race each other.
    const answers = await runClients(load, CLIENTS, inRandomOrder(calls));
    const seconds = (performance.now() - started) / 1000;
    load.close();
    const secondsToHourEnd = Math.ceil((HOUR_MS - (Date.now() % HOUR_MS)) / 1000);

    for (const key of ['a', 'b', 'a-session', 'c-sessions'] as const) {
      const { limit, refusal } = BUDGETS[key];
      const mine = answers.filter((answer) => answer.tag === key);
      const passed = mine.filter((answer) => answer.status === 200);
      const refused = mine.filter((answer) => answer.status !== 200);
      // Key a's session creation took one of its requests before the hammering began.
      const expected = key === 'a' ? limit - 1 : limit;
      console.log(`rate limit under load on ${engine}: ${key} limited to ${limit}, ${mine.length} concurrent requests: ${passed.length} passed (+${limit - expected} before), ${refused.length} refused 429 ${refusal}`);
      expect(passed).toHaveLength(expected);
      // For key c's sessions the embed budget binds (their own budgets are a billion), so its remaining values are handed out.
      expect(passed.map((answer) => answer.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: expected }, (_, i) => i));
      expect(refused.every((answer) => answer.status === 429 && answer.code === refusal && answer.remaining === 0)).toBe(true);
      for (const { retryAfter } of refused) {
        if (refusal === 'session_limit_reached') {
          expect(retryAfter).toBeUndefined();
          continue;
        }
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(Math.abs(retryAfter! - secondsToHourEnd)).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
      }
    }
    // Each spent budget's first refusal logged once, by one server of the fleet.
    const reached = servers
      .flatMap((server) => server.output().split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; key?: string })
      .filter((entry) => entry.msg === 'hourly limit reached' || entry.msg === 'embed hourly limit reached')
      .map((entry) => `${entry.msg} ${entry.key}`);
    const [a, b, c] = seeded.keys.map((key) => key.id);
    expect(reached.sort()).toEqual([`embed hourly limit reached ${c}`, `hourly limit reached ${a}`, `hourly limit reached ${b}`].sort());
    if (engine === 'postgres') {
      // The shared rows themselves: each hourly budget used exactly up to its limit, never past it; the
      // others as much as was served: a's session's 75 calls on a's embed budget exactly (sessions' budgets
      // are not leased), c's ten sessions made, and what each server may hold leased of c's server budget.
      const client = new pg.Client({ connectionString: seeded.database!.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ key_id: string; kind: string; used: string }>(
          "SELECT key_id, kind, used FROM request_counts WHERE kind IN ('server', 'embed') AND used > 0",
        );
        const row = (key: string, kind: string, used: number) => `${key} ${kind} ${used}`;
        const cServer = Number(rows.find((r) => r.key_id === c && r.kind === 'server')?.used);
        expect(cServer).toBeGreaterThanOrEqual(10);
        expect(cServer).toBeLessThanOrEqual(10 + servers.length * leaseAtMost(MAX_LIMIT));
        expect(rows.map((r) => row(r.key_id, r.kind, r.key_id === c && r.kind === 'server' ? 10 : Number(r.used))).sort()).toEqual([
          row(a, 'server', LIMIT), row(a, 'embed', LIMIT / 4), row(b, 'server', LIMIT / 2), row(c, 'server', 10), row(c, 'embed', LIMIT / 2),
        ].sort());
      } finally {
        await client.end();
      }
    }
  }, scale(60_000, 120_000));
});
