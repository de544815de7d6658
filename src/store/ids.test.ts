/** Record ids: their prefix and shape, and that two are never the same. */
import { describe, expect, it } from 'vitest';
import { newId, randomId } from './ids.ts';

describe('ids', () => {
  it('are the kind, an underscore and 22 base64url characters; never the same twice', () => {
    expect(newId('key')).toMatch(/^key_[A-Za-z0-9_-]{22}$/);
    expect(newId('acct')).toMatch(/^acct_[A-Za-z0-9_-]{22}$/);
    expect(randomId()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(Array.from({ length: 1000 }, () => randomId())).size).toBe(1000);
  });
});
