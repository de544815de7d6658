/**
 * Signing in to the partner panel against the real server and a real SQLite database: invitations and
 * recovery links, password sign-in and its throttle, sessions and their cookie, CSRF, re-authentication,
 * the panel's isolating headers, the hashing gate and the rehash at sign-in.
 *
 * One service for the file, each test with people of its own (newPerson, newUser), hashing at the
 * tests' low cost; a test that moves the clock, spends a throttle, fills the hashing gate or closes
 * the app has a service of its own (freshService), and the gate and the rehash are tested at the
 * service's cost.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LINK_LIFETIME_MS, createInvitedUser, issueLink } from '../auth/panel-links.ts';
import { PASSWORD, csrfOf, newPerson, newUser, panelClient, signedUpUser } from '../../test/support/panel-client.ts';
import { TEST_PASSWORD_COST, fileService, freshService, testService, type TestService } from '../../test/support/service.ts';
import { HASHES_AT_ONCE, HASHES_WAITING } from './hash-gate.ts';
import { PASSWORD_COST, passwordHasher } from './password-hasher.ts';
import { SIGN_IN_ATTEMPTS_PER_EMAIL, SIGN_IN_ATTEMPTS_PER_IP } from './throttle.ts';
import { REAUTH_WINDOW_MS, SESSION_LIFETIME_MS } from './panel-sessions.ts';

const file = fileService();
/** The test's service: the file's, unless the test makes its own. */
let service: TestService;
beforeEach(() => {
  service = file;
});

const keysPath = (accountId: string) => `/panel/accounts/${accountId}/keys`;

describe('invitation and sign-in', () => {
  it('an invitation link sets a password, signs the user in, and works once', async () => {
    const ada = newPerson('ada');
    const account = await service.account(ada.account);
    const client = await signedUpUser(service, ada.account, ada.email.replace('ada', 'Ada').replace('example', 'Example'));
    expect(client.page).toContain('<h1>API keys</h1>');
    expect(client.page).toContain(ada.email);
    const user = await service.app.store.panel.findUserByEmail(ada.email);
    expect(user?.activatedAt).toBe(service.clock.now());
    // Of the app's cost: here the tests' (TEST_PASSWORD_COST); the service's is tested below.
    expect(user?.passwordHash).toMatch(/^\$scrypt\$ln=4,r=8,p=1\$/);
    expect(user?.accountId).toBe(account.id);

    const link = await issueLink(service.app.store, user!, 'invite', service.clock.now(), service.config.publicUrl);
    const token = new URL(link.url).searchParams.get('token')!;
    const other = panelClient(service);
    expect((await other.get(`/panel/link?token=${token}`)).statusCode).toBe(303);
    expect((await other.get('/panel/link')).statusCode).toBe(200);
    expect((await other.submit('/panel/link', { token, password: 'another long passphrase here' })).statusCode).toBe(303);
    const again = await panelClient(service).submit('/panel/link', { token, password: 'a third long passphrase' });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This link has been used');
  });

  it('refuses a short password on the link page, saying the rule, and keeps the link open', async () => {
    const bo = newPerson('bo');
    const account = await service.account(bo.account);
    const { link } = await createInvitedUser(service.app.store, { accountId: account.id, email: bo.email }, service.clock.now(), service.config.publicUrl);
    const token = new URL(link.url).searchParams.get('token')!;
    const client = panelClient(service);
    await client.get(`/panel/link?token=${token}`);
    const refused = await client.submit('/panel/link', { token, password: 'short' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('at least 15 characters');
    expect(refused.body).toContain('aria-invalid="true"');
    expect((await client.submit('/panel/link', { token, password: PASSWORD })).statusCode).toBe(303);
  });

  it('an expired link is refused', async () => {
    service = await freshService();
    const account = await service.account('acme');
    const { link } = await createInvitedUser(service.app.store, { accountId: account.id, email: 'cy@example.com' }, service.clock.now(), service.config.publicUrl);
    service.clock.advance(LINK_LIFETIME_MS.invite + 1);
    const client = panelClient(service);
    await client.get(new URL(link.url).pathname + new URL(link.url).search);
    expect((await client.get('/panel/link')).statusCode).toBe(410);
  });

  it('signs in with the right password only, and says the same for an unknown address', async () => {
    const { email, account } = await newUser(service, 'ada');
    const client = panelClient(service);
    await client.get('/panel/sign-in');
    const wrong = await client.submit('/panel/sign-in', { email, password: 'not the password at all' });
    const unknown = await client.submit('/panel/sign-in', { email: newPerson('nobody').email, password: 'not the password at all' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toContain('The e-mail address or the password is wrong.');
    expect(unknown.body).toContain('The e-mail address or the password is wrong.');
    expect(client.cookie).toBeUndefined();
    const right = await client.submit('/panel/sign-in', { email: `${email.toUpperCase()} `, password: PASSWORD });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe(keysPath(account.id));
    expect(client.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a page opened signed out leads to sign-in, then back to that page; never to another site', async () => {
    const { email } = await newUser(service, 'ada');
    const client = panelClient(service);
    const bounced = await client.get('/panel/security');
    expect(bounced.headers.location).toBe('/panel/sign-in?next=%2Fpanel%2Fsecurity');
    await client.get(bounced.headers.location as string);
    expect(client.page).toContain('name="next" value="/panel/security"');
    expect((await client.submit('/panel/sign-in', { email, password: PASSWORD, next: '/panel/security' })).headers.location).toBe('/panel/security');
    const elsewhere = await panelClient(service).submit('/panel/sign-in', { email, password: PASSWORD, next: 'https://evil.example/panel/' });
    expect(elsewhere.headers.location).toMatch(/^\/panel\/accounts\//);
  });

  it('a next page that cannot go in a Location header leads home instead of failing; a percent-encoded one is kept', async () => {
    const { email, client } = await newUser(service, 'ada');
    const home = (await client.get('/panel')).headers.location as string;
    for (const next of ['/panel/Ā', '/panel/a b', '/panel/\u0000']) {
      const signedInAlready = await client.get(`/panel/sign-in?next=${encodeURIComponent(next)}`);
      expect(signedInAlready.statusCode, next).toBe(303);
      expect(signedInAlready.headers.location, next).toBe(home);
      const reauthenticated = await client.submit('/panel/reauthenticate', { next, password: PASSWORD });
      expect(reauthenticated.headers.location, next).toBe(home);
      const signIn = await panelClient(service).submit('/panel/sign-in', { email, password: PASSWORD, next });
      expect(signIn.statusCode, next).toBe(303);
      expect(signIn.headers.location, next).toBe(home);
    }
    expect((await client.get(`/panel/sign-in?next=${encodeURIComponent('/panel/%C4%80?x=1')}`)).headers.location).toBe('/panel/%C4%80?x=1');
  });

  describe('at the service’s password cost', () => {
    // A service of the test's own, whose hashes take as long as they do in production and whose gate
    // is empty at first; made before the test, whose time is then the hashes' alone.
    beforeEach(async () => {
      const own = await testService({}, { passwordCost: PASSWORD_COST });
      service = own;
      return () => own.close();
    });

    it('hashes a few passwords at a time: a rush beyond the line waiting is answered 503 with Retry-After, never a 500', async () => {
      const rush = HASHES_AT_ONCE + HASHES_WAITING + 3;
      const clients = await Promise.all(Array.from({ length: rush }, async () => {
        const client = panelClient(service);
        await client.get('/panel/sign-in');
        return client;
      }));
      // Other addresses each time, so that no address's throttle is what refuses.
      const answers = await Promise.all(clients.map((client, i) => client.submit('/panel/sign-in', { email: `rush-${i}@example.com`, password: 'not the password at all' })));
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(HASHES_AT_ONCE + HASHES_WAITING);
      const busy = answers.filter((answer) => answer.statusCode === 503);
      expect(busy).toHaveLength(3);
      for (const answer of busy) {
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.body).toContain('Too many sign-ins at once');
      }
    });

    it('replaces a hash of a lower cost at the next sign-in by one of the configured cost, the service’s', async () => {
      // A user whose password was hashed when the cost was lower.
      const email = 'ada@example.com';
      const { user } = await createInvitedUser(service.app.store, { accountId: (await service.account('acme')).id, email }, service.clock.now(), service.config.publicUrl);
      await service.app.store.panel.setPassword(user.id, await passwordHasher(TEST_PASSWORD_COST).hash(PASSWORD), service.clock.now());
      const signIn = () => panelClient(service).submit('/panel/sign-in', { email, password: PASSWORD });
      expect((await signIn()).statusCode).toBe(303);
      const rehashed = (await service.app.store.panel.findUserByEmail(email))!.passwordHash;
      expect(rehashed).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
      // The new hash is the same password's, and of the configured cost it is kept.
      expect((await signIn()).statusCode).toBe(303);
      expect((await service.app.store.panel.findUserByEmail(email))!.passwordHash).toBe(rehashed);
    });
  });

  it('throttles password attempts per address before hashing, with Retry-After, and a right password is refused too', async () => {
    service = await freshService();
    await signedUpUser(service, 'acme', 'ada@example.com');
    const client = panelClient(service);
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_EMAIL; i++) {
      const guess = await client.submit('/panel/sign-in', { email: 'ada@example.com', password: `guess number ${i} of many` });
      expect(guess.statusCode).toBe(401);
      expect(guess.body).toContain('The e-mail address or the password is wrong.');
    }
    const refused = await client.submit('/panel/sign-in', { email: 'ada@example.com', password: PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many sign-in attempts');
    expect(refused.body).toContain('<h1>Sign in</h1>');
    expect(client.cookie).toBeUndefined();
    // Another address is not locked by it.
    expect((await client.submit('/panel/sign-in', { email: 'other@example.com', password: PASSWORD })).statusCode).toBe(401);
    service.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await client.submit('/panel/sign-in', { email: 'ada@example.com', password: PASSWORD })).statusCode).toBe(303);
  });
});

describe('the throttle across client addresses', () => {
  /** A password sign-in from `remoteAddress`, as a browser's form sends it. */
  const signIn = (email: string, remoteAddress: string) => service.request({
    method: 'POST',
    url: '/panel/sign-in',
    remoteAddress,
    payload: new URLSearchParams({ email, password: 'not the password at all' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(service.config.publicUrl).origin, 'sec-fetch-site': 'same-origin' },
  });

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    service = await freshService();
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_IP; i++) expect((await signIn(`guess-${i}@example.com`, `2001:db8:5:6::${i + 1}`)).statusCode).toBe(401);
    const refused = await signIn('another@example.com', '2001:db8:5:6:aaaa:bbbb:cccc:dddd');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('Too many sign-in attempts');
    expect((await signIn('another@example.com', '2001:db8:5:7::1')).statusCode).toBe(401);
  });

  it('refuses every password sign-in once the service’s budget is spent, saying passkeys still work, and passkeys do', async () => {
    service = await freshService({ LOC_PANEL_SIGN_IN_BUDGET: '5' });
    for (let i = 0; i < 5; i++) expect((await signIn(`spread-${i}@example.com`, `192.0.2.${i + 1}`)).statusCode).toBe(401);
    const refused = await signIn('someone@example.com', '198.51.100.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('sign in with a passkey');
    expect(refused.body).toContain('Too many password sign-ins on this service');
    const passkey = await service.request({ method: 'POST', url: '/panel/passkeys/sign-in/options', remoteAddress: '198.51.100.1', payload: {}, headers: { origin: new URL(service.config.publicUrl).origin, 'sec-fetch-site': 'same-origin' } });
    expect(passkey.statusCode).toBe(200);
  });
});

describe('the session and its cookie', () => {
  it('is HttpOnly, SameSite=Strict, scoped to /panel and Secure on an https public URL', async () => {
    const { client, email } = await newUser(service, 'ada');
    await client.get('/panel/sign-in');
    const response = await client.submit('/panel/sign-in', { email, password: PASSWORD });
    const cookie = (response.cookies as Record<string, unknown>[]).find((c) => c.name === 'loc_panel')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/panel', secure: true, maxAge: SESSION_LIFETIME_MS / 1000 });
  });

  it('a token planted before sign-in is replaced at sign-in and never signs anyone in (session fixation)', async () => {
    const { email } = await newUser(service, 'ada');
    const planted = 'A'.repeat(43);
    const victim = panelClient(service);
    victim.cookie = planted;
    await victim.get('/panel/sign-in');
    expect((await victim.submit('/panel/sign-in', { email, password: PASSWORD })).statusCode).toBe(303);
    expect(victim.cookie).not.toBe(planted);
    const attacker = panelClient(service);
    attacker.cookie = planted;
    expect((await attacker.get('/panel/security')).headers.location).toBe('/panel/sign-in?next=%2Fpanel%2Fsecurity');
  });

  it('ends after its lifetime, at sign-out, and everywhere when asked', async () => {
    service = await freshService();
    const first = await signedUpUser(service, 'acme', 'ada@example.com');
    const second = panelClient(service);
    await second.get('/panel/sign-in');
    await second.submit('/panel/sign-in', { email: 'ada@example.com', password: PASSWORD });
    expect((await second.get('/panel/security')).statusCode).toBe(200);
    expect(second.page.match(/<tr><td>/g)).toHaveLength(2);

    await first.get('/panel/security');
    expect((await first.submit('/panel/security/sign-out-everywhere')).statusCode).toBe(303);
    expect((await second.get('/panel/security')).statusCode).toBe(303);
    expect((await first.get('/panel/security')).statusCode).toBe(200);

    const signedOut = await first.submit('/panel/sign-out');
    expect(signedOut.headers.location).toBe('/panel/sign-in?signed_out=1');
    expect(first.cookie).toBeUndefined();

    const third = panelClient(service);
    await third.get('/panel/sign-in');
    await third.submit('/panel/sign-in', { email: 'ada@example.com', password: PASSWORD });
    service.clock.advance(SESSION_LIFETIME_MS);
    expect((await third.get('/panel/security')).headers.location).toBe('/panel/sign-in?next=%2Fpanel%2Fsecurity');
  });

  it('a recovery link sets a new password and signs the user out everywhere else', async () => {
    const { client: old, email } = await newUser(service, 'ada');
    const user = (await service.app.store.panel.findUserByEmail(email))!;
    const link = await issueLink(service.app.store, user, 'recovery', service.clock.now(), service.config.publicUrl);
    const token = new URL(link.url).searchParams.get('token')!;
    const fresh = panelClient(service);
    await fresh.get(`/panel/link?token=${token}`);
    expect((await fresh.get('/panel/link')).body).toContain('Choose a new password');
    expect((await fresh.submit('/panel/link', { token, password: 'a brand new passphrase now' })).statusCode).toBe(303);
    expect((await old.get('/panel/security')).statusCode).toBe(303);
    expect((await fresh.get('/panel/security')).statusCode).toBe(200);
    const signIn = panelClient(service);
    expect((await signIn.submit('/panel/sign-in', { email, password: PASSWORD })).statusCode).toBe(401);
    expect((await signIn.submit('/panel/sign-in', { email, password: 'a brand new passphrase now' })).statusCode).toBe(303);
  });
});

describe('cross-site requests and framing', () => {
  it('refuses a change without the CSRF token, with another session’s token, or from another origin', async () => {
    const { client: ada } = await newUser(service, 'ada');
    const { client: bo, email: boEmail } = await newUser(service, 'bo');
    await ada.get('/panel/security');
    expect((await ada.submit('/panel/security/sign-out-everywhere', { csrf: '' })).statusCode).toBe(403);
    expect((await ada.submit('/panel/security/sign-out-everywhere', { csrf: csrfOf(bo.page) })).statusCode).toBe(403);
    const crossSite = await ada.submit('/panel/security/sign-out-everywhere', {}, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).toContain('did not come from this panel');
    // Sign-in itself cannot be forged from another site either (login CSRF).
    expect((await panelClient(service).submit('/panel/sign-in', { email: boEmail, password: PASSWORD }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await ada.submit('/panel/security/sign-out-everywhere')).statusCode).toBe(303);
  });

  it('a page fetched by script is shown signed in only when the script holds the CSRF token', async () => {
    const { client } = await newUser(service, 'ada');
    const cookie = `loc_panel=${client.cookie}`;
    const fetched = (headers: Record<string, string>) => service.request({ method: 'GET', url: '/panel/security', headers: { cookie, 'sec-fetch-site': 'same-origin', ...headers } });
    const byScript = await fetched({ 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });
    expect(byScript.statusCode).toBe(303);
    expect(byScript.headers.location).toBe('/panel/sign-in?next=%2Fpanel%2Fsecurity');
    expect((await fetched({ 'sec-fetch-mode': 'same-origin', 'x-csrf-token': 'forged' })).statusCode).toBe(303);
    expect((await fetched({ 'sec-fetch-mode': 'cors', 'x-csrf-token': csrfOf(client.page) })).statusCode).toBe(200);
    expect((await fetched({ 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).statusCode).toBe(200);
  });

  it('every panel answer forbids framing, isolates its browsing context and is never cached', async () => {
    const { client } = await newUser(service, 'ada');
    for (const path of ['/panel/sign-in', '/panel/security', '/panel/nothing-here', '/panel/assets/panel.css']) {
      const response = await client.get(path);
      expect(response.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options'], path).toBe('DENY');
      expect(response.headers['cross-origin-opener-policy'], path).toBe('same-origin');
      expect(response.headers['cross-origin-resource-policy'], path).toBe('same-origin');
    }
    expect((await client.get('/panel/security')).headers['cache-control']).toBe('no-store');
    expect((await client.get('/panel/nothing-here')).statusCode).toBe(404);
    // The API is untouched: its routes still refuse a form body.
    const form = await service.request({ method: 'POST', url: '/v1/locations', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).not.toBe(200);
    expect(form.headers['x-frame-options']).toBeUndefined();
  });
});

describe('re-authentication', () => {
  it('a change more than REAUTH_WINDOW_MS after sign-in sends the user to confirm, then back', async () => {
    service = await freshService();
    const client = await signedUpUser(service, 'acme', 'ada@example.com');
    const account = (await service.app.store.findAccount('acme'))!;
    service.clock.advance(REAUTH_WINDOW_MS);
    await client.get(`${keysPath(account.id)}/new`);
    const stale = await client.submit(keysPath(account.id), { label: 'shop', origins: 'https://shop.example' });
    expect(stale.statusCode).toBe(303);
    expect(stale.headers.location).toBe(`/panel/reauthenticate?next=${encodeURIComponent(`${keysPath(account.id)}/new`)}`);
    expect(await service.app.store.listKeys(account.id)).toEqual([]);
    await client.get(stale.headers.location as string);
    expect((await client.submit('/panel/reauthenticate', { next: `${keysPath(account.id)}/new`, password: 'wrong password, surely' })).statusCode).toBe(401);
    const confirmed = await client.submit('/panel/reauthenticate', { next: `${keysPath(account.id)}/new`, password: PASSWORD });
    expect(confirmed.headers.location).toBe(`${keysPath(account.id)}/new`);
    await client.get(`${keysPath(account.id)}/new`);
    expect((await client.submit(keysPath(account.id), { label: 'shop', origins: 'https://shop.example' })).statusCode).toBe(201);
  });

  it('never sends the user anywhere but the panel afterwards', async () => {
    const { client } = await newUser(service, 'ada');
    await client.get('/panel/reauthenticate?next=https://evil.example/');
    const response = await client.submit('/panel/reauthenticate', { next: '//evil.example/panel/', password: PASSWORD });
    expect(response.headers.location).toMatch(/^\/panel\/accounts\//);
  });
});

describe('secrets at rest', () => {
  it('the database holds neither the password nor the session token in clear', async () => {
    service = await freshService();
    const client = await signedUpUser(service, 'acme', 'ada@example.com');
    await service.app.close();
    const files = readdirSync(service.dataDir).filter((name) => statSync(join(service.dataDir, name)).isFile());
    const bytes = files.map((name) => readFileSync(join(service.dataDir, name)).toString('latin1')).join('');
    expect(bytes).toContain('ada@example.com');
    expect(bytes).not.toContain(PASSWORD);
    expect(bytes).not.toContain(client.cookie);
  });
});
