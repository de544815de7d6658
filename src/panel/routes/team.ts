/** The account's team: its users, invitations made by one of them, removals (routes of pages/team.ts). */
import type { FastifyInstance } from 'fastify';
import type { User } from '../../store/panel-store.ts';
import { LocError } from '../../errors.ts';
import { StoreConflict } from '../../store/store.ts';
import { dropHeldInvitation, inviteFromPanel, removeUser } from '../../operations/users.ts';
import { accountPath } from '../pages/layout.ts';
import { teamPage } from '../pages/team.ts';
import { accountOf, formField, panelContext, requireRecentAuth, sendPage, signedIn } from '../access.ts';

type Params = { accountId: string };

/**
 * The account's users and its held invitations, the latter as the invited users they stand for: the
 * page shows both alike (operations/users.ts says why).
 */
async function teamOf(app: FastifyInstance, accountId: string): Promise<User[]> {
  const [users, held] = await Promise.all([app.store.panel.listUsers(accountId), app.store.panel.held.list(accountId)]);
  const invited = held.map(({ id, email, createdAt }): User => ({ id, accountId, email, operator: false, passwordHash: null, createdAt, activatedAt: null }));
  return [...users, ...invited].sort((a, b) => a.createdAt - b.createdAt || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

export default async function teamRoutes(app: FastifyInstance): Promise<void> {
  const path = '/panel/accounts/:accountId/team';

  app.get<{ Params: Params; Querystring: { done?: string } }>(path, { config: { panel: 'user' } }, async (request, reply) => {
    const account = await accountOf(app, signedIn(request).user, request.params.accountId);
    const users = await teamOf(app, account.id);
    return sendPage(reply, 200, teamPage({ signedIn: signedIn(request), account, users, removed: request.query.done === 'removed' }));
  });

  // Someone who left: they are signed out everywhere and cannot sign in again; the keys stay the account's.
  app.post<{ Params: Params }>(`${path}/remove`, { config: { panel: 'user' } }, async (request, reply) => {
    const current = signedIn(request);
    const account = await accountOf(app, current.user, request.params.accountId);
    requireRecentAuth(request, app.now(), accountPath(account.id, '/team'));
    const id = formField(request, 'user');
    const user = id === current.user.id ? null : await app.store.panel.getUser(id);
    if (user !== null && user.accountId === account.id) await removeUser(panelContext(app, request), user.id, current.user);
    else if (id === current.user.id || !(await dropHeldInvitation(panelContext(app, request), account.id, id))) {
      throw new LocError('not_found', 'This account has no such user to remove (you cannot remove yourself).');
    }
    return reply.redirect(`${accountPath(account.id, '/team')}?done=removed`, 303);
  });

  app.post<{ Params: Params }>(path, { config: { panel: 'user' } }, async (request, reply) => {
    const account = await accountOf(app, signedIn(request).user, request.params.accountId);
    requireRecentAuth(request, app.now(), accountPath(account.id, '/team'));
    const email = formField(request, 'email');
    try {
      const invited = await inviteFromPanel(panelContext(app, request), { accountId: account.id, email }, app.config.publicUrl, signedIn(request).user);
      const users = await teamOf(app, account.id);
      return sendPage(reply, 201, teamPage({ signedIn: signedIn(request), account, users, invited: { email: invited.email, ...invited.link } }));
    } catch (error) {
      if (!(error instanceof LocError || error instanceof StoreConflict)) throw error;
      request.errorCode = 'validation_error';
      const users = await teamOf(app, account.id);
      return sendPage(reply, 422, teamPage({ signedIn: signedIn(request), account, users, error: { email, message: error.message } }));
    }
  });
}
