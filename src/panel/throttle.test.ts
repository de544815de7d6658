/** The sign-in throttle on the in-process counters: who counts as one client, and the service's own budget. */
import { describe, expect, it } from 'vitest';
import { memoryCounters } from '../store/memory/memory-counters.ts';
import { SIGN_IN_ATTEMPTS_PER_EMAIL, SIGN_IN_ATTEMPTS_PER_IP, SIGN_IN_WINDOW_MS, takePasskeyStart, takeSignInAttempt } from './throttle.ts';

const NOW = 10 * SIGN_IN_WINDOW_MS + 1000;
/** Room enough that the service's budget never refuses, unless a test says otherwise. */
const ROOMY = 1_000_000;

/** Spends `count` attempts from `ip` (each for another address) and says how many were taken. */
async function attempts(counters: ReturnType<typeof memoryCounters>, ips: (i: number) => string, count: number, serviceLimit = ROOMY): Promise<number> {
  let taken = 0;
  for (let i = 0; i < count; i++) if ((await takeSignInAttempt(counters, { email: `person-${i}@example.com`, ip: ips(i), serviceLimit }, NOW)) === null) taken++;
  return taken;
}

describe('takeSignInAttempt', () => {
  it('counts the addresses of one IPv6 /64 as one client, and another /64 apart', async () => {
    const counters = memoryCounters();
    expect(await attempts(counters, (i) => `2001:db8:1:2::${i.toString(16)}`, SIGN_IN_ATTEMPTS_PER_IP + 5)).toBe(SIGN_IN_ATTEMPTS_PER_IP);
    expect(await takeSignInAttempt(counters, { email: 'x@example.com', ip: '2001:db8:1:2:ffff:ffff:ffff:ffff', serviceLimit: ROOMY }, NOW)).toMatchObject({ everyone: false });
    expect(await takeSignInAttempt(counters, { email: 'x@example.com', ip: '2001:db8:1:3::1', serviceLimit: ROOMY }, NOW)).toBeNull();
  });

  it('counts an IPv4 client seen as IPv4-mapped IPv6 as that IPv4 address, and each IPv4 address apart', async () => {
    const counters = memoryCounters();
    expect(await attempts(counters, (i) => (i % 2 === 0 ? '192.0.2.7' : '::ffff:192.0.2.7'), SIGN_IN_ATTEMPTS_PER_IP + 1)).toBe(SIGN_IN_ATTEMPTS_PER_IP);
    expect(await takeSignInAttempt(counters, { email: 'x@example.com', ip: '192.0.2.8', serviceLimit: ROOMY }, NOW)).toBeNull();
  });

  it('refuses everyone once the service’s budget is spent, until the window ends, and a refusal by another budget costs it nothing', async () => {
    const counters = memoryCounters();
    const serviceLimit = 30;
    // An address over its own budget is refused by it, not charged to the service's.
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_EMAIL + 5; i++) await takeSignInAttempt(counters, { email: 'ada@example.com', ip: `198.51.100.${i}`, serviceLimit }, NOW);
    expect(await attempts(counters, (i) => `203.0.113.${i}`, serviceLimit, serviceLimit)).toBe(serviceLimit - SIGN_IN_ATTEMPTS_PER_EMAIL);
    const refused = await takeSignInAttempt(counters, { email: 'bo@example.com', ip: '192.0.2.200', serviceLimit }, NOW);
    expect(refused).toEqual({ everyone: true, retryAfter: Math.ceil((SIGN_IN_WINDOW_MS - (NOW % SIGN_IN_WINDOW_MS)) / 1000) });
    expect(await takeSignInAttempt(counters, { email: 'bo@example.com', ip: '192.0.2.200', serviceLimit }, NOW + refused!.retryAfter * 1000)).toBeNull();
  });
});

describe('takePasskeyStart', () => {
  it('counts one IPv6 /64 as one client too', async () => {
    const counters = memoryCounters();
    let taken = 0;
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_IP + 3; i++) if ((await takePasskeyStart(counters, `2001:db8:9:9:${i.toString(16)}::1`, NOW)) === null) taken++;
    expect(taken).toBe(SIGN_IN_ATTEMPTS_PER_IP);
  });
});
