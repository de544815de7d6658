/**
 * The page a one-time link opens, against the real server and a real SQLite database: the token is
 * traded on the first request for a cookie of the link page's own and the browser is sent to the
 * page without it, so that the token never reaches a referrer, a history entry or a shared screen;
 * the token is still used up only when the form is submitted. The browser's side (no request of the
 * page carries the token) is e2e/panel-attacks.spec.ts's.
 */
import { describe, expect, it } from 'vitest';
import { createInvitedUser } from '../auth/panel-links.ts';
import { PASSWORD, newPerson } from '../../test/support/panel-client.ts';
import { fileService } from '../../test/support/service.ts';
import { LINK_COOKIE, LINK_COOKIE_MAX_AGE_S } from './link-cookie.ts';

const service = fileService();

/** A new invited user's link token. */
async function invitation(): Promise<{ token: string; email: string }> {
  const person = newPerson('linked');
  const account = await service.account(person.account);
  const { link } = await createInvitedUser(service.app.store, { accountId: account.id, email: person.email }, service.clock.now(), service.config.publicUrl);
  return { token: new URL(link.url).searchParams.get('token')!, email: person.email };
}

const origin = () => new URL(service.config.publicUrl).origin;
const linkCookieOf = (response: { cookies: unknown[] }) => (response.cookies as Record<string, unknown>[]).find((cookie) => cookie.name === LINK_COOKIE);

/** The form's POST, as the link page sends it (`cookie`: the link cookie the browser holds). */
const submit = (token: string, password: string, cookie?: string) => service.request({
  method: 'POST',
  url: '/panel/link',
  payload: new URLSearchParams({ token, password }).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin: origin(), 'sec-fetch-site': 'same-origin', ...(cookie && { cookie: `${LINK_COOKIE}=${cookie}` }) },
});

describe('a one-time link', () => {
  it('trades its token for a short-lived cookie of the link page and leads to the page without it', async () => {
    const { token, email } = await invitation();
    const opened = await service.request({ method: 'GET', url: `/panel/link?token=${token}`, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/panel/link');
    expect(opened.body).not.toContain(token);
    // Lax, not Strict: a link is opened from a chat or a mail, another site, and Chromium does not send
    // a Strict cookie on the redirect of a navigation another site started.
    expect(linkCookieOf(opened)).toMatchObject({ value: token, httpOnly: true, secure: true, sameSite: 'Lax', path: '/panel/link', maxAge: LINK_COOKIE_MAX_AGE_S });

    const page = await service.request({ method: 'GET', url: '/panel/link', headers: { cookie: `${LINK_COOKIE}=${token}` } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(email);
    expect(page.body).toContain('Set password and join');
    // Not used up by being opened: the page opens again, and the form sets the password once.
    expect((await service.request({ method: 'GET', url: '/panel/link', headers: { cookie: `${LINK_COOKIE}=${token}` } })).statusCode).toBe(200);
    const used = await submit(token, PASSWORD, token);
    expect(used.statusCode).toBe(303);
    expect(linkCookieOf(used)).toMatchObject({ value: '', path: '/panel/link', maxAge: 0 });
    expect((await submit(token, 'another long passphrase here', token)).statusCode).toBe(410);
    expect((await service.request({ method: 'GET', url: '/panel/link', headers: { cookie: `${LINK_COOKIE}=${token}` } })).statusCode).toBe(410);
  });

  it('answers the link page without its cookie (expired, or another browser) with what to do', async () => {
    const bare = await service.request({ method: 'GET', url: '/panel/link' });
    expect(bare.statusCode).toBe(410);
    expect(bare.body).toContain('Open the link you were given again');
  });

  it('refuses a token that is no token at once, and sets no cookie', async () => {
    const refused = await service.request({ method: 'GET', url: `/panel/link?token=${'x'.repeat(500)}` });
    expect(refused.statusCode).toBe(410);
    expect(linkCookieOf(refused)).toBeUndefined();
  });

  it('every panel answer gives other pages the origin at most as referrer, never a path or a query', async () => {
    const { token } = await invitation();
    for (const url of ['/panel/sign-in', `/panel/link?token=${token}`, '/panel/assets/panel.css', '/panel/nothing-here']) {
      expect((await service.request({ method: 'GET', url })).headers['referrer-policy'], url).toBe('strict-origin');
    }
  });
});
