// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../src/auth/secrets.ts';
import { tokenCheck } from '../src/server/embed/frame-page.ts';
import { tokenMatches } from './session-token.ts';

afterEach(() => vi.unstubAllGlobals());

describe('the frame’s token check', () => {
  const secret = 'Qw3rty-_0123456789abcdefghijklmnopqrstuvwxyzAB';
  // What the service writes into the frame page, from the hash it stores.
  const check = tokenCheck(hashSecret(secret));

  it('matches the session’s own token, in the browser’s Web Crypto', async () => {
    expect(await tokenMatches(`sid_1.${secret}`, check)).toBe(true);
  });

  it('does not match another secret, a secret cut short, or the sid alone', async () => {
    for (const token of [`sid_1.${secret.slice(0, -1)}C`, `sid_1.${secret.slice(0, 20)}`, 'sid_1.', `sid_1.${hashSecret(secret)}`]) {
      expect(await tokenMatches(token, check), token).toBe(false);
    }
  });

  it('cannot tell without Web Crypto (a page not in a secure context): null', async () => {
    vi.stubGlobal('crypto', {});
    expect(await tokenMatches(`sid_1.${secret}`, check)).toBeNull();
  });
});
