/**
 * Rate limits under load: two keys with hourly limits of N and N/2, hammered at once by 50 concurrent
 * clients on keep-alive connections with three times their limit, across lookup, resolve and generate
 * — for the first key also the resolves of an embed session it created, which count against it. Exactly
 * the limit succeeds for each key, each RateLimit-Remaining value from limit − 1 down to 0 is handed out
 * once, and every other request is 429 `rate_limited` with RateLimit-Remaining 0 and a Retry-After
 * that points at the end of the clock hour.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpawnedServer, dispose, ensureBuilt, scale, seedDataDir } from './harness.ts';

const LIMIT = scale(300, 3000);
const CLIENTS = 50;
const HOUR_MS = 3_600_000;

interface Answer {
  key: 'a' | 'b';
  status: number;
  code: string | undefined;
  remaining: number;
  retryAfter: number | undefined;
}

let server: SpawnedServer;
let dataDir: string;
let keys: { a: string; b: string };

beforeAll(async () => {
  ensureBuilt();
  const seeded = await seedDataDir([{ account: 'acme', hourlyLimit: LIMIT }, { account: 'beta', hourlyLimit: LIMIT / 2 }]);
  dataDir = seeded.dataDir;
  keys = { a: seeded.keys[0].secret, b: seeded.keys[1].secret };
  server = await SpawnedServer.start(dataDir);
});
afterAll(() => dispose(server, dataDir));

/**
 * The window is the clock hour of the server's real clock: a run that straddled its end would see the
 * counts reset. Starting more than `marginMs` before the end rules that out; closer, wait for the new hour.
 */
async function clearOfHourEnd(marginMs: number): Promise<void> {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe('hourly limits under concurrent load', () => {
  it(`lets exactly the limit through for each key (${LIMIT} and ${LIMIT / 2}), all else 429 with Retry-After`, async () => {
    await clearOfHourEnd(scale(10_000, 30_000));
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const send = (key: 'a' | 'b', method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const outgoing = request(`${server.url}${path}`, { method, agent, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk) => void (text += chunk)).on('end', () => resolve({
            key,
            status: response.statusCode!,
            code: response.statusCode === 200 ? undefined : JSON.parse(text).code,
            remaining: Number(response.headers['ratelimit-remaining']),
            retryAfter: response.headers['retry-after'] === undefined ? undefined : Number(response.headers['retry-after']),
          }));
        });
        outgoing.on('error', reject);
        outgoing.end(body);
      });

    // The session is made with key a, and counts as one of its requests.
    const created = await fetch(`${server.url}/v1/embed/sessions`, {
      method: 'POST', headers: { 'x-api-key': keys.a, 'content-type': 'application/json' }, body: JSON.stringify({ origin: 'https://shop.example' }),
    });
    const token = ((await created.json()) as { session_token: string }).session_token;

    const work: (() => Promise<Answer>)[] = [];
    for (const key of ['a', 'b'] as const) {
      const secret = keys[key];
      const total = 3 * (key === 'a' ? LIMIT : LIMIT / 2);
      for (let i = 0; i < total; i++) {
        const point = { lat: 45 + (i % 97) * 0.01, lng: 2 + (i % 89) * 0.01 };
        switch (i % (key === 'a' ? 4 : 3)) {
          case 0: work.push(() => send(key, 'GET', '/v1/loc/lookup/FR-0RMB-CLY0', { 'x-api-key': secret })); break;
          case 1: work.push(() => send(key, 'POST', '/v1/embed/resolve', { 'x-api-key': secret }, JSON.stringify(point))); break;
          case 2: work.push(() => send(key, 'POST', '/v1/loc/generate', { 'x-api-key': secret }, JSON.stringify({ latitude: point.lat, longitude: point.lng }))); break;
          default: work.push(() => send(key, 'POST', '/v1/embed/resolve', { authorization: `Bearer ${token}` }, JSON.stringify(point)));
        }
      }
    }
    // Shuffled, so the keys and the endpoints race each other.
    for (let i = work.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [work[i], work[j]] = [work[j], work[i]];
    }
    const answers: Answer[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (next < work.length) answers.push(await work[next++]());
    }));
    const seconds = (performance.now() - started) / 1000;
    agent.destroy();
    const secondsToHourEnd = Math.ceil((HOUR_MS - (Date.now() % HOUR_MS)) / 1000);

    for (const key of ['a', 'b'] as const) {
      const limit = key === 'a' ? LIMIT : LIMIT / 2;
      const mine = answers.filter((answer) => answer.key === key);
      const passed = mine.filter((answer) => answer.status === 200);
      const refused = mine.filter((answer) => answer.status !== 200);
      // Key a's session creation took one of its requests before the hammering began.
      const expected = key === 'a' ? limit - 1 : limit;
      console.log(`rate limit under load: key ${key} limited to ${limit}/h, ${mine.length} concurrent requests: ${passed.length} passed (+${limit - expected} before), ${refused.length} refused 429`);
      expect(passed).toHaveLength(expected);
      expect(passed.map((answer) => answer.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: expected }, (_, i) => i));
      expect(refused.every((answer) => answer.status === 429 && answer.code === 'rate_limited' && answer.remaining === 0)).toBe(true);
      for (const { retryAfter } of refused) {
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(Math.abs(retryAfter! - secondsToHourEnd)).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
      }
    }
  }, scale(60_000, 120_000));
});
