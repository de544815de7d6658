/**
 * The partner panel, mounted under /panel: partners' users sign in and manage their account's API
 * keys; operators see every account. An encapsulated plugin: the form parser, the cookie parser, the
 * panel's headers and its HTML error pages apply to the panel's routes only, never to the API's.
 *
 * Isolation from the rest of the origin (the embed frame, share pages, /docs), besides the cookie's
 * own (panel-sessions.ts): every panel response forbids framing (`frame-ancestors 'none'`,
 * `X-Frame-Options: DENY`), opens in its own browsing context group (`Cross-Origin-Opener-Policy:
 * same-origin`), may not be loaded by other origins as a resource (`Cross-Origin-Resource-Policy:
 * same-origin`), runs only the panel's own script (CSP), and is never cached (`no-store`); and a page
 * is shown signed in only to a navigation, or to a script that holds the session's CSRF token.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LocError } from '../errors.ts';
import { errorBody, toLocError } from '../server/http/error-body.ts';
import panelAssets from './assets.ts';
import { errorPage } from './pages/errors.ts';
import { Redirect, signedIn } from './access.ts';
import { CSRF_FIELD, CSRF_HEADER, PANEL_PATH, readSession, sameCsrf } from './panel-sessions.ts';
import accountRoutes from './routes/accounts.ts';
import auditRoutes from './routes/audit.ts';
import keyRoutes from './routes/keys.ts';
import passkeyRoutes from './routes/passkeys.ts';
import securityRoutes from './routes/security.ts';
import signInRoutes from './routes/sign-in.ts';
import teamRoutes from './routes/team.ts';
import { takePanelWrite } from './write-budget.ts';

/**
 * Whether a request that changes something comes from the panel's own pages: a browser says where a
 * request comes from (Sec-Fetch-Site, Origin) and a page of another origin cannot read the CSRF token.
 */
function fromPanel(request: FastifyRequest, ownOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  return origin === undefined || origin === ownOrigin;
}

function panelHeaders(reply: FastifyReply, ownOrigin: string): void {
  reply.headers({
    'content-security-policy': [
      "default-src 'none'",
      `script-src ${ownOrigin}${PANEL_PATH}/assets/`,
      `style-src ${ownOrigin}${PANEL_PATH}/assets/`,
      `img-src ${ownOrigin}/favicon.svg`,
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    // Not the service's no-referrer: under it a browser sends `Origin: null` with a form's POST, and
    // the panel could not tell its own forms from another page's. The origin only, never a path or a
    // query: a page's address may hold what no request of the page should carry.
    'referrer-policy': 'strict-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  });
}

/** The panel, on an app that has its password hasher (`app.passwords`, password-hasher.ts). */
export default async function panelPlugin(app: FastifyInstance): Promise<void> {
  const ownOrigin = new URL(app.config.publicUrl).origin;
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  app.decorateRequest('signedIn', null);
  // Pages for people, not operations of the API: none of them is in /openapi.json.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });

  app.addHook('onRequest', async (_request, reply) => panelHeaders(reply, ownOrigin));
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.panel;
    if (access === undefined) return;
    request.signedIn = await readSession(app.store, request, app.now());
    if (request.method === 'GET' || request.method === 'HEAD') {
      // A page is read by navigating to it. A script's request for one (Sec-Fetch-Mode cors,
      // same-origin, …) must carry the CSRF token, as the panel's own script does: other script on
      // the origin — the embed frame's, running inside a partner's page, whose requests may carry
      // the cookie when that page is on the service's own site — gets the signed-out answer.
      const mode = request.headers['sec-fetch-mode'];
      if (request.signedIn !== null && mode !== undefined && mode !== 'navigate' && !sameCsrf(request.signedIn.token, request.headers[CSRF_HEADER])) {
        request.signedIn = null;
      }
      if (access === 'user') signedIn(request);
      return;
    }
    if (!fromPanel(request, ownOrigin)) throw new LocError('csrf_rejected');
    if (access === 'user') {
      const user = signedIn(request);
      const body = request.body as Record<string, unknown> | undefined;
      if (!sameCsrf(user.token, body?.[CSRF_FIELD] ?? request.headers[CSRF_HEADER])) throw new LocError('csrf_rejected');
      if (request.routeOptions.config.ownSession !== true) await takePanelWrite(app.counters, user.user.id, app.now());
    }
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof Redirect) return reply.redirect(error.location, 303);
    const loc = toLocError(error, request.headers);
    if (loc.status >= 500 && !(error instanceof LocError) && !app.outages.failed(error, { log: request.log, what: 'panel request failed', request: true })) {
      request.log.error({ err: error }, 'panel request failed');
    }
    if (loc.retryAfterSeconds !== undefined) reply.header('retry-after', loc.retryAfterSeconds);
    request.errorCode = loc.code;
    const wantsJson = (request.headers.accept ?? '').startsWith('application/json');
    if (wantsJson) return reply.code(loc.status).send(errorBody(loc));
    return reply.code(loc.status).type('text/html; charset=utf-8').send(errorPage(loc, request.signedIn));
  });
  // The panel's own 404, as a page: a catch-all route, since the service's not-found handler answers JSON for the rest of the origin.
  app.all(`${PANEL_PATH}/*`, { config: { panel: 'public' } }, async () => {
    throw new LocError('not_found', 'There is no such page in the panel.');
  });

  await app.register(panelAssets);
  await app.register(signInRoutes);
  await app.register(passkeyRoutes);
  await app.register(securityRoutes);
  await app.register(keyRoutes);
  await app.register(teamRoutes);
  await app.register(accountRoutes);
  await app.register(auditRoutes);
}
