import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENEW_LEAD_MS, RENEW_RETRY_MS, watchExpiry, type Renewal } from './expiry.ts';

const T0 = Date.parse('2030-01-01T00:00:00Z');

/** A renewal's answer with no word of the service's clock (no `Date` header). */
const renewal = (expiresAt: number): Renewal => ({ expiresAt, serviceNow: NaN });

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('session expiry', () => {
  it('ends the session at expires_at, on the service’s clock', () => {
    const onExpired = vi.fn();
    // The visitor's clock is 5 minutes slow: the service's clock reads T0 + 5 min.
    const expiry = watchExpiry({ expiresAt: T0 + 5 * 60_000 + 900_000, skew: 5 * 60_000, onExpired });
    vi.advanceTimersByTime(899_999);
    expect(onExpired).not.toHaveBeenCalled();
    expect(expiry.isExpired()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(expiry.isExpired()).toBe(true);
  });

  it('ends at once a session that is over already', () => {
    const onExpired = vi.fn();
    watchExpiry({ expiresAt: T0 - 1, skew: 0, onExpired });
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('notices expiry on demand when a throttled timer has not fired', () => {
    const onExpired = vi.fn();
    const expiry = watchExpiry({ expiresAt: T0 + 1000, skew: 0, onExpired });
    vi.setSystemTime(T0 + 2000);
    expect(expiry.isExpired()).toBe(true);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('renews a minute before expiry and keeps going on the new session', async () => {
    const onExpired = vi.fn();
    const renew = vi.fn(async () => renewal(Date.now() + 900_000));
    watchExpiry({ expiresAt: T0 + 900_000, skew: 0, renew, onExpired });
    await vi.advanceTimersByTimeAsync(900_000 - RENEW_LEAD_MS - 1);
    expect(renew).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(renew).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RENEW_LEAD_MS + 1000);
    expect(onExpired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(900_000);
    expect(renew).toHaveBeenCalledTimes(2);
  });

  it('renews a short session at three quarters of its lifetime', async () => {
    const renew = vi.fn(async () => renewal(Date.now() + 60_000));
    watchExpiry({ expiresAt: T0 + 60_000, skew: 0, renew, onExpired: vi.fn() });
    await vi.advanceTimersByTimeAsync(44_999);
    expect(renew).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it('retries a failed renewal until the session runs out, then ends it', async () => {
    const onExpired = vi.fn();
    const renew = vi.fn(async (): Promise<Renewal> => {
      throw new Error('integrator server down');
    });
    watchExpiry({ expiresAt: T0 + 60_000, skew: 0, renew, onExpired });
    await vi.advanceTimersByTimeAsync(45_000);
    expect(renew).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RENEW_RETRY_MS);
    expect(renew).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(onExpired).toHaveBeenCalledTimes(1);
    // Why the session could not go on: the last renewal's failure.
    expect(onExpired).toHaveBeenCalledWith(new Error('integrator server down'));
    const calls = renew.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(renew).toHaveBeenCalledTimes(calls);
  });

  it('renews at once when the service ends the session early, or ends it when it cannot', async () => {
    const onExpired = vi.fn();
    const renew = vi.fn().mockResolvedValueOnce(renewal(T0 + 900_000)).mockRejectedValueOnce(new Error('no'));
    const expiry = watchExpiry({ expiresAt: T0 + 900_000, skew: 0, renew, onExpired });
    await expect(expiry.renewNow()).resolves.toBe(true);
    expect(onExpired).not.toHaveBeenCalled();
    await expect(expiry.renewNow()).resolves.toBe(false);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('gives no renewal error for a session that ends with its last renewal a success, or with none', async () => {
    const onExpired = vi.fn();
    const renew = vi.fn().mockRejectedValueOnce(new Error('once')).mockResolvedValueOnce(renewal(T0 + 120_000)).mockResolvedValue(renewal(T0 + 120_000));
    watchExpiry({ expiresAt: T0 + 60_000, skew: 0, renew, onExpired });
    await vi.advanceTimersByTimeAsync(45_000 + RENEW_RETRY_MS);
    expect(renew).toHaveBeenCalledTimes(2);
    // The next renewal gives the same expiry again: the session ends at T0 + 120 s.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(onExpired).toHaveBeenCalledWith(undefined);
  });

  it('replaces a session that has not ended, and keeps it when that fails', async () => {
    const onExpired = vi.fn();
    const renew = vi.fn().mockResolvedValueOnce(renewal(T0 + 900_000)).mockRejectedValueOnce(new Error('no'));
    const expiry = watchExpiry({ expiresAt: T0 + 900_000, skew: 0, renew, onExpired });
    await expect(expiry.replace()).resolves.toBe(true);
    await expect(expiry.replace()).resolves.toBe(false);
    expect(onExpired).not.toHaveBeenCalled();
    expect(expiry.isExpired()).toBe(false);
    await expect(watchExpiry({ expiresAt: T0 + 900_000, skew: 0, onExpired }).replace()).resolves.toBe(false);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('ends the session when the service does and nothing can renew it', async () => {
    const onExpired = vi.fn();
    const expiry = watchExpiry({ expiresAt: T0 + 900_000, skew: 0, onExpired });
    await expect(expiry.renewNow()).resolves.toBe(false);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('stops its timers', () => {
    const onExpired = vi.fn();
    watchExpiry({ expiresAt: T0 + 1000, skew: 0, onExpired }).stop();
    vi.advanceTimersByTime(5000);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('times a renewed session by the service’s clock of the renewal, not the visitor’s clock as it was: a jump meanwhile cuts nothing short', async () => {
    const onExpired = vi.fn();
    // The service's clock stays at T0 + elapsed; the visitor's is put 10 min ahead (a fake clock fast-forwarded, say).
    const renew = vi.fn(async () => ({ expiresAt: T0 + 40_000 + 60_000, serviceNow: T0 + 40_000 }));
    watchExpiry({ expiresAt: T0 + 60_000, skew: 0, renew, onExpired });
    await vi.advanceTimersByTimeAsync(40_000);
    vi.setSystemTime(Date.now() + 600_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(renew).toHaveBeenCalledTimes(1);
    // The frame's clock read T0 + 10 min 45 s: without the service's word the new session would be over.
    expect(onExpired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(40_000);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('advances its clock for tests: renews at once inside the lead, ends at once past the end, with no timer', async () => {
    vi.useRealTimers();
    const onExpired = vi.fn();
    const renew = vi.fn(async () => renewal(Date.now() + 60_000));
    const expiry = watchExpiry({ expiresAt: Date.now() + 60_000, skew: 0, renew, onExpired });
    await expiry.advance(10_000);
    expect(renew).not.toHaveBeenCalled();
    await expiry.advance(36_000);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(onExpired).not.toHaveBeenCalled();
    await expiry.advance();
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(expiry.isExpired()).toBe(true);
    expect(renew).toHaveBeenCalledTimes(1);
    await expiry.advance(1000);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expiry.stop();
  });

  it('lets a renewal still under way at the end decide it, as when a jumped clock brings the end before the answer', async () => {
    const onExpired = vi.fn();
    let answer!: (renewal: Renewal) => void;
    const renew = vi.fn<() => Promise<Renewal>>().mockImplementationOnce(() => new Promise((resolve) => (answer = resolve))).mockRejectedValue(new Error('no more'));
    const expiry = watchExpiry({ expiresAt: T0 + 60_000, skew: 0, renew, onExpired });
    await vi.advanceTimersByTimeAsync(46_000);
    expect(renew).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(onExpired).not.toHaveBeenCalled();
    // Asked meanwhile (a click after the jump), the session is not over either: the renewal decides.
    expect(expiry.isExpired()).toBe(false);
    answer({ expiresAt: T0 + 126_000, serviceNow: NaN });
    await vi.advanceTimersByTimeAsync(1000);
    expect(onExpired).not.toHaveBeenCalled();
    expect(expiry.isExpired()).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('ends the session on demand once a renewal under way at the end has failed', async () => {
    const onExpired = vi.fn();
    let fail!: (error: Error) => void;
    const renew = vi.fn<() => Promise<Renewal>>().mockImplementation(() => new Promise((_, reject) => (fail = reject)));
    const expiry = watchExpiry({ expiresAt: T0 + 60_000, skew: 0, renew, onExpired });
    await vi.advanceTimersByTimeAsync(46_000);
    vi.setSystemTime(T0 + 66_000);
    expect(expiry.isExpired()).toBe(false);
    fail(new Error('the page has no token'));
    await vi.advanceTimersByTimeAsync(0);
    expect(expiry.isExpired()).toBe(true);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });
});
