/** Keys, session tokens and ids: shape, entropy and hashing. */
import { describe, expect, it } from 'vitest';
import { hashSecret, looksLikeApiKey, newApiKey, newSessionToken, parseSessionToken, sameHash } from './secrets.ts';

describe('secrets', () => {
  it('makes API keys with the loc_ prefix and 256 random bits', () => {
    const key = newApiKey();
    expect(key).toMatch(/^loc_[A-Za-z0-9_-]{43}$/);
    expect(looksLikeApiKey(key)).toBe(true);
    expect(newApiKey()).not.toBe(key);
    expect(looksLikeApiKey('loc_short')).toBe(false);
    expect(looksLikeApiKey(`sk_${key.slice(3)}`)).toBe(false);
  });

  it('makes session tokens <sid>.<secret> and parses them back', () => {
    const { sid, secret, token } = newSessionToken();
    expect(sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseSessionToken(token)).toEqual({ sid, secret });
    for (const bad of ['', 'nodot', '.secret', `${sid}.short`, `${sid}.${secret}!`, `a b.${secret}`]) {
      expect(parseSessionToken(bad)).toBeNull();
    }
  });

  it('hashes with SHA-256 and compares hashes', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sameHash(hashSecret('a'), hashSecret('a'))).toBe(true);
    expect(sameHash(hashSecret('a'), hashSecret('b'))).toBe(false);
    expect(sameHash(hashSecret('a'), 'abcd')).toBe(false);
    expect(sameHash('', '')).toBe(false);
  });
});
