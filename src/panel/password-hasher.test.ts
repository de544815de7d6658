/**
 * The password hasher at a low cost (hashing at the service's is tested in sign-in.test.ts): the PHC
 * string of the configured cost, verification, the decoy for an address without a hash, the rehash
 * rule, the costs it refuses, and the service's cost as the app's default.
 */
import Fastify from 'fastify';
import type { ScryptOptions } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { TEST_PASSWORD_COST } from '../../test/support/service.ts';
import { PASSWORD_COST, passwordHasher, passwordsPlugin } from './password-hasher.ts';

/** The N of every scrypt computed, in order. */
const computed = vi.hoisted(() => [] as number[]);
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const scrypt = (...args: Parameters<typeof crypto.scrypt>) => {
    computed.push((args[3] as ScryptOptions).N!);
    return crypto.scrypt(...args);
  };
  return { ...crypto, scrypt };
});

const hasher = passwordHasher(TEST_PASSWORD_COST);
const PASSPHRASE = 'correct horse battery staple';

describe('password hasher', () => {
  it('hashes in a PHC string of its cost, with a new salt each time, and verifies the password alone', async () => {
    const hash = await hasher.hash(PASSPHRASE);
    expect(hash).toMatch(/^\$scrypt\$ln=4,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await hasher.hash(PASSPHRASE)).not.toBe(hash);
    expect(await hasher.verify(PASSPHRASE, hash)).toBe(true);
    expect(await hasher.verify(`${PASSPHRASE}!`, hash)).toBe(false);
    // NFKC: the full-width letters of another keyboard are the same password.
    expect(await hasher.verify('ｃｏｒｒｅｃｔ horse battery staple', hash)).toBe(true);
  });

  it('verifies a hash of another cost with that cost', async () => {
    const older = await passwordHasher({ ln: 2, r: 8, p: 1 }).hash(PASSPHRASE);
    computed.length = 0;
    expect(await hasher.verify(PASSPHRASE, older)).toBe(true);
    expect(computed).toEqual([2 ** 2]);
  });

  it('computes a hash of its own cost for an address without one, or an unreadable one, and says no', async () => {
    computed.length = 0;
    expect(await hasher.verify(PASSPHRASE, null)).toBe(false);
    expect(await hasher.verify(PASSPHRASE, '$2b$12$not-scrypt')).toBe(false);
    // The cost of new hashes, as a user's check would take: the time tells nothing of the address.
    expect(computed).toEqual([2 ** TEST_PASSWORD_COST.ln, 2 ** TEST_PASSWORD_COST.ln]);
  });

  it('asks for a rehash of a hash of a lower cost than its own, or an unreadable one', () => {
    const phc = (ln: number, r: number) => `$scrypt$ln=${ln},r=${r},p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g`;
    expect(hasher.needsRehash(phc(3, 8))).toBe(true);
    expect(hasher.needsRehash(phc(4, 4))).toBe(true);
    expect(hasher.needsRehash(phc(4, 8))).toBe(false);
    expect(hasher.needsRehash(phc(17, 8))).toBe(false);
    expect(hasher.needsRehash('$2b$12$not-scrypt')).toBe(true);
    expect(passwordHasher(PASSWORD_COST).needsRehash(phc(4, 8))).toBe(true);
    expect(passwordHasher(PASSWORD_COST).needsRehash(phc(17, 8))).toBe(false);
  });

  it.each([
    [{ ln: 0, r: 8, p: 1 }, 'passwordCost.ln must be an integer from 1 to 20, received 0.'],
    [{ ln: 4.5, r: 8, p: 1 }, 'passwordCost.ln must be an integer from 1 to 20, received 4.5.'],
    [{ ln: 4, r: 64, p: 1 }, 'passwordCost.r must be an integer from 1 to 32, received 64.'],
    [{ ln: 4, r: 8, p: 0 }, 'passwordCost.p must be an integer from 1 to 16, received 0.'],
  ])('refuses the cost %j', (cost, message) => {
    expect(() => passwordHasher(cost)).toThrow(new Error(message));
  });

  it('is the app’s `passwords`, of the service’s cost unless told another', async () => {
    const app = Fastify();
    await app.register(passwordsPlugin);
    expect(app.passwords.cost).toEqual({ ln: 17, r: 8, p: 1 });
    const tests = Fastify();
    await tests.register(passwordsPlugin, { cost: TEST_PASSWORD_COST });
    expect(tests.passwords.cost).toEqual(TEST_PASSWORD_COST);
  });
});
