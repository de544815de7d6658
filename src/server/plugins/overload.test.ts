/**
 * Overload answered early, in process: the event loop blocked for real, turn after turn, past a low
 * bound; then an API request gets 503 with Retry-After before its key is even read, `/livez` answers,
 * `/readyz` says why it fails, and once the loop is free again requests pass.
 */
import { setTimeout as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freshService, json } from '../../../test/support/service.ts';
import { loadPlaces } from '../../address/offline.ts';
import { coverage } from '../../code/shipped-table.ts';
import { OVERLOAD_RETRY_AFTER_SECONDS } from './overload.ts';

/** The bound of these tests: far below the default, so that a few blocked turns pass it. */
const BOUND_MS = 100;

/** Each turn of the loop blocks this long: the mean delay under-pressure measures is about this. */
const BLOCK_MS = 250;

/** One stall of the loop: more than two of under-pressure's one-second measures. */
const STALL_MS = 2200;

/**
 * The bound of the stall's test. A stall's measure depends on which timer runs first after it: the
 * one that samples the delay (tens of ms in the mean) or under-pressure's (no sample: infinite). This
 * bound is below the first.
 */
const STALL_BOUND_MS = 20;

/** Blocks the event loop a turn at a time until `seen` says the measures saw it. */
async function blockUntil(seen: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 8000;
  while (!seen()) {
    if (Date.now() > deadline) throw new Error(`${what} was never seen`);
    const until = performance.now() + BLOCK_MS;
    while (performance.now() < until) {
      // Busy: the thread does nothing else, as under a burst of synchronous work.
    }
    await turn(0);
  }
}

describe('an overloaded server', () => {
  it('answers API requests 503 with Retry-After at once, /livez 200, /readyz 503 saying why, and serves again once the loop is free', async () => {
    const service = await freshService({ LOC_MAX_EVENT_LOOP_DELAY_MS: String(BOUND_MS) });
    loadPlaces();
    coverage();
    const { secret } = await service.key('acme');
    const lookup = () => service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } });
    expect((await lookup()).statusCode).toBe(200);
    // The measures are heeded once those that may cover the app's own start are past.
    await expect.poll(() => service.app.eventLoopDelay(), { timeout: 5000, interval: 50 }).not.toBeNull();

    await blockUntil(() => service.app.overloaded(), 'an overload');
    const refused = await lookup();
    expect({ status: refused.statusCode, retryAfter: refused.headers['retry-after'], body: json(refused) }).toEqual({
      status: 503,
      retryAfter: String(OVERLOAD_RETRY_AFTER_SECONDS),
      body: expect.objectContaining({ success: false, code: 'service_unavailable', message: expect.stringMatching(/^The service is overloaded \(its event loop lags \d+ ms\); retry in a moment\.$/) }),
    });
    // Refused before the key was read: no key at all gets the same answer, not missing_api_key.
    expect(json((await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L' })))).toMatchObject({ code: 'service_unavailable' });
    expect((await service.request({ url: '/livez' })).statusCode).toBe(200);
    expect((await service.request({ url: '/livez', method: 'HEAD' })).statusCode).toBe(200);
    const readyz = await service.request({ url: '/readyz' });
    expect({ status: readyz.statusCode, retryAfter: readyz.headers['retry-after'] }).toEqual({ status: 503, retryAfter: String(OVERLOAD_RETRY_AFTER_SECONDS) });
    expect(json<{ message: string }>(readyz).message).toMatch(new RegExp(`^Not ready: the event loop lags \\d+ ms, past LOC_MAX_EVENT_LOOP_DELAY_MS=${BOUND_MS}\\.$`));
    expect((await service.app.readiness.check()).failed.map(({ check }) => check)).toEqual(['overloaded']);

    // The next measure, a second later, finds the loop free.
    await expect.poll(async () => (await lookup()).statusCode, { timeout: 5000, interval: 100 }).toBe(200);
    expect((await service.request({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('does not take the start\'s own work for overload: a loop blocked just as the app is ready refuses nothing', async () => {
    const service = await freshService({ LOC_MAX_EVENT_LOOP_DELAY_MS: String(BOUND_MS) });
    const { secret } = await service.key('acme');
    // As the codec's table is read right after listening on a slow machine: over a second in one step.
    await blockUntil(() => service.app.memoryUsage().eventLoopDelay > BOUND_MS, 'a delay past the bound');
    expect((await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } })).statusCode).toBe(200);
    expect(service.app.eventLoopDelay()).toBeNull();
  });

  it('takes one stall, however long, for no overload: the request after it is served', async () => {
    const service = await freshService({ LOC_MAX_EVENT_LOOP_DELAY_MS: String(STALL_BOUND_MS) });
    loadPlaces();
    coverage();
    const { secret } = await service.key('acme');
    await expect.poll(() => service.app.eventLoopDelay(), { timeout: 5000, interval: 50 }).not.toBeNull();
    // One synchronous wait, as SQLite's for another process's lock: longer than a measure's interval,
    // so that the loop does not turn at all in one (under-pressure reads that as an infinite delay).
    const until = performance.now() + STALL_MS;
    while (performance.now() < until) {
      // Busy.
    }
    await expect.poll(() => service.app.eventLoopDelay(), { timeout: 3000, interval: 20 }).toBeGreaterThan(STALL_BOUND_MS);
    expect((await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } })).statusCode).toBe(200);
    expect(service.app.overloaded()).toBe(false);
  });

  it('is not watched with LOC_MAX_EVENT_LOOP_DELAY_MS=0: nothing measures the loop, and readiness never says overloaded', async () => {
    const service = await freshService({ LOC_MAX_EVENT_LOOP_DELAY_MS: '0' });
    expect(service.app.hasDecorator('memoryUsage')).toBe(false);
    expect(service.app.eventLoopDelay()).toBeNull();
    expect((await service.app.readiness.check()).failed.map(({ check }) => check)).not.toContain('overloaded');
  });

  it('does not expose under-pressure\'s own status route', async () => {
    const service = await freshService();
    expect(service.app.hasDecorator('memoryUsage')).toBe(true);
    expect((await service.request({ url: '/status' })).statusCode).toBe(404);
  });
});
