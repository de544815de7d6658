/**
 * The audit log's pages (pages/audit.ts): an account's, for its users and the operators, and every
 * account's, for operators only. Read-only routes: the log has no way to change an entry.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LocError } from '../../errors.ts';
import { AUDIT_PAGE_SIZE, auditPage } from '../pages/audit.ts';
import { PANEL_PATH } from '../panel-sessions.ts';
import { accountOf, sendPage, signedIn } from '../access.ts';

const user = { config: { panel: 'user' as const } };
type Query = { Querystring: { before?: unknown } };

/** `?before=`: a seq, a whole number; anything else is refused (400), never read as the newest page. */
function before(request: FastifyRequest<Query>): number | undefined {
  const value = request.query.before;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw new LocError('bad_request', '“before” must be the number of an entry of the log.');
  return Number(value);
}

export default async function auditRoutes(app: FastifyInstance): Promise<void> {
  /** A page of the log: one more entry than shown is read, to know whether older ones exist. */
  async function entries(accountId: string | null, request: FastifyRequest<Query>) {
    const from = before(request);
    const found = await app.store.audit.listAudit({ accountId, before: from, limit: AUDIT_PAGE_SIZE + 1 });
    const shown = found.slice(0, AUDIT_PAGE_SIZE);
    return { entries: shown, olderThan: found.length > AUDIT_PAGE_SIZE ? shown[shown.length - 1].seq : null, paged: from !== undefined };
  }

  app.get<Query & { Params: { accountId: string } }>(`${PANEL_PATH}/accounts/:accountId/audit`, user, async (request, reply) => {
    const current = signedIn(request);
    const account = await accountOf(app, current.user, request.params.accountId);
    return sendPage(reply, 200, auditPage({ signedIn: current, account, ...(await entries(account.id, request)) }));
  });

  app.get<Query>(`${PANEL_PATH}/audit`, user, async (request, reply) => {
    const current = signedIn(request);
    // Only operators: to anyone else the page does not exist.
    if (!current.user.operator) throw new LocError('not_found', 'There is no such page in the panel.');
    const [page, accounts] = await Promise.all([entries(null, request), app.store.listAccounts()]);
    return sendPage(reply, 200, auditPage({ signedIn: current, account: null, accountNames: new Map(accounts.map((account) => [account.id, account.name])), ...page }));
  });
}
