/** The account's team: its users, invitations made by one of them, removals (routes of pages/team.ts). */
import type { FastifyInstance } from 'fastify';
import { LocError } from '../../errors.ts';
import { StoreConflict } from '../../store/store.ts';
import { inviteUser, removeUser } from '../../operations/users.ts';
import { accountPath } from '../pages/layout.ts';
import { teamPage } from '../pages/team.ts';
import { accountOf, formField, panelContext, requireRecentAuth, sendPage, signedIn } from '../access.ts';

type Params = { accountId: string };

export default async function teamRoutes(app: FastifyInstance): Promise<void> {
  const path = '/panel/accounts/:accountId/team';

  app.get<{ Params: Params; Querystring: { done?: string } }>(path, { config: { panel: 'user' } }, async (request, reply) => {
    const account = await accountOf(app, signedIn(request).user, request.params.accountId);
    const users = await app.store.panel.listUsers(account.id);
    return sendPage(reply, 200, teamPage({ signedIn: signedIn(request), account, users, removed: request.query.done === 'removed' }));
  });

  // Someone who left: they are signed out everywhere and cannot sign in again; the keys stay the account's.
  app.post<{ Params: Params }>(`${path}/remove`, { config: { panel: 'user' } }, async (request, reply) => {
    const current = signedIn(request);
    const account = await accountOf(app, current.user, request.params.accountId);
    requireRecentAuth(request, app.now(), accountPath(account.id, '/team'));
    const id = formField(request, 'user');
    const user = id === current.user.id ? null : await app.store.panel.getUser(id);
    if (user === null || user.accountId !== account.id) throw new LocError('not_found', 'This account has no such user to remove (you cannot remove yourself).');
    await removeUser(panelContext(app, request), user.id, current.user);
    return reply.redirect(`${accountPath(account.id, '/team')}?done=removed`, 303);
  });

  app.post<{ Params: Params }>(path, { config: { panel: 'user' } }, async (request, reply) => {
    const account = await accountOf(app, signedIn(request).user, request.params.accountId);
    requireRecentAuth(request, app.now(), accountPath(account.id, '/team'));
    const email = formField(request, 'email');
    try {
      const { user, link } = await inviteUser(panelContext(app, request), { accountId: account.id, email }, app.config.publicUrl);
      const users = await app.store.panel.listUsers(account.id);
      return sendPage(reply, 201, teamPage({ signedIn: signedIn(request), account, users, invited: { email: user.email, ...link } }));
    } catch (error) {
      if (!(error instanceof LocError || error instanceof StoreConflict)) throw error;
      request.errorCode = 'validation_error';
      const users = await app.store.panel.listUsers(account.id);
      return sendPage(reply, 422, teamPage({ signedIn: signedIn(request), account, users, error: { email, message: error.message } }));
    }
  });
}
