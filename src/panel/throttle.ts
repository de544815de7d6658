/**
 * Throttled password sign-ins. Every attempt with a password — right or wrong — draws from three
 * budgets of a quarter of an hour: one per e-mail address (guessing one user's password), one per
 * client (trying many users' passwords from one place) and the service's own, all clients together
 * (`LOC_PANEL_SIGN_IN_BUDGET`): a flood spread over many addresses, each within its own budget, may
 * not keep the password hashes' gate (hash-gate.ts) full for long. They are counted by the service's
 * counters (store/counters.ts), so the whole fleet shares them when the counters are shared, and an
 * attempt over budget is refused before any password is hashed: a flood costs the service nothing.
 *
 * A user whose address an attacker is flooding is locked out of password sign-in for at most a
 * quarter of an hour, and everyone when the flood spends the service's budget; a passkey still signs
 * them in, since a passkey cannot be guessed. Passkey sign-ins have a budget of their own per client
 * (`takePasskeyStart`).
 *
 * A client is an IPv4 address, or an IPv6 /64: one subscriber's network, in which anyone holds
 * billions of addresses. An IPv4 client that a dual-stack socket sees as `::ffff:a.b.c.d` is that
 * IPv4 address.
 */
import ipaddr from 'ipaddr.js';
import { hashSecret } from '../auth/secrets.ts';
import type { Budget, Counters } from '../store/counters.ts';

/** The window of both budgets. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Attempts per e-mail address per window: enough for a person who mistypes, far too few to guess. */
export const SIGN_IN_ATTEMPTS_PER_EMAIL = 10;
/** Attempts per client per window: an office behind one address signs in, a script does not. */
export const SIGN_IN_ATTEMPTS_PER_IP = 100;

/** The client an address belongs to, as its budget names it: the IPv4 address, or the IPv6 /64. */
export function clientOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`);
  return `${network.toString()}/64`;
}

/** A budget of `limit` per window (SIGN_IN_WINDOW_MS unless given) for `subject`, counted under `kind`; the panel's other budgets are made so too (write-budget.ts). */
export function budget(kind: string, subject: string, limit: number, now: number, windowMs = SIGN_IN_WINDOW_MS): Budget {
  const start = now - (now % windowMs);
  return { id: `${kind}:${subject}:${start}`, keyId: '', kind, limit, resetsAt: start + windowMs };
}

/** Counts `budgets`; when one is spent, the seconds until its window ends (for `Retry-After`), else null. */
export async function take(counters: Counters, budgets: Budget[], now: number): Promise<number | null> {
  const taken = await counters.take(budgets, now);
  return taken.spent < 0 ? null : Math.ceil((budgets[taken.spent].resetsAt - now) / 1000);
}

/** A refused password attempt: when to retry (seconds), and whether the service's budget, everyone's, refused it. */
export interface SignInRefusal {
  retryAfter: number;
  everyone: boolean;
}

/**
 * Counts a password attempt of `email` from `ip`, with `serviceLimit` attempts per window for the whole
 * service. The address is hashed: counters' ids appear in the counters' store. The service's budget
 * comes last, so an attempt another budget refuses does not spend it.
 */
export async function takeSignInAttempt(counters: Counters, attempt: { email: string; ip: string; serviceLimit: number }, now: number): Promise<SignInRefusal | null> {
  const who = hashSecret(attempt.email.trim().toLowerCase()).slice(0, 32);
  const budgets = [
    budget('signin_email', who, SIGN_IN_ATTEMPTS_PER_EMAIL, now),
    budget('signin_ip', clientOf(attempt.ip), SIGN_IN_ATTEMPTS_PER_IP, now),
    budget('signin_service', 'all', attempt.serviceLimit, now),
  ];
  const taken = await counters.take(budgets, now);
  if (taken.spent < 0) return null;
  return { retryAfter: Math.ceil((budgets[taken.spent].resetsAt - now) / 1000), everyone: taken.spent === budgets.length - 1 };
}

/**
 * Counts a passkey sign-in's start. Passkeys cannot be guessed, but anyone may start a ceremony, and
 * each keeps a challenge in the store: a client address starts as many per window as it may try
 * passwords, so a script cannot fill the store with challenges.
 */
export function takePasskeyStart(counters: Counters, ip: string, now: number): Promise<number | null> {
  return take(counters, [budget('passkey_start_ip', clientOf(ip), SIGN_IN_ATTEMPTS_PER_IP, now)], now);
}

/** Passkey ceremonies a user may start per window (adding a passkey, confirming, a link's): a person needs a handful. */
export const PASSKEY_CHALLENGES_PER_USER = 30;

/**
 * Counts a passkey ceremony started for a known user — a signed-in user's (adding, confirming) or a
 * one-time link's — against that user's budget: each keeps a challenge in the store, as a sign-in's does.
 */
export function takePasskeyChallenge(counters: Counters, userId: string, now: number): Promise<number | null> {
  return take(counters, [budget('passkey_user', userId, PASSKEY_CHALLENGES_PER_USER, now)], now);
}
