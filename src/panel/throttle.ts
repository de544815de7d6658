/**
 * Throttled password sign-ins. Every attempt with a password — right or wrong — draws from two
 * budgets of a quarter of an hour: one per e-mail address (guessing one user's password) and one per
 * client address (trying many users' passwords from one place). They are counted by the service's
 * counters (limits/counters.ts), so the whole fleet shares them when the counters are shared, and an
 * attempt over budget is refused before any password is hashed: a flood costs the service nothing.
 *
 * A user whose address an attacker is flooding is locked out of password sign-in for at most a
 * quarter of an hour; a passkey still signs them in, since a passkey cannot be guessed.
 */
import { hashSecret } from '../auth/secrets.ts';
import type { Budget, Counters } from '../limits/counters.ts';

/** The window of both budgets. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Attempts per e-mail address per window: enough for a person who mistypes, far too few to guess. */
export const SIGN_IN_ATTEMPTS_PER_EMAIL = 10;
/** Attempts per client address per window: an office behind one address signs in, a script does not. */
export const SIGN_IN_ATTEMPTS_PER_IP = 100;

/** The budgets of one attempt. The address is hashed: counters' ids appear in the counters' store. */
function budgets(email: string, ip: string, now: number): Budget[] {
  const start = now - (now % SIGN_IN_WINDOW_MS);
  const resetsAt = start + SIGN_IN_WINDOW_MS;
  const who = hashSecret(email.trim().toLowerCase()).slice(0, 32);
  return [
    { id: `signin-email:${who}:${start}`, keyId: '', kind: 'signin_email', limit: SIGN_IN_ATTEMPTS_PER_EMAIL, resetsAt },
    { id: `signin-ip:${ip}:${start}`, keyId: '', kind: 'signin_ip', limit: SIGN_IN_ATTEMPTS_PER_IP, resetsAt },
  ];
}

/** Counts an attempt; when refused, the seconds until the window ends (for `Retry-After`), else null. */
export async function takeSignInAttempt(counters: Counters, email: string, ip: string, now: number): Promise<number | null> {
  const list = budgets(email, ip, now);
  const taken = await counters.take(list, now);
  return taken.spent < 0 ? null : Math.ceil((list[taken.spent].resetsAt - now) / 1000);
}
