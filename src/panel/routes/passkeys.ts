/**
 * The passkey ceremonies' endpoints, which the page script calls with JSON (panel-app/passkeys.ts):
 * each ceremony is a POST for its options and a POST of the browser's answer. Signing in with a
 * passkey and the one-time links are public; adding a passkey and re-authenticating with one need a
 * signed-in user and the CSRF header. Answers that lead somewhere are `{ redirect }`: the page script
 * goes there, as a form's redirect would.
 *
 * Passkey sign-ins are not drawn from the password throttle: a passkey cannot be guessed, and it is
 * what still signs a user in while someone floods their address with wrong passwords. Starting one
 * has a budget of its own per client (throttle.ts), and every other ceremony one per user.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashSecret } from '../../auth/secrets.ts';
import { LocError } from '../../errors.ts';
import { recordLinkUse, recordPanelChange, safeNext, signedIn } from '../access.ts';
import { openLink } from '../../auth/panel-links.ts';
import { authenticationOptions, registrationOptions, relyingParty, verifyAuthentication, verifyRegistration, type RelyingParty } from '../passkeys.ts';
import { PANEL_PATH, recentlyAuthenticated, startSession } from '../panel-sessions.ts';
import { forgetLinkToken } from '../link-cookie.ts';
import { takePasskeyChallenge, takePasskeyStart } from '../throttle.ts';
import { homeOf } from './sign-in.ts';

const PATH = `${PANEL_PATH}/passkeys`;

/**
 * The browser's answer to a ceremony as @simplewebauthn/browser hands it over. Only its shape is
 * checked here; the ceremony's verification reads the rest.
 */
const Credential = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 1400 }),
  rawId: Type.String({ minLength: 1, maxLength: 1400 }),
  type: Type.Literal('public-key'),
  response: Type.Object({ clientDataJSON: Type.String({ maxLength: 4096 }) }, { additionalProperties: true }),
}, { additionalProperties: true });
const Next = Type.Optional(Type.String({ maxLength: 2048 }));
const Token = Type.String({ maxLength: 100 });

/** A route's options: who may call it (access.ts) and the fields of its body, none other. */
const route = (panel: 'public' | 'user', body?: TProperties) =>
  ({ config: { panel }, schema: { hide: true, ...(body !== undefined && { body: Type.Object(body, { additionalProperties: false }) }) } });

/** An answer, and where to go once it is accepted. */
type Answer<R> = { credential: R; next?: string };

const userAgent = (request: FastifyRequest) => String(request.headers['user-agent'] ?? '');

/** Refuses a ceremony for `userId` beyond the user's budget of challenges (throttle.ts). */
async function throttleUser(app: FastifyInstance, userId: string, now: number): Promise<void> {
  const wait = await takePasskeyChallenge(app.counters, userId, now);
  if (wait !== null) throw new LocError('sign_in_throttled', 'Too many passkey requests for your user; wait a few minutes and try again.').retryAfter(wait);
}

/** The page script cannot follow a redirect to the re-authentication page: it is told, and goes there itself. */
function requireRecentAuth(request: FastifyRequest, now: number): void {
  if (!recentlyAuthenticated(signedIn(request), now)) throw new LocError('reauthentication_required');
}

export default async function passkeyRoutes(app: FastifyInstance): Promise<void> {
  const rp = relyingParty(app.config.publicUrl);
  const secure = app.config.publicUrl.startsWith('https:');
  signInCeremonies(app, rp, secure);
  signedInCeremonies(app, rp);
  linkCeremonies(app, rp, secure);
}

/** Signing in with a passkey: anyone may start, within their client's budget. */
function signInCeremonies(app: FastifyInstance, rp: RelyingParty, secure: boolean): void {
  app.post(`${PATH}/sign-in/options`, route('public'), async (request) => {
    const now = app.now();
    const wait = await takePasskeyStart(app.counters, request.ip, now);
    if (wait !== null) throw new LocError('sign_in_throttled', 'Too many passkey sign-ins from your network; wait a few minutes and try again.').retryAfter(wait);
    return authenticationOptions(app.store, rp, null, now);
  });

  app.post<{ Body: Answer<AuthenticationResponseJSON> }>(`${PATH}/sign-in`, route('public', { credential: Credential, next: Next }), async (request, reply) => {
    const now = app.now();
    const user = await verifyAuthentication(app.store, rp, request.body.credential, null, now);
    await startSession(app.store, request, reply, user, now, secure);
    return { redirect: safeNext(request.body.next, homeOf(user)) };
  });
}

/** Adding a passkey and confirming with one: the signed-in user's, within their budget. */
function signedInCeremonies(app: FastifyInstance, rp: RelyingParty): void {
  app.post(`${PATH}/add/options`, route('user'), async (request) => {
    const now = app.now();
    requireRecentAuth(request, now);
    await throttleUser(app, signedIn(request).user.id, now);
    return registrationOptions(app.store, rp, signedIn(request).user, now);
  });

  app.post<{ Body: Answer<RegistrationResponseJSON> }>(`${PATH}/add`, route('user', { credential: Credential }), async (request) => {
    const now = app.now();
    requireRecentAuth(request, now);
    const passkey = await verifyRegistration(app.store, rp, signedIn(request).user, request.body.credential, userAgent(request), now);
    await app.store.panel.addPasskey(passkey);
    await recordPanelChange(app, request, { accountId: signedIn(request).user.accountId, action: 'user.passkey_add', target: null, details: { passkey: passkey.name } });
    return { redirect: `${PANEL_PATH}/security?done=passkey_added#passkeys` };
  });

  app.post(`${PATH}/reauthenticate/options`, route('user'), async (request) => {
    const now = app.now();
    await throttleUser(app, signedIn(request).user.id, now);
    return authenticationOptions(app.store, rp, signedIn(request).user, now);
  });

  app.post<{ Body: Answer<AuthenticationResponseJSON> }>(`${PATH}/reauthenticate`, route('user', { credential: Credential, next: Next }), async (request) => {
    const current = signedIn(request);
    const now = app.now();
    await verifyAuthentication(app.store, rp, request.body.credential, current.user, now);
    await app.store.panel.reauthenticate(current.session.hash, now);
    return { redirect: safeNext(request.body.next, homeOf(current.user)) };
  });
}

/** Creating a passkey from a one-time link: the link's user's, within their budget; it signs them in. */
function linkCeremonies(app: FastifyInstance, rp: RelyingParty, secure: boolean): void {
  app.post<{ Body: { token: string } }>(`${PATH}/link/options`, route('public', { token: Token }), async (request) => {
    const now = app.now();
    const link = await openLink(app.store, request.body.token, now);
    await throttleUser(app, link.user.id, now);
    return registrationOptions(app.store, rp, link.user, now);
  });

  app.post<{ Body: Answer<RegistrationResponseJSON> & { token: string } }>(`${PATH}/link`, route('public', { token: Token, credential: Credential }), async (request, reply) => {
    const { token, credential } = request.body;
    const link = await openLink(app.store, token, app.now());
    const now = app.now();
    const passkey = await verifyRegistration(app.store, rp, link.user, credential, userAgent(request), now);
    // Used up only once the passkey is verified, atomically: of two answers to one link, one joins.
    const used = await app.store.panel.useLink(hashSecret(token), now);
    if (used === null) throw new LocError('link_invalid');
    await app.store.panel.addPasskey(passkey);
    // Active from now on; a password the user has stays as it is.
    const user = (await app.store.panel.setPassword(used.user.id, used.user.passwordHash, now))!;
    // A recovery means the old credentials may be in someone else's hands: every browser signed in as the user is signed out.
    if (used.purpose === 'recovery') await app.store.panel.deleteUserSessions(user.id);
    await recordLinkUse(app, request, used, 'passkey');
    forgetLinkToken(reply, secure);
    await startSession(app.store, request, reply, user, now, secure);
    return { redirect: homeOf(user) };
  });
}
