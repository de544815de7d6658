/**
 * Panel passwords: the rules a new one must meet, and its hash. The hash is scrypt — memory-hard, in
 * Node's own crypto (OpenSSL), so no native addon to build — with OWASP's parameters for it (N = 2^17,
 * r = 8, p = 1: 128 MiB and a few hundred milliseconds per hash), run off the event loop on libuv's
 * pool. A hash is kept in the PHC string format with its parameters, so they can be raised later and
 * an older hash still verifies (`needsRehash` says when to replace it at the next sign-in).
 *
 * Hashes run **HASHES_AT_ONCE at a time**, the rest wait in line: libuv's pool has four threads, which
 * the service's file reads, DNS lookups and compression share, and each hash holds one for a few
 * hundred milliseconds and 128 MiB. A flood of sign-ins from many addresses (each within its own
 * throttle) therefore leaves the pool to the rest of the service and memory bounded; beyond
 * HASHES_WAITING in line, a sign-in is answered 503 with Retry-After at once rather than queued for
 * ever.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { LocError } from '../errors.ts';

/** Length bounds in characters (code points after NFKC). NIST SP 800-63B-4: at least 15 for a password that is the only factor. */
export const PASSWORD_MIN = 15;
/** Long enough for any passphrase, short enough that a megabyte of "password" costs nothing to refuse. */
export const PASSWORD_MAX = 128;

/** The cost used for new hashes: log2 of N, r, p. */
const COST = { ln: 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

interface Params {
  ln: number;
  r: number;
  p: number;
}

/** Hashes computed at once: half of libuv's default pool of four. */
export const HASHES_AT_ONCE = 2;
/** Hashes that may wait for one of those; more are refused (503). A few seconds of waiting at most. */
export const HASHES_WAITING = 16;

/** Runs `work` when fewer than `atOnce` run, after those waiting; refuses when `waiting` already wait. */
export function gate(atOnce: number, waiting: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const line: Array<() => void> = [];
  // A place freed goes to the first in line, if any, without being given back: `running` stays counted.
  const next = (): void => {
    const resume = line.shift();
    if (resume === undefined) running--;
    else resume();
  };
  return async (work) => {
    if (running >= atOnce) {
      if (line.length >= waiting) throw new LocError('service_unavailable', 'Too many sign-ins at once; retry in a few seconds.').retryAfter(5);
      await new Promise<void>((resume) => line.push(resume));
    } else {
      running++;
    }
    try {
      return await work();
    } finally {
      next();
    }
  };
}

const hashing = gate(HASHES_AT_ONCE, HASHES_WAITING);

function scrypt(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  return hashing(() => scryptNow(password, salt, params));
}

function scryptNow(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  const N = 2 ** params.ln;
  // OpenSSL refuses more than maxmem; scrypt needs 128·N·r bytes, and a little more for its own use.
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return new Promise((done, fail) => {
    scryptCallback(password, salt, HASH_BYTES, options, (error, key) => (error ? fail(error) : done(key)));
  });
}

/**
 * The password as it is hashed: NFKC, so that the same passphrase typed on two keyboards is the same
 * one, as NIST asks. Throws `validation_error` naming the rule it breaks; `email` may not be the password.
 */
export function checkNewPassword(input: string, email: string): string {
  const password = input.normalize('NFKC');
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw new LocError('validation_error', `The password must be at least ${PASSWORD_MIN} characters long; it has ${length}. A few words make a good one.`, 'password');
  if (length > PASSWORD_MAX) throw new LocError('validation_error', `The password must be at most ${PASSWORD_MAX} characters long; it has ${length}.`, 'password');
  if (password.trim().toLowerCase() === email.toLowerCase()) throw new LocError('validation_error', 'The password may not be your e-mail address.', 'password');
  return password;
}

/** A PHC string: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, both base64 without padding. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scrypt(password.normalize('NFKC'), salt, COST);
  return `$scrypt$ln=${COST.ln},r=${COST.r},p=${COST.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

function parse(stored: string): { params: Params; salt: Buffer; hash: Buffer } | null {
  const match = PHC.exec(stored);
  if (match === null) return null;
  return { params: { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) }, salt: Buffer.from(match[4], 'base64url'), hash: Buffer.from(match[5], 'base64url') };
}

/**
 * A hash of no one's password, verified against when the e-mail address is unknown or has no password,
 * so that a sign-in takes as long whether or not the address has a user: the time tells nothing.
 */
let decoy: Promise<string> | undefined;

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. With `stored`
 * null (no such user, or no password) a decoy hash is computed and the answer is false.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored === null ? null : parse(stored);
  if (parsed === null) {
    decoy ??= hashPassword(randomBytes(16).toString('base64url'));
    const fake = parse(await decoy)!;
    await scrypt(password.normalize('NFKC'), fake.salt, fake.params);
    return false;
  }
  const hash = await scrypt(password.normalize('NFKC'), parsed.salt, parsed.params);
  return hash.length === parsed.hash.length && timingSafeEqual(hash, parsed.hash);
}

/** Whether a verified hash was made with a lower cost than new ones get: replace it while the password is at hand. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return parsed === null || parsed.params.ln < COST.ln || parsed.params.r < COST.r;
}
