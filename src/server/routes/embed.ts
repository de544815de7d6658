/**
 * The embed's session routes on the service (its static files and offline tiles are the assets plugin's,
 * server/embed/assets.ts): the session-bound frame page `GET /embed/frame/{sid}` — the `embed_url` of a session — and the public
 * facts of a session, `GET /embed/session/{sid}`, that the loader and the frame check (the frame
 * with its token, which the loader never sends: it would cost the page a CORS preflight).
 *
 * The frame page carries `Content-Security-Policy: frame-ancestors <the session's origin>`, so only the
 * page the session was made for can show it. It is served for expired sessions too, so the frame can
 * report `session_expired` at once instead of failing to load, and for sessions whose key or partner
 * status was taken away, with the refusal in its config, so the frame reports it instead of becoming
 * ready; unknown sessions get a page no one may frame.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bearerToken, isSessionToken } from '../../auth/secrets.ts';
import { LocError } from '../../errors.ts';
import { contentSecurityPolicy, page } from '../pages/html.ts';
import { NO_STORE, errorResponses, withHeaders, type ResponseHeaders } from '../http/responses.ts';
import { sessionRefusal } from '../plugins/auth.ts';
import { viewBounds } from '../../cells/session-area.ts';

const SidParams = Type.Object(
  { sid: Type.String({ maxLength: 64, description: 'The session id: the part of `session_token` before the dot.' }) },
  { additionalProperties: false },
);

const SessionFacts = Type.Object(
  {
    origin: Type.String({ description: 'The one page origin that may embed this session.' }),
    expires_at: Type.String({ format: 'date-time', description: 'When the session stops working.' }),
  },
  { title: 'EmbedSessionFacts', additionalProperties: false, description: 'The session’s origin and when it expires (or expired).' },
);

/** What every answer of the session facts carries (set as the request arrives). */
const FACTS_HEADERS: ResponseHeaders = {
  'Access-Control-Allow-Origin': { type: 'string', enum: ['*'], description: 'Any page may read the answer: the loader runs on integrators’ pages.' },
  Date: { type: 'string', description: 'The service’s clock as it answered: the frame times a renewed session’s expiry by it, not by the visitor’s clock.' },
  ...NO_STORE,
};

const UNKNOWN_SESSION_PAGE = page({
  title: 'loc: unknown map session',
  body: '<h1>Unknown map session</h1><p>This map session does not exist. The page that shows it must create a new session.</p>',
});

const embedRoutes: FastifyPluginAsyncTypebox = async (app) => {

  app.get('/embed/frame/:sid', { schema: { hide: true, params: SidParams } }, async (request, reply) => {
    const session = await app.store.getSession(request.params.sid);
    const key = session === null ? null : await app.store.getKey(session.keyId);
    // A session whose origin was removed from its key is over: that origin may no longer frame it.
    if (session === null || !key?.origins.includes(session.origin)) {
      return reply.code(404).type('text/html; charset=utf-8').header('content-security-policy', contentSecurityPolicy({}))
        .header('cache-control', 'no-store').send(UNKNOWN_SESSION_PAGE);
    }
    // A key disabled or a partner no more: the frame says so at init instead of becoming ready (the
    // origin's refusal, invalid_session, was answered above with the page no one may frame).
    const refusal = sessionRefusal(session, key);
    return reply.sendEmbedFrame({
      sid: session.sid, origin: session.origin, expiresAt: new Date(session.expiresAt).toISOString(), secretHash: session.secretHash,
      testMode: key.mode === 'test', bounds: viewBounds(session),
      ...(refusal === null || refusal.code === 'invalid_session' ? {} : { refusal: { code: refusal.code, message: refusal.message } }),
    });
  });

  app.get('/embed/session/:sid', {
    // Any page may read every answer, a refusal of a malformed sid included (the loader runs on
    // integrators' pages, and the answer holds nothing secret); no cache keeps one. Set on arrival, so
    // no answer of the route goes without them.
    onRequest: (_request, reply, done) => {
      reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store').header('date', new Date(app.now()).toUTCString());
      done();
    },
    schema: {
      operationId: 'getEmbedSession',
      tags: ['embed'],
      summary: 'Public facts of an embed session',
      description:
        'The origin a session is bound to and when it expires; no secret. The loader calls it to report `origin_mismatch` at ' +
        'once. With `Authorization: Bearer <session_token>` it also checks the token (401 `invalid_session` when it is not ' +
        'this session’s), as the frame does at mount.',
      // The token is optional: without it, the facts; with it, also the token's check.
      security: [{}, { sessionToken: [] }],
      params: SidParams,
      response: {
        200: withHeaders(SessionFacts, FACTS_HEADERS),
        ...errorResponses({ codes: ['invalid_session', 'key_inactive', 'partner_required', 'validation_error', 'service_unavailable'], headers: FACTS_HEADERS }),
      },
    },
  }, async (request) => {
    const session = await app.store.getSession(request.params.sid);
    if (session === null) throw new LocError('invalid_session', 'This embed session does not exist.', 'sid');
    const refusal = sessionRefusal(session, await app.store.getKey(session.keyId));
    if (refusal !== null) throw new LocError(refusal.code, refusal.message, 'sid');
    // The frame sends its token along, so a mangled secret is told at mount, not on the first click.
    const authorization = request.headers.authorization;
    const token = bearerToken(authorization);
    if (authorization !== undefined && !(token !== null && isSessionToken(token, session))) {
      throw new LocError('invalid_session', 'The session token is not this session’s.');
    }
    return { origin: session.origin, expires_at: new Date(session.expiresAt).toISOString() };
  });
};

export default embedRoutes;
