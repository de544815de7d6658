/**
 * The panel's password hashes, a service of the app (`app.passwords`, made per app from its options).
 * The hash is scrypt — memory-hard, in Node's own crypto (OpenSSL), so no native addon to build — with
 * OWASP's parameters for it (PASSWORD_COST: N = 2^17, r = 8, p = 1; 128 MiB and a few hundred
 * milliseconds per hash), run off the event loop on libuv's pool. A hash is kept in the PHC string
 * format with its parameters, so they can be raised later and an older hash still verifies
 * (`needsRehash` says when to replace it at the next sign-in).
 *
 * Every hash of an app passes its gate (hash-gate.ts). The service builds one app per process (each
 * worker of a cluster its own), so the gate's bounds are per process, as libuv's pool is.
 *
 * The cost is an option of the app, not a setting: tests lower it (hashing is then not what they test),
 * and nothing an operator sets can weaken the hashes of a running service.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import fp from 'fastify-plugin';
import { HASHES_AT_ONCE, HASHES_WAITING, gate, type GateStats } from './hash-gate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordHasher;
  }
}

/** The cost of a hash: log2 of N, r, p. */
export interface PasswordCost {
  ln: number;
  r: number;
  p: number;
}

/** The cost of new hashes in the service. */
export const PASSWORD_COST: Readonly<PasswordCost> = { ln: 17, r: 8, p: 1 };

/** What each cost may be: OpenSSL's own bounds, within what a PHC string here is read back with. */
const COST_BOUNDS: Readonly<Record<keyof PasswordCost, readonly [number, number]>> = { ln: [1, 20], r: [1, 32], p: [1, 16] };

const SALT_BYTES = 16;
const HASH_BYTES = 32;

export interface PasswordHasher {
  /** The cost of new hashes. */
  readonly cost: Readonly<PasswordCost>;
  /** A PHC string: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, both base64 without padding. */
  hash(password: string): Promise<string>;
  /**
   * Whether `password` is the one `stored` was made from, compared in constant time. With `stored`
   * null (no such user, or no password) a hash of the same cost is computed all the same, and the
   * answer is false: a sign-in takes as long whether or not the address has a user.
   */
  verify(password: string, stored: string | null): Promise<boolean>;
  /** Whether a verified hash was made with a lower cost than new ones get: replace it while the password is at hand. */
  needsRehash(stored: string): boolean;
  /** The hashes running and waiting at the gate now, and those it has refused (hash-gate.ts). */
  stats(): GateStats;
}

/** Throws when `cost` is not one OpenSSL computes and a PHC string here holds. */
function checkCost(cost: PasswordCost): void {
  for (const [name, [min, max]] of Object.entries(COST_BOUNDS) as [keyof PasswordCost, readonly [number, number]][]) {
    const value = cost[name];
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`passwordCost.${name} must be an integer from ${min} to ${max}, received ${String(value)}.`);
  }
}

function scryptNow(password: string, salt: Buffer, cost: PasswordCost): Promise<Buffer> {
  const N = 2 ** cost.ln;
  // OpenSSL needs 128·r·(N + p + 2) bytes and refuses more than maxmem: twice that leaves it room.
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 2 * 128 * cost.r * (N + cost.p + 2) };
  return new Promise((done, fail) => {
    scrypt(password.normalize('NFKC'), salt, HASH_BYTES, options, (error, key) => (error ? fail(error) : done(key)));
  });
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

function parse(stored: string): { cost: PasswordCost; salt: Buffer; hash: Buffer } | null {
  const match = PHC.exec(stored);
  if (match === null) return null;
  return { cost: { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) }, salt: Buffer.from(match[4], 'base64url'), hash: Buffer.from(match[5], 'base64url') };
}

/** Hashes of `cost`, `HASHES_AT_ONCE` at a time (hash-gate.ts). */
export function passwordHasher(cost: PasswordCost = PASSWORD_COST): PasswordHasher {
  checkCost(cost);
  const own = { ...cost };
  const hashing = gate(HASHES_AT_ONCE, HASHES_WAITING);
  const computed = (password: string, salt: Buffer, of: PasswordCost) => hashing(() => scryptNow(password, salt, of));
  // The salt of no one's hash, for an address without one: the same work as a real check, at the cost of new hashes.
  const decoySalt = randomBytes(SALT_BYTES);
  return {
    cost: own,
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const hash = await computed(password, salt, own);
      return `$scrypt$ln=${own.ln},r=${own.r},p=${own.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
    },
    async verify(password, stored) {
      const parsed = stored === null ? null : parse(stored);
      if (parsed === null) {
        await computed(password, decoySalt, own);
        return false;
      }
      const hash = await computed(password, parsed.salt, parsed.cost);
      return hash.length === parsed.hash.length && timingSafeEqual(hash, parsed.hash);
    },
    needsRehash(stored) {
      const parsed = parse(stored);
      return parsed === null || parsed.cost.ln < own.ln || parsed.cost.r < own.r;
    },
    stats: hashing.stats,
  };
}

export interface PasswordsPluginOptions {
  /** Default PASSWORD_COST. */
  cost?: PasswordCost;
}

/** Decorates the app with its hasher (`app.passwords`). */
export const passwordsPlugin = fp<PasswordsPluginOptions>(
  async (app, options) => {
    app.decorate('passwords', passwordHasher(options.cost));
  },
  { name: 'loc-passwords', fastify: '5.x' },
);
