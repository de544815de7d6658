/**
 * Two loc servers on one PostgreSQL, as behind a load balancer: the limits are the fleet's, not each
 * server's — with the counters in PostgreSQL, and in Redis (LOC_REDIS_URL) — and a change made
 * through one server reaches the other once its cache has let go (the clock injected; the figure in
 * seconds is `npm run bench`'s).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { redisServer, stopRedis } from '../../test/support/redis.ts';
import { json, testService, type TestService } from '../../test/support/service.ts';
import { tcpProxy } from '../../test/support/tcp-proxy.ts';
import { issueKey } from '../auth/keys.ts';
import { HOUR_MS } from '../durations.ts';
import { openPostgresStore } from '../store/postgres/postgres.ts';
import { KEY_CACHE_MS } from './plugins/store.ts';

const LIMIT = 40;
const ORIGIN = 'https://shop.example';

interface Fleet {
  servers: [TestService, TestService];
  /** Every log line of both servers, parsed. */
  logs: () => Array<Record<string, unknown>>;
}

let db: TestDatabase | undefined;
let fleet: Fleet | undefined;

async function twoServers(env: Record<string, string> = {}): Promise<Fleet> {
  db = await createTestDatabase({ migrated: true });
  const lines: string[] = [];
  const logStream = { write: (line: string) => void lines.push(line) };
  const settings = { LOC_DATABASE_URL: db.url, LOC_LOG_LEVEL: 'warn', ...env };
  const servers: [TestService, TestService] = [await testService(settings, { logStream }), await testService(settings, { logStream })];
  return { servers, logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

afterEach(async () => {
  for (const server of fleet?.servers ?? []) await server.close();
  await db?.dispose();
  fleet = undefined;
  db = undefined;
});
afterAll(async () => {
  await stopPostgres();
  await stopRedis();
});

describe.each([
  ['in PostgreSQL', async () => ({})],
  ['in Redis', async () => ({ LOC_REDIS_URL: (await redisServer()).url })],
])('two servers on one database, counters %s', (_, counterEnv) => {
  it('pass exactly the key\'s limit between them, hand out each remaining value once, and log the limit once', async () => {
    fleet = await twoServers(await counterEnv());
    const [one, two] = fleet.servers;
    // A key made in this test's database; in Redis its windows are new, whatever else the Redis holds.
    const { secret, key } = await one.key('acme', { hourlyLimit: LIMIT });
    const answers = await Promise.all(
      Array.from({ length: LIMIT * 2 + 10 }, (_, i) =>
        (i % 2 === 0 ? one : two).request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } }),
      ),
    );
    const passed = answers.filter((answer) => answer.statusCode !== 429);
    expect(passed).toHaveLength(LIMIT);
    expect(passed.map((answer) => Number(answer.headers['ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    for (const refused of answers.filter((answer) => answer.statusCode === 429)) {
      expect(json(refused)).toMatchObject({ code: 'rate_limited' });
      expect(refused.headers['ratelimit-remaining']).toBe('0');
    }
    expect(fleet.logs().filter((entry) => entry.msg === 'hourly limit reached')).toEqual([expect.objectContaining({ key: key.id, limit: LIMIT })]);
  });

  it('hold a session to its budget and a key\'s visitors to their embed budget across servers', async () => {
    fleet = await twoServers(await counterEnv());
    const [one, two] = fleet.servers;
    const { secret } = await one.key('acme', { sessionLimit: 6, embedHourlyLimit: 10 });
    const session = async () => {
      const made = await one.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: ORIGIN } });
      return { authorization: `Bearer ${json<{ session_token: string }>(made).session_token}`, origin: ORIGIN };
    };
    const resolve = (server: TestService, headers: Record<string, string>) =>
      server.request({ method: 'POST', url: '/v1/embed/resolve', headers, payload: { lat: 48.85837, lng: 2.29448, save: false } });
    const first = await session();
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await resolve(i % 2 === 0 ? one : two, first)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // Six calls of the key's ten embed calls are spent; a second session gets four, on either server.
    const second = await session();
    const more = [];
    for (let i = 0; i < 6; i++) more.push((await resolve(i % 2 === 0 ? two : one, second)).statusCode);
    expect(more).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('add up both servers\' usage in the store: counted, and refused by reason, the limit\'s included', async () => {
    fleet = await twoServers(await counterEnv());
    const [one, two] = fleet.servers;
    const { secret, key } = await one.key('acme', { ipRanges: ['10.0.0.0/8'], hourlyLimit: 2, sessionLimit: 1 });
    const lookup = (server: TestService, headers: Record<string, string> = {}, remoteAddress = '10.1.2.3') =>
      server.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret, ...headers }, remoteAddress });
    expect((await lookup(one)).statusCode).toBe(200);
    expect(json(await lookup(two, {}, '192.0.2.1'))).toMatchObject({ code: 'ip_not_allowed' });
    expect(json(await lookup(one, { origin: 'https://elsewhere.example' }))).toMatchObject({ code: 'origin_not_allowed' });
    expect(json(await lookup(two, { origin: 'https://elsewhere.example' }))).toMatchObject({ code: 'origin_not_allowed' });
    // The session is made with the key (its second server call); its one call is embed traffic, its second refused.
    await one.app.store.updateKeyList(key.id, 'origins', { add: ORIGIN });
    two.clock.advance(KEY_CACHE_MS);
    const made = await two.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: ORIGIN }, remoteAddress: '10.1.2.3' });
    const session = { authorization: `Bearer ${json<{ session_token: string }>(made).session_token}`, origin: ORIGIN };
    const resolve = (server: TestService) => server.request({ method: 'POST', url: '/v1/embed/resolve', headers: session, payload: { lat: 48.85837, lng: 2.29448, save: false } });
    expect([(await resolve(one)).statusCode, (await resolve(two)).statusCode]).toEqual([200, 429]);
    expect(json(await lookup(one))).toMatchObject({ code: 'rate_limited' });
    expect(json(await lookup(two))).toMatchObject({ code: 'rate_limited' });
    await one.app.store.setKeyStatus(key.id, 'disabled');
    two.clock.advance(KEY_CACHE_MS);
    expect(json(await lookup(two))).toMatchObject({ code: 'key_inactive' });
    // Tallies reach the store in batches; closing a server adds what it holds.
    await one.close();
    await two.close();
    fleet = undefined;
    const store = await openPostgresStore(db!.url);
    try {
      const hour = Math.floor(one.clock.now() / HOUR_MS) * HOUR_MS;
      expect(await store.usage.usageOf(key.id, 0)).toEqual([
        { keyId: key.id, kind: 'server', hour, used: 2, refused: { limit: 2, origin: 2, ip: 1, inactive: 1 } },
        { keyId: key.id, kind: 'embed', hour, used: 1, refused: { limit: 1, origin: 0, ip: 0, inactive: 0 } },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('counters out of reach', () => {
  it('stop the start with one line that names Redis, without its password', async () => {
    db = await createTestDatabase({ migrated: true });
    await expect(testService({ LOC_DATABASE_URL: db.url, LOC_REDIS_URL: 'redis://:s3cret@127.0.0.1:1' })).rejects.toThrow(
      expect.objectContaining({ name: 'StartFailure', message: expect.stringMatching(/^cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1: /) }),
    );
  });

  it('answer 503 with Retry-After, never let a request through uncounted, fail the health check, and recover by themselves', async () => {
    const redis = new URL((await redisServer()).url);
    const proxy = await tcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    try {
      fleet = await twoServers({ LOC_REDIS_URL: proxy.through(redis.href) });
      const [one] = fleet.servers;
      const { secret } = await one.key('acme');
      const lookup = () => one.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } });
      expect((await lookup()).statusCode).toBe(200);
      await proxy.cut();
      const refused = await lookup();
      expect(refused.statusCode).toBe(503);
      expect(json(refused)).toMatchObject({ code: 'service_unavailable' });
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await one.request({ url: '/healthz' })).statusCode).toBe(503);
      await proxy.restore();
      await expect.poll(async () => (await lookup()).statusCode, { timeout: 10_000 }).toBe(200);
      expect((await one.request({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      for (const server of fleet?.servers ?? []) await server.close();
      fleet = undefined;
      await proxy.close();
    }
  });
});

describe('a change made through one server', () => {
  it('disables a key everywhere once the other server\'s cache lets go of it', async () => {
    fleet = await twoServers();
    const [one, two] = fleet.servers;
    const { secret, key } = await one.key('acme');
    const lookup = (server: TestService) => server.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } });
    expect((await lookup(two)).statusCode).toBe(200);
    await one.app.store.setKeyStatus(key.id, 'disabled');
    expect((await lookup(one)).statusCode).toBe(401);
    // The other server read the key a moment ago: within its cache's time it may still serve it...
    expect((await lookup(two)).statusCode).toBe(200);
    two.clock.advance(KEY_CACHE_MS);
    // ... and not a moment after.
    const refused = await lookup(two);
    expect(refused.statusCode).toBe(401);
    expect(json(refused)).toMatchObject({ code: 'key_inactive' });
  });

  it('removes an origin everywhere: the other server refuses new sessions for it', async () => {
    fleet = await twoServers();
    const [one, two] = fleet.servers;
    const account = await one.account('acme');
    const { secret, key } = await issueKey(one.app.store, { accountId: account.id, origins: [ORIGIN, 'https://old.example'], createdAt: one.clock.now() });
    const create = (server: TestService) =>
      server.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://old.example' } });
    expect((await create(two)).statusCode).toBe(200);
    await one.app.store.updateKeyList(key.id, 'origins', { remove: 'https://old.example' });
    two.clock.advance(KEY_CACHE_MS);
    expect(json(await create(two))).toMatchObject({ code: 'origin_not_allowed' });
  });
});
