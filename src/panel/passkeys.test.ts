/**
 * Passkeys end to end through the panel's JSON endpoints, on a real SQLite store, with a software
 * authenticator (test/support/authenticator.ts) in the browser's place: joining by link, signing in,
 * re-authenticating and adding a passkey — and every refusal: a challenge answered twice or too late,
 * another origin, another user's passkey, an unknown one, a request without the CSRF header, a
 * malformed answer, and more sign-in challenges than one address may ask for.
 *
 * One service for the file, each test with users of its own (newPerson); a test that moves the clock or
 * spends the client address's challenges has a service of its own.
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { SoftwareAuthenticator, type Tampering } from '../../test/support/authenticator.ts';
import { newPerson } from '../../test/support/panel-client.ts';
import { fileService, freshService, json, type TestService } from '../../test/support/service.ts';
import { hashSecret } from '../auth/secrets.ts';
import { createInvitedUser, issueLink } from '../auth/panel-links.ts';
import { CHALLENGE_LIFETIME_MS, passkeyName } from './passkeys.ts';
import { LINK_COOKIE } from './link-cookie.ts';
import { CSRF_HEADER, PANEL_COOKIE, REAUTH_WINDOW_MS, csrfToken } from './panel-sessions.ts';
import { PASSKEY_CHALLENGES_PER_USER, SIGN_IN_ATTEMPTS_PER_IP, SIGN_IN_WINDOW_MS } from './throttle.ts';
import type { User } from '../store/panel-store.ts';

const ORIGIN = 'https://loc.example';
const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

const file = fileService();
/** The test's service, the file's unless the test makes its own, and the account its users join. */
let service: TestService;
let accountId: string;

async function use(on: TestService): Promise<void> {
  service = on;
  accountId = (await on.account('acme')).id;
}
beforeEach(() => use(file));
/** A service of the test's own. */
const ownService = async (): Promise<void> => use(await freshService());

/** A signed-in browser: its session cookie. */
interface Browser {
  token: string;
}

/** A JSON POST from the panel's page script: its origin, the session cookie and CSRF header when signed in. */
function post(path: string, body: unknown, browser?: Browser, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return service.request({
    method: 'POST',
    url: `/panel/passkeys/${path}`,
    headers: {
      origin: ORIGIN,
      accept: 'application/json',
      'user-agent': CHROME_ON_LINUX,
      ...(browser && { [CSRF_HEADER]: csrfToken(browser.token) }),
      ...headers,
    },
    cookies: browser ? { [PANEL_COOKIE]: browser.token } : {},
    payload: body as Record<string, unknown>,
  });
}

function sessionOf(response: LightMyRequestResponse): Browser {
  const cookie = response.cookies.find((candidate) => candidate.name === PANEL_COOKIE);
  if (cookie === undefined) throw new Error(`no session cookie in the answer ${response.statusCode} ${response.body}`);
  return { token: cookie.value };
}

const tokenOf = (url: string): string => new URL(url).searchParams.get('token')!;

/** The options of a registration (`link/options`, `add/options`) and of an authentication. */
const creationOptions = async (path: string, body: unknown, browser?: Browser) => json<PublicKeyCredentialCreationOptionsJSON>(await post(path, body, browser));
const requestOptions = async (path: string, browser?: Browser) => json<PublicKeyCredentialRequestOptionsJSON>(await post(path, {}, browser));

/** Invites a new person (newPerson's `label`) and joins through the link with a new passkey on `authenticator`: the signed-in browser. */
async function join(label: string, authenticator: SoftwareAuthenticator): Promise<{ browser: Browser; user: User; token: string; response: LightMyRequestResponse }> {
  const { user, link } = await createInvitedUser(service.app.store, { accountId, email: newPerson(label).email }, service.clock.now(), ORIGIN);
  const token = tokenOf(link.url);
  const response = await post('link', { token, credential: authenticator.register(await creationOptions('link/options', { token })) });
  return { browser: sessionOf(response), user, token, response };
}

async function signIn(authenticator: SoftwareAuthenticator, tampering: Tampering = {}): Promise<LightMyRequestResponse> {
  return post('sign-in', { credential: authenticator.authenticate(await requestOptions('sign-in/options'), tampering) });
}

describe('joining by a link with a passkey', () => {
  it('creates the passkey, activates the user, signs them in and uses the link up', async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { user, response, browser, token } = await join('ada', authenticator);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ redirect: `/panel/accounts/${accountId}/keys` });
    // The link page's cookie, which kept the token, is forgotten with the link.
    expect(response.cookies.find((cookie) => cookie.name === LINK_COOKIE)).toMatchObject({ value: '', path: '/panel/link', maxAge: 0 });
    expect((await service.app.store.panel.getUser(user.id))!.activatedAt).toBe(service.clock.now());
    const [passkey] = await service.app.store.panel.listPasskeys(user.id);
    expect(passkey).toMatchObject({ id: authenticator.credentials[0].id, counter: 0, transports: ['internal'], name: 'Passkey added 2030-01-01, Chrome on Linux' });
    const page = await service.request({ method: 'GET', url: '/panel/security', cookies: { [PANEL_COOKIE]: browser.token } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Passkey added 2030-01-01, Chrome on Linux');

    const again = await post('link/options', { token });
    expect(again.statusCode).toBe(410);
    expect(json(again).code).toBe('link_invalid');
  });

  it('refuses the link once used: a second answer neither adds a passkey nor signs in', async () => {
    const { user, link } = await createInvitedUser(service.app.store, { accountId, email: newPerson('ada').email }, service.clock.now(), ORIGIN);
    const token = tokenOf(link.url);
    const [first, second] = [new SoftwareAuthenticator(ORIGIN), new SoftwareAuthenticator(ORIGIN)];
    const firstOptions = await creationOptions('link/options', { token });
    const secondOptions = await creationOptions('link/options', { token });
    expect((await post('link', { token, credential: first.register(firstOptions) })).statusCode).toBe(200);
    const refused = await post('link', { token, credential: second.register(secondOptions) });
    expect(refused.statusCode).toBe(410);
    expect(json(refused).code).toBe('link_invalid');
    expect(refused.cookies.some((cookie) => cookie.name === PANEL_COOKIE)).toBe(false);
    expect(await service.app.store.panel.listPasskeys(user.id)).toHaveLength(1);
  });

  it('on a recovery link, signs out every browser the user had', async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { user, browser: before } = await join('ada', authenticator);
    const recovery = await issueLink(service.app.store, user, 'recovery', service.clock.now(), ORIGIN);
    const token = tokenOf(recovery.url);
    const replacement = new SoftwareAuthenticator(ORIGIN);
    const response = await post('link', { token, credential: replacement.register(await creationOptions('link/options', { token })) });
    expect(response.statusCode).toBe(200);
    const old = await service.request({ method: 'GET', url: '/panel/security', cookies: { [PANEL_COOKIE]: before.token } });
    expect(old.statusCode).toBe(303);
    expect(old.headers.location).toBe('/panel/sign-in?next=%2Fpanel%2Fsecurity');
    expect(await service.app.store.panel.listPasskeys(user.id)).toHaveLength(2);
  });

  it('refuses a registration from another origin', async () => {
    const { link } = await createInvitedUser(service.app.store, { accountId, email: newPerson('ada').email }, service.clock.now(), ORIGIN);
    const token = tokenOf(link.url);
    const credential = new SoftwareAuthenticator(ORIGIN).register(await creationOptions('link/options', { token }), { origin: 'https://evil.example' });
    const response = await post('link', { token, credential });
    expect(response.statusCode).toBe(422);
    expect(json(response)).toMatchObject({ code: 'validation_error', message: expect.stringContaining('https://evil.example') });
    // The link stays open: the user can try again.
    expect((await post('link/options', { token })).statusCode).toBe(200);
  });

  it('refuses an answer to another user’s registration options', async () => {
    const ada = await createInvitedUser(service.app.store, { accountId, email: newPerson('ada').email }, service.clock.now(), ORIGIN);
    const bob = await createInvitedUser(service.app.store, { accountId, email: newPerson('bob').email }, service.clock.now(), ORIGIN);
    const adaOptions = await creationOptions('link/options', { token: tokenOf(ada.link.url) });
    const response = await post('link', { token: tokenOf(bob.link.url), credential: new SoftwareAuthenticator(ORIGIN).register(adaOptions) });
    expect(response.statusCode).toBe(422);
    expect(json(response).message).toBe('This passkey request was made for something else; try again.');
  });
});

describe('signing in with a passkey', () => {
  it('signs the passkey’s user in without an e-mail address and records the passkey’s use', async () => {
    await ownService();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { user } = await join('ada', authenticator);
    service.clock.advance(60_000);
    const options = await requestOptions('sign-in/options');
    expect(options).toMatchObject({ rpId: 'loc.example', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = await post('sign-in', { credential: authenticator.authenticate(options), next: '/panel/security' });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ redirect: '/panel/security' });
    const session = await service.app.store.panel.getPanelSession(hashSecret(sessionOf(response).token), service.clock.now());
    expect(session?.user.id).toBe(user.id);
    expect(await service.app.store.panel.findPasskey(authenticator.credentials[0].id)).toMatchObject({ counter: 1, lastUsedAt: service.clock.now() });
  });

  it('refuses a challenge answered twice', async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await join('ada', authenticator);
    const credential = authenticator.authenticate(await requestOptions('sign-in/options'));
    expect((await post('sign-in', { credential })).statusCode).toBe(200);
    const replay = await post('sign-in', { credential });
    expect(replay.statusCode).toBe(401);
    expect(json(replay)).toMatchObject({ code: 'sign_in_failed', message: 'This passkey request has expired or was already answered; try again.' });
  });

  it('refuses a challenge answered after five minutes', async () => {
    await ownService();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await join('ada', authenticator);
    const credential = authenticator.authenticate(await requestOptions('sign-in/options'));
    service.clock.advance(CHALLENGE_LIFETIME_MS + 1);
    const late = await post('sign-in', { credential });
    expect(late.statusCode).toBe(401);
    expect(json(late).message).toBe('This passkey request has expired or was already answered; try again.');
  });

  it('refuses an answer from another origin', async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await join('ada', authenticator);
    const response = await signIn(authenticator, { origin: 'https://loc.example.evil.example' });
    expect(response.statusCode).toBe(401);
    expect(json(response)).toMatchObject({ code: 'sign_in_failed', message: expect.stringContaining('origin "https://loc.example.evil.example"') });
    expect(response.cookies.some((cookie) => cookie.name === PANEL_COOKIE)).toBe(false);
  });

  it('refuses a passkey the panel does not know', async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    // Made for the panel, never sent to it.
    const { link } = await createInvitedUser(service.app.store, { accountId, email: newPerson('ada').email }, service.clock.now(), ORIGIN);
    authenticator.register(await creationOptions('link/options', { token: tokenOf(link.url) }));
    const response = await signIn(authenticator);
    expect(response.statusCode).toBe(401);
    expect(json(response)).toMatchObject({ code: 'sign_in_failed', message: expect.stringContaining('not registered with the panel') });
  });

  it('refuses an answer that is not a credential, naming the field, before any challenge is taken', async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await join('ada', authenticator);
    const credential = authenticator.authenticate(await requestOptions('sign-in/options'));
    const malformed = await post('sign-in', { credential: { ...credential, type: 'password' } });
    expect(malformed.statusCode).toBe(422);
    expect(json(malformed)).toMatchObject({ code: 'validation_error', field: 'credential.type' });
    expect((await post('sign-in', { credential, remember: true })).statusCode).toBe(422);
    expect((await post('sign-in', { credential })).statusCode).toBe(200);
  });

  it('gives a client address as many sign-in challenges per window as password attempts, then says when to retry', async () => {
    await ownService();
    for (let attempt = 0; attempt < SIGN_IN_ATTEMPTS_PER_IP; attempt += 1) expect((await post('sign-in/options', {})).statusCode).toBe(200);
    const refused = await post('sign-in/options', {});
    expect(refused.statusCode).toBe(429);
    expect(json(refused).code).toBe('sign_in_throttled');
    expect(Number(refused.headers['retry-after'])).toBe((SIGN_IN_WINDOW_MS - (service.clock.now() % SIGN_IN_WINDOW_MS)) / 1000);
    service.clock.advance(SIGN_IN_WINDOW_MS);
    expect((await post('sign-in/options', {})).statusCode).toBe(200);
  });

  it('refuses a request from another site before any ceremony', async () => {
    const response = await post('sign-in/options', {}, undefined, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(json(response).code).toBe('csrf_rejected');
  });
});

describe('adding a passkey and re-authenticating with one', () => {
  it('gives a signed-in user so many challenges per window, adding and confirming together, then says when to retry; another user has their own', async () => {
    await ownService();
    const { browser } = await join('ada', new SoftwareAuthenticator(ORIGIN));
    // Joining with a passkey was the first.
    for (let i = 1; i < PASSKEY_CHALLENGES_PER_USER; i++) expect((await post(i % 2 === 0 ? 'add/options' : 'reauthenticate/options', {}, browser)).statusCode).toBe(200);
    for (const path of ['add/options', 'reauthenticate/options']) {
      const refused = await post(path, {}, browser);
      expect(refused.statusCode, path).toBe(429);
      expect(json(refused).code).toBe('sign_in_throttled');
      expect(json(refused).message).toContain('Too many passkey requests');
      expect(Number(refused.headers['retry-after'])).toBe((SIGN_IN_WINDOW_MS - (service.clock.now() % SIGN_IN_WINDOW_MS)) / 1000);
    }
    const { browser: other } = await join('bo', new SoftwareAuthenticator(ORIGIN));
    expect((await post('add/options', {}, other)).statusCode).toBe(200);
    service.clock.advance(SIGN_IN_WINDOW_MS);
    // The window is over, and so is the sign-in's recent authentication: confirming is what is left.
    expect((await post('reauthenticate/options', {}, browser)).statusCode).toBe(200);
  });

  it('gives a one-time link’s user so many registration challenges per window', async () => {
    await ownService();
    const { link } = await createInvitedUser(service.app.store, { accountId, email: newPerson('cy').email }, service.clock.now(), ORIGIN);
    const token = tokenOf(link.url);
    for (let i = 0; i < PASSKEY_CHALLENGES_PER_USER; i++) expect((await post('link/options', { token })).statusCode).toBe(200);
    expect((await post('link/options', { token })).statusCode).toBe(429);
  });

  it('refuses a signed-in request without the CSRF header', async () => {
    const { browser } = await join('ada', new SoftwareAuthenticator(ORIGIN));
    for (const path of ['add/options', 'reauthenticate/options']) {
      const response = await post(path, {}, browser, { [CSRF_HEADER]: '' });
      expect(response.statusCode).toBe(403);
      expect(json(response).code).toBe('csrf_rejected');
    }
  });

  it('asks for a recent authentication, in JSON, then adds the passkey once the user confirms with one', async () => {
    await ownService();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { browser, user } = await join('ada', authenticator);
    service.clock.advance(REAUTH_WINDOW_MS);
    const stale = await post('add/options', {}, browser);
    expect(stale.statusCode).toBe(401);
    expect(json(stale).code).toBe('reauthentication_required');

    const reauthOptions = await requestOptions('reauthenticate/options', browser);
    expect(reauthOptions.allowCredentials).toEqual([{ id: authenticator.credentials[0].id, type: 'public-key', transports: ['internal'] }]);
    const confirmed = await post('reauthenticate', { credential: authenticator.authenticate(reauthOptions), next: '/panel/security#passkeys' }, browser);
    expect(confirmed.statusCode).toBe(200);
    expect(json(confirmed)).toEqual({ redirect: '/panel/security#passkeys' });

    const addOptions = await creationOptions('add/options', {}, browser);
    expect(addOptions.excludeCredentials).toEqual([{ id: authenticator.credentials[0].id, type: 'public-key', transports: ['internal'] }]);
    expect(addOptions.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const added = await post('add', { credential: authenticator.register(addOptions) }, browser);
    expect(added.statusCode).toBe(200);
    expect(json(added)).toEqual({ redirect: '/panel/security?done=passkey_added#passkeys' });
    expect(await service.app.store.panel.listPasskeys(user.id)).toHaveLength(2);
  });

  it('refuses another user’s passkey for a re-authentication', async () => {
    await ownService();
    const adaKeys = new SoftwareAuthenticator(ORIGIN);
    const bobKeys = new SoftwareAuthenticator(ORIGIN);
    const { browser: ada } = await join('ada', adaKeys);
    await join('bob', bobKeys);
    service.clock.advance(REAUTH_WINDOW_MS);
    const options = await requestOptions('reauthenticate/options', ada);
    const response = await post('reauthenticate', { credential: bobKeys.authenticate(options, { credential: bobKeys.credentials[0] }) }, ada);
    expect(response.statusCode).toBe(401);
    expect(json(response)).toMatchObject({ code: 'sign_in_failed', message: 'This passkey is not one of yours: use one you added to the panel.' });
    expect(json(await post('add/options', {}, ada)).code).toBe('reauthentication_required');
  });

  it('refuses a sign-in challenge answered as a re-authentication', async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const { browser } = await join('ada', authenticator);
    const credential = authenticator.authenticate(await requestOptions('sign-in/options'));
    const response = await post('reauthenticate', { credential }, browser);
    expect(response.statusCode).toBe(401);
    expect(json(response).message).toBe('This passkey request was made for something else; try again.');
  });
});

describe('passkey names', () => {
  it('name the day and, when the user agent says, the browser and system', () => {
    const day = Date.UTC(2026, 10, 27, 23, 59);
    expect(passkeyName(CHROME_ON_LINUX, day)).toBe('Passkey added 2026-11-27, Chrome on Linux');
    expect(passkeyName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15', day)).toBe('Passkey added 2026-11-27, Safari on macOS');
    expect(passkeyName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0', day)).toBe('Passkey added 2026-11-27, Edge on Windows');
    expect(passkeyName('curl/8.5.0', day)).toBe('Passkey added 2026-11-27');
  });
});
