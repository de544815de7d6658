/** The user's own security settings (routes of pages/security.ts): password, passkeys, sessions. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LocError } from '../../errors.ts';
import { securityPage } from '../pages/security.ts';
import { checkNewPassword } from '../passwords.ts';
import { PANEL_PATH } from '../panel-sessions.ts';
import { formField, recordPanelChange, requireRecentAuth, sendPage, signedIn } from '../access.ts';

const user = { config: { panel: 'user' as const } };
const PATH = `${PANEL_PATH}/security`;

export default async function securityRoutes(app: FastifyInstance): Promise<void> {
  async function page(request: FastifyRequest, extra: { done?: string; passwordError?: string | null } = {}): Promise<string> {
    const current = signedIn(request);
    const now = app.now();
    const [sessions, passkeys, account] = await Promise.all([
      app.store.panel.listPanelSessions(current.user.id, now),
      app.store.panel.listPasskeys(current.user.id),
      app.store.getAccount(current.user.accountId),
    ]);
    return securityPage({ signedIn: current, account, sessions, passkeys, ...extra });
  }

  app.get<{ Querystring: { done?: string } }>(PATH, user, async (request, reply) =>
    sendPage(reply, 200, await page(request, { done: request.query.done })));

  app.post(`${PATH}/password`, user, async (request, reply) => {
    const current = signedIn(request);
    const now = app.now();
    requireRecentAuth(request, now, `${PATH}#password`);
    let password: string;
    try {
      password = await checkNewPassword(formField(request, 'password'), current.user.email);
    } catch (error) {
      if (!(error instanceof LocError)) throw error;
      request.errorCode = error.code;
      return sendPage(reply, 422, await page(request, { passwordError: error.message }));
    }
    await app.store.panel.setPassword(current.user.id, await app.passwords.hash(password), now);
    await app.store.panel.deleteUserSessions(current.user.id, current.session.hash);
    await recordPanelChange(app, request, { accountId: current.user.accountId, action: 'user.password_change', target: null });
    return reply.redirect(`${PATH}?done=password`, 303);
  });

  app.post(`${PATH}/sign-out-everywhere`, { config: { ...user.config, ownSession: true } }, async (request, reply) => {
    const current = signedIn(request);
    const ended = await app.store.panel.deleteUserSessions(current.user.id, current.session.hash);
    // None left to end (another browser or server ended them first): nothing changed, nothing recorded.
    if (ended > 0) await recordPanelChange(app, request, { accountId: current.user.accountId, action: 'user.sessions_end', target: null, details: { sessions: ended } });
    return reply.redirect(`${PATH}?done=signed_out#sessions`, 303);
  });

  app.post(`${PATH}/passkeys/remove`, user, async (request, reply) => {
    const current = signedIn(request);
    requireRecentAuth(request, app.now(), `${PATH}#passkeys`);
    const id = formField(request, 'passkey');
    const passkey = (await app.store.panel.listPasskeys(current.user.id)).find((candidate) => candidate.id === id);
    if (passkey === undefined || !(await app.store.panel.deletePasskey(current.user.id, id))) throw new LocError('not_found', 'You have no such passkey.');
    await recordPanelChange(app, request, { accountId: current.user.accountId, action: 'user.passkey_remove', target: null, details: { passkey: passkey.name } });
    return reply.redirect(`${PATH}?done=passkey_removed#passkeys`, 303);
  });
}
