/** The operators' view of every account, and partner status (routes of pages/accounts.ts). */
import type { FastifyInstance } from 'fastify';
import { LocError } from '../../errors.ts';
import { accountsPage } from '../pages/accounts.ts';
import { PANEL_PATH } from '../panel-sessions.ts';
import { setPartner } from '../../operations/accounts.ts';
import { panelContext, requireRecentAuth, sendPage, signedIn } from '../access.ts';

const user = { config: { panel: 'user' as const } };

export default async function accountRoutes(app: FastifyInstance): Promise<void> {
  /** Only operators: to anyone else the page does not exist. */
  const operator = (request: Parameters<typeof signedIn>[0]) => {
    const current = signedIn(request);
    if (!current.user.operator) throw new LocError('not_found', 'There is no such page in the panel.');
    return current;
  };

  app.get<{ Querystring: { done?: string } }>(`${PANEL_PATH}/accounts`, user, async (request, reply) => {
    const current = operator(request);
    const accounts = await app.store.listAccounts();
    return sendPage(reply, 200, accountsPage({ signedIn: current, accounts, done: request.query.done }));
  });

  app.post(`${PANEL_PATH}/accounts/partner`, user, async (request, reply) => {
    operator(request);
    requireRecentAuth(request, app.now(), `${PANEL_PATH}/accounts`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const account = await app.store.getAccount(String(body.account ?? ''));
    if (account === null) throw new LocError('not_found', 'There is no such account.');
    await setPartner(panelContext(app, request), account.name, body.partner === 'on');
    return reply.redirect(`${PANEL_PATH}/accounts?done=partner`, 303);
  });
}
