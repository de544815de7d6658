/**
 * Request limits of the service: headers, 429 with Retry-After, the reset, limits per key, and
 * session traffic counted apart from the key's own calls, per session and per hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T0, json, testService, type TestService } from '../../../test/support/service.ts';

describe('rate limits of the service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await testService({ LOC_DEFAULT_HOURLY_LIMIT: '3' });
  });
  afterAll(() => service.close());

  const lookup = (key: string) => service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': key } });

  it('announces limit, remaining and reset on every response, then refuses with 429 until the hour ends', async () => {
    const { secret } = await service.key();
    const first = await lookup(secret);
    // T0 is ten minutes past the hour: fifty minutes to the reset.
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'ratelimit-reset': '3000' });
    await lookup(secret);
    expect((await lookup(secret)).headers['ratelimit-remaining']).toBe('0');
    const refused = await lookup(secret);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers).toMatchObject({ 'retry-after': '3000', 'ratelimit-remaining': '0' });
    expect(json(refused)).toMatchObject({ success: false, code: 'rate_limited' });

    service.clock.advance(2_999_000);
    expect((await lookup(secret)).statusCode).toBe(429);
    service.clock.advance(1_000);
    const reset = await lookup(secret);
    expect(reset.statusCode).toBe(200);
    expect(reset.headers).toMatchObject({ 'ratelimit-remaining': '2', 'ratelimit-reset': '3600' });
    service.clock.advance(T0 - service.clock.now());
  });

  it("uses the key's own limit over the default, and counts each key apart", async () => {
    const { secret: big } = await service.key('acme', { hourlyLimit: 10 });
    const { secret: other } = await service.key('acme');
    expect((await lookup(big)).headers['ratelimit-limit']).toBe('10');
    expect((await lookup(other)).headers['ratelimit-remaining']).toBe('2');
  });

  const sessionOf = async (secret: string, ttl = 900): Promise<string> =>
    json(await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example', ttl } }))
      .session_token as string;
  const resolveWith = (token: string) => service.request({
    method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${token}` }, payload: { lat: 1.3, lng: 103.8 },
  });

  it("never lets session traffic use up the key's own calls: a session spends its own budget and the key's embed budget", async () => {
    const { secret } = await service.key('acme', { hourlyLimit: 3, sessionLimit: 100 });
    const token = await sessionOf(secret);
    // Ten visitor requests, far beyond the three calls an hour the key itself may make.
    for (let i = 0; i < 10; i++) expect((await resolveWith(token)).statusCode).toBe(200);
    // The session used one of the key's three: the session itself.
    const own = await lookup(secret);
    expect(own.statusCode).toBe(200);
    expect(own.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '1' });
  });

  it('caps what one session may make over its life with session_limit_reached, without Retry-After; a new session gets its own', async () => {
    const { secret } = await service.key('acme', { sessionLimit: 2, embedHourlyLimit: 50 });
    const token = await sessionOf(secret);
    const first = await resolveWith(token);
    // Of two budgets, the headers show the one with fewer requests left: the session's, which ends with the session (900 s).
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '900' });
    expect((await resolveWith(token)).headers['ratelimit-remaining']).toBe('0');
    const refused = await resolveWith(token);
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toMatchObject({ success: false, code: 'session_limit_reached', message: expect.stringContaining('create a new session') });
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'ratelimit-reset': '900' });
    expect(refused.headers['retry-after']).toBeUndefined();
    // The refusal cost the embed budget nothing: 50 − 2 − 1.
    const fresh = await resolveWith(await sessionOf(secret));
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1' });
    service.clock.advance(600_000);
    // The session's budget does not come back with time: only a new session has one.
    expect((await resolveWith(token)).statusCode).toBe(429);
    service.clock.advance(T0 - service.clock.now());
  });

  it("limits all of a key's sessions together per hour with rate_limited and Retry-After, and leaves the key's own calls alone", async () => {
    const { secret } = await service.key('acme', { hourlyLimit: 5, sessionLimit: 100, embedHourlyLimit: 3 });
    const tokens = [await sessionOf(secret, 3600), await sessionOf(secret)];
    const first = await resolveWith(tokens[0]);
    // Of two budgets, the one with fewer left: the key's embed budget, which resets with the hour.
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'ratelimit-reset': '3000' });
    await resolveWith(tokens[1]);
    await resolveWith(tokens[0]);
    // Visitors who reload for fresh sessions still meet the same hourly budget.
    const refused = await resolveWith(await sessionOf(secret));
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('embed sessions') });
    expect(refused.headers).toMatchObject({ 'retry-after': '3000', 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '3000' });
    // The key made three sessions of its five calls; a lookup is its fourth.
    const own = await lookup(secret);
    expect(own.statusCode).toBe(200);
    expect(own.headers).toMatchObject({ 'ratelimit-limit': '5', 'ratelimit-remaining': '1' });
    service.clock.advance(3_000_000);
    expect((await resolveWith(tokens[0])).statusCode).toBe(200);
    service.clock.advance(T0 - service.clock.now());
  });

  it('follows the service defaults for a key without limits of its own', async () => {
    const limited = await testService({ LOC_DEFAULT_SESSION_LIMIT: '1', LOC_DEFAULT_EMBED_HOURLY_LIMIT: '7' });
    try {
      const { secret } = await limited.key();
      const token = json(await limited.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example' } }))
        .session_token as string;
      const resolve = () => limited.request({ method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${token}` }, payload: { lat: 1.3, lng: 103.8 } });
      expect((await resolve()).headers).toMatchObject({ 'ratelimit-limit': '1', 'ratelimit-remaining': '0' });
      expect(json(await resolve()).code).toBe('session_limit_reached');
    } finally {
      await limited.close();
    }
  });

  it('does not count requests that fail authentication', async () => {
    expect((await lookup(`loc_${'q'.repeat(43)}`)).headers['ratelimit-limit']).toBeUndefined();
  });
});
