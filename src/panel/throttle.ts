/**
 * Throttled password sign-ins. Every attempt with a password — right or wrong — draws from two
 * budgets of a quarter of an hour: one per e-mail address (guessing one user's password) and one per
 * client address (trying many users' passwords from one place). They are counted by the service's
 * counters (store/counters.ts), so the whole fleet shares them when the counters are shared, and an
 * attempt over budget is refused before any password is hashed: a flood costs the service nothing.
 *
 * A user whose address an attacker is flooding is locked out of password sign-in for at most a
 * quarter of an hour; a passkey still signs them in, since a passkey cannot be guessed. Passkey
 * sign-ins have a budget of their own per client address (`takePasskeyStart`).
 */
import { hashSecret } from '../auth/secrets.ts';
import type { Budget, Counters } from '../store/counters.ts';

/** The window of both budgets. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Attempts per e-mail address per window: enough for a person who mistypes, far too few to guess. */
export const SIGN_IN_ATTEMPTS_PER_EMAIL = 10;
/** Attempts per client address per window: an office behind one address signs in, a script does not. */
export const SIGN_IN_ATTEMPTS_PER_IP = 100;

/** A budget of `limit` per SIGN_IN_WINDOW_MS for `subject`, counted under `kind`. */
function budget(kind: string, subject: string, limit: number, now: number): Budget {
  const start = now - (now % SIGN_IN_WINDOW_MS);
  return { id: `${kind}:${subject}:${start}`, keyId: '', kind, limit, resetsAt: start + SIGN_IN_WINDOW_MS };
}

/** Counts `budgets`; when one is spent, the seconds until its window ends (for `Retry-After`), else null. */
async function take(counters: Counters, budgets: Budget[], now: number): Promise<number | null> {
  const taken = await counters.take(budgets, now);
  return taken.spent < 0 ? null : Math.ceil((budgets[taken.spent].resetsAt - now) / 1000);
}

/** Counts a password attempt. The address is hashed: counters' ids appear in the counters' store. */
export function takeSignInAttempt(counters: Counters, email: string, ip: string, now: number): Promise<number | null> {
  const who = hashSecret(email.trim().toLowerCase()).slice(0, 32);
  return take(counters, [budget('signin_email', who, SIGN_IN_ATTEMPTS_PER_EMAIL, now), budget('signin_ip', ip, SIGN_IN_ATTEMPTS_PER_IP, now)], now);
}

/**
 * Counts a passkey sign-in's start. Passkeys cannot be guessed, but anyone may start a ceremony, and
 * each keeps a challenge in the store: a client address starts as many per window as it may try
 * passwords, so a script cannot fill the store with challenges.
 */
export function takePasskeyStart(counters: Counters, ip: string, now: number): Promise<number | null> {
  return take(counters, [budget('passkey_start_ip', ip, SIGN_IN_ATTEMPTS_PER_IP, now)], now);
}
