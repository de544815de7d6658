/** Hourly limits per key: headers, 429 with Retry-After, the reset, session traffic, limits per key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T0, json, testService, type TestService } from '../testing.ts';
import { HourlyLimiter } from './rate-limit.ts';

describe('HourlyLimiter', () => {
  it('counts per key within a clock hour and starts again at the next', () => {
    let now = Date.UTC(2030, 0, 1, 5, 59, 30);
    const limiter = new HourlyLimiter(() => now);
    expect(limiter.take('a', 2)).toEqual({ allowed: true, firstRefusal: false, limit: 2, remaining: 1, resetSeconds: 30 });
    expect(limiter.take('a', 2).remaining).toBe(0);
    expect(limiter.take('a', 2)).toEqual({ allowed: false, firstRefusal: true, limit: 2, remaining: 0, resetSeconds: 30 });
    expect(limiter.take('a', 2)).toMatchObject({ allowed: false, firstRefusal: false });
    expect(limiter.take('b', 2).allowed).toBe(true);
    now += 30_000;
    expect(limiter.take('a', 2)).toEqual({ allowed: true, firstRefusal: false, limit: 2, remaining: 1, resetSeconds: 3600 });
    limiter.take('a', 2);
    // A new window, a new first refusal.
    expect(limiter.take('a', 2).firstRefusal).toBe(true);
  });

  it('applies a raised limit at once', () => {
    const limiter = new HourlyLimiter(() => 0);
    limiter.take('a', 1);
    expect(limiter.take('a', 1).allowed).toBe(false);
    expect(limiter.take('a', 5)).toMatchObject({ allowed: true, remaining: 3 });
  });
});

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

  it("counts embed-session traffic against the session's key", async () => {
    const { secret } = await service.key('acme', { hourlyLimit: 3 });
    const session = json(await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example' } }));
    const resolve = () => service.request({
      method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${session.session_token}` }, payload: { lat: 1.3, lng: 103.8 },
    });
    expect((await resolve()).headers['ratelimit-remaining']).toBe('1');
    expect((await resolve()).statusCode).toBe(200);
    expect((await resolve()).statusCode).toBe(429);
    expect((await lookup(secret)).statusCode).toBe(429);
  });

  it('does not count requests that fail authentication', async () => {
    expect((await lookup(`loc_${'q'.repeat(43)}`)).headers['ratelimit-limit']).toBeUndefined();
  });
});
