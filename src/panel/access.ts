/**
 * Who may use a panel route: the signed-in user of a request, the accounts they may see (their own;
 * every one for an operator), the recent authentication a change needs, and the redirects that send a
 * person to sign in or to confirm. The plugin (plugin.ts) reads the session; routes ask here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordChange, type Actor, type Change } from '../audit/audit-log.ts';
import { LocError } from '../errors.ts';
import type { ChangeContext } from '../operations/change-context.ts';
import { capsOf } from '../server/config.ts';
import type { LinkPurpose, User } from '../store/panel-store.ts';
import type { Account } from '../store/store.ts';
import { PANEL_PATH, recentlyAuthenticated, type SignedIn } from './panel-sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Panel routes: who may use them. `public`: anyone (sign-in, links); `user`: a signed-in user. */
    panel?: 'public' | 'user';
    /** A signed-in user's request that changes nothing another person sees (signing out, confirming it is them): not counted as a change (write-budget.ts). */
    ownSession?: true;
  }
  interface FastifyRequest {
    /** The panel's signed-in user, read from the cookie; null when none. */
    signedIn: (SignedIn & { token: string }) | null;
  }
}

/** Why a panel route answers a redirect instead of its page. */
export class Redirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`);
  }
}

/**
 * The signed-in user; routes marked `panel: 'user'` never run without one. Anyone else is sent to sign
 * in, and from a page (a bookmark, an old tab) back to it afterwards.
 */
export function signedIn(request: FastifyRequest): SignedIn & { token: string } {
  if (request.signedIn === null) {
    throw new Redirect(`${PANEL_PATH}/sign-in${request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : ''}`);
  }
  return request.signedIn;
}

/**
 * The account `accountId` names, when the user may see it: their own, or any for an operator. Another
 * account's id answers as an unknown one does (404), so ids cannot be probed.
 */
export async function accountOf(app: FastifyInstance, user: SignedIn['user'], accountId: string): Promise<Account> {
  const account = user.operator || user.accountId === accountId ? await app.store.getAccount(accountId) : null;
  if (account === null) throw new LocError('not_found', 'There is no such account in this panel.');
  return account;
}

/** Refuses a change without a recent sign-in or re-authentication: the user is sent to confirm, then back to `back`. */
export function requireRecentAuth(request: FastifyRequest, now: number, back: string): void {
  if (!recentlyAuthenticated(signedIn(request), now)) throw new Redirect(`${PANEL_PATH}/reauthenticate?next=${encodeURIComponent(back)}`);
}

/**
 * The panel's own paths only, so a `next` parameter can never send the user elsewhere; and only as a
 * URL is written in a `Location` header, percent-encoded (printable ASCII, no space, no backslash):
 * the paths the panel itself sends to sign-in are, and anything else would make the header invalid.
 */
export function safeNext(next: unknown, fallback: string): string {
  return typeof next === 'string' && next.startsWith(`${PANEL_PATH}/`) && /^[\x21-\x5b\x5d-\x7e]+$/.test(next) ? next : fallback;
}

/** A field of a submitted form; '' when absent or repeated (a form of the panel sends each once). */
export function formField(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Who makes a change in the panel, for the audit log: the user's address, from the client's IP. */
export const panelActor = (request: FastifyRequest, email = signedIn(request).user.email): Actor => ({ via: 'panel', actor: email, source: request.ip });

/** The context of a change the signed-in user makes through an operation (operations/). */
/**
 * A change made in the panel: by its signed-in user, held to the account's ceiling of keys' limits
 * (whose default is the service's default limits) and to the caps on what an account gathers.
 */
export const panelContext = (app: FastifyInstance, request: FastifyRequest): ChangeContext => ({
  store: app.store, actor: panelActor(request), now: app.now(),
  limitDefaults: { hourlyLimit: app.config.defaultHourlyLimit, embedHourlyLimit: app.config.defaultEmbedHourlyLimit, sessionLimit: app.config.defaultSessionLimit },
  caps: capsOf(app.config),
});

/** Records in the audit log a change the signed-in user just made (`email`: who, when no session is signed in yet). */
export async function recordPanelChange(app: FastifyInstance, request: FastifyRequest, change: Change, email?: string): Promise<void> {
  await recordChange(app.store, panelActor(request, email), change, app.now());
}

/** Records the use of a one-time link (there is no session yet: the link's user is who). */
export async function recordLinkUse(app: FastifyInstance, request: FastifyRequest, used: { user: User; purpose: LinkPurpose }, credential: 'password' | 'passkey'): Promise<void> {
  const action = used.purpose === 'invite' ? 'user.activate' : 'user.recovered';
  await recordPanelChange(app, request, { accountId: used.user.accountId, action, target: null, details: { credential } }, used.user.email);
}

/** Answers with a panel page. */
export const sendPage = (reply: FastifyReply, status: number, page: string) => reply.code(status).type('text/html; charset=utf-8').send(page);
