/**
 * Signing in and out with a password, one-time links (joining an account, recovering access) and
 * re-authentication. Passkeys sign in through routes/passkeys.ts and end in the same `startSession`.
 */
import type { FastifyInstance } from 'fastify';
import { hashSecret } from '../../auth/secrets.ts';
import { LINK_PATH, LINK_TOKEN, openLink } from '../../auth/panel-links.ts';
import { LocError } from '../../errors.ts';
import { accountPath } from '../pages/layout.ts';
import { linkPage, reauthenticatePage, signInPage } from '../pages/sign-in.ts';
import { checkNewPassword } from '../passwords.ts';
import { PANEL_PATH, endSession, startSession } from '../panel-sessions.ts';
import { formField, recordLinkUse, safeNext, sendPage, signedIn } from '../access.ts';
import { forgetLinkToken, keepLinkToken, keptLinkToken } from '../link-cookie.ts';
import { takeSignInAttempt, type SignInRefusal } from '../throttle.ts';
import type { User } from '../../store/panel-store.ts';

/** Why a password attempt was refused: the person's own budgets, or the service's, which says how long. */
function throttledMessage(refused: SignInRefusal): string {
  if (!refused.everyone) return new LocError('sign_in_throttled').message;
  const minutes = Math.ceil(refused.retryAfter / 60);
  return `Too many password sign-ins on this service right now: sign in with a passkey, or try your password again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** Where a user lands after signing in: their account's keys (an operator without one: all accounts). */
export const homeOf = (user: User): string => accountPath(user.accountId, '/keys');

export default async function signInRoutes(app: FastifyInstance): Promise<void> {
  const secure = app.config.publicUrl.startsWith('https:');
  passwordRoutes(app, secure);
  linkRoutes(app, secure);
  reauthenticationRoutes(app);
}

/** The panel's entry, signing in with a password, and signing out; `secure`: the session cookie is sent over HTTPS only. */
function passwordRoutes(app: FastifyInstance, secure: boolean): void {
  app.get(PANEL_PATH, { config: { panel: 'public' } }, async (request, reply) =>
    reply.redirect(request.signedIn === null ? `${PANEL_PATH}/sign-in` : homeOf(request.signedIn.user), 303));

  app.get<{ Querystring: { next?: string; signed_out?: string } }>(`${PANEL_PATH}/sign-in`, { config: { panel: 'public' } }, async (request, reply) => {
    if (request.signedIn !== null) return reply.redirect(safeNext(request.query.next, homeOf(request.signedIn.user)), 303);
    return sendPage(reply, 200, signInPage({ next: safeNext(request.query.next, ''), signedOut: request.query.signed_out !== undefined }));
  });

  app.post(`${PANEL_PATH}/sign-in`, { config: { panel: 'public' } }, async (request, reply) => {
    const email = formField(request, 'email').trim();
    const password = formField(request, 'password');
    const next = safeNext(formField(request, 'next'), '');
    const now = app.now();
    const refused = await takeSignInAttempt(app.counters, { email, ip: request.ip, serviceLimit: app.config.panelSignInBudget }, now);
    if (refused !== null) {
      reply.header('retry-after', refused.retryAfter);
      request.errorCode = 'sign_in_throttled';
      return sendPage(reply, 429, signInPage({ email, next, error: throttledMessage(refused) }));
    }
    const user = email === '' ? null : await app.store.panel.findUserByEmail(email);
    // The password is checked even for an unknown address (against a decoy): the time tells nothing.
    const valid = await app.passwords.verify(password, user?.passwordHash ?? null);
    if (user === null || !valid) {
      request.errorCode = 'sign_in_failed';
      return sendPage(reply, 401, signInPage({ email, next, error: new LocError('sign_in_failed').message }));
    }
    if (app.passwords.needsRehash(user.passwordHash!)) await app.store.panel.setPassword(user.id, await app.passwords.hash(password), now);
    await startSession(app.store, request, reply, user, now, secure);
    return reply.redirect(next || homeOf(user), 303);
  });

  app.post(`${PANEL_PATH}/sign-out`, { config: { panel: 'user', ownSession: true } }, async (request, reply) => {
    await endSession(app.store, request, reply, secure);
    return reply.redirect(`${PANEL_PATH}/sign-in?signed_out=1`, 303);
  });
}

/** The open link `token` names, with its user's account name for the page. */
async function linkWithAccount(app: FastifyInstance, token: string) {
  const found = await openLink(app.store, token, app.now());
  const account = await app.store.getAccount(found.user.accountId);
  return { ...found, accountName: account?.name ?? '' };
}

/** A one-time link (joining an account, recovering access): its page, and the password it sets, which signs the user in. */
function linkRoutes(app: FastifyInstance, secure: boolean): void {
  // The link's address is traded for the page's own (link-cookie.ts); opening either uses up nothing.
  app.get<{ Querystring: { token?: string } }>(LINK_PATH, { config: { panel: 'public' } }, async (request, reply) => {
    const given = request.query.token;
    if (given !== undefined) {
      if (!LINK_TOKEN.test(given)) throw new LocError('link_invalid');
      keepLinkToken(reply, given, secure);
      return reply.redirect(LINK_PATH, 303);
    }
    const token = keptLinkToken(request);
    if (token === undefined) throw new LocError('link_invalid', 'This page opens from a one-time link. Open the link you were given again; if it has expired or was used, ask for a new one.');
    return sendPage(reply, 200, linkPage({ token, ...(await linkWithAccount(app, token)) }));
  });

  app.post(LINK_PATH, { config: { panel: 'public' } }, async (request, reply) => {
    const token = formField(request, 'token');
    const link = await linkWithAccount(app, token);
    let password: string;
    try {
      password = await checkNewPassword(formField(request, 'password'), link.user.email);
    } catch (error) {
      if (!(error instanceof LocError)) throw error;
      request.errorCode = error.code;
      return sendPage(reply, 422, linkPage({ token, ...link, error: error.message }));
    }
    const passwordHash = await app.passwords.hash(password);
    const now = app.now();
    // Used up only now, atomically: of two submissions of one link, one sets the password.
    const used = await app.store.panel.useLink(hashSecret(token), now);
    if (used === null) throw new LocError('link_invalid');
    const user = (await app.store.panel.setPassword(used.user.id, passwordHash, now))!;
    // A recovery means the old credentials may be in someone else's hands: every browser signed in as the user is signed out.
    if (used.purpose === 'recovery') await app.store.panel.deleteUserSessions(user.id);
    await recordLinkUse(app, request, used, 'password');
    forgetLinkToken(reply, secure);
    await startSession(app.store, request, reply, user, now, secure);
    return reply.redirect(homeOf(user), 303);
  });
}

/** Entering the password again, which a change that needs a recent authentication asks for. */
function reauthenticationRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: { next?: string } }>(`${PANEL_PATH}/reauthenticate`, { config: { panel: 'user' } }, async (request, reply) =>
    sendPage(reply, 200, reauthenticatePage(signedIn(request), { next: safeNext(request.query.next, homeOf(signedIn(request).user)) })));

  app.post(`${PANEL_PATH}/reauthenticate`, { config: { panel: 'user', ownSession: true } }, async (request, reply) => {
    const current = signedIn(request);
    const next = safeNext(formField(request, 'next'), homeOf(current.user));
    const now = app.now();
    const refused = await takeSignInAttempt(app.counters, { email: current.user.email, ip: request.ip, serviceLimit: app.config.panelSignInBudget }, now);
    if (refused !== null) {
      reply.header('retry-after', refused.retryAfter);
      request.errorCode = 'sign_in_throttled';
      return sendPage(reply, 429, reauthenticatePage(current, { next, error: throttledMessage(refused) }));
    }
    if (!(await app.passwords.verify(formField(request, 'password'), current.user.passwordHash))) {
      request.errorCode = 'sign_in_failed';
      return sendPage(reply, 401, reauthenticatePage(current, { next, error: 'The password is wrong.' }));
    }
    await app.store.panel.reauthenticate(current.session.hash, now);
    return reply.redirect(next, 303);
  });
}
