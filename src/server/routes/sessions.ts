/**
 * `POST /v1/embed/sessions`: a partner's server trades its API key for a short-lived
 * session token bound to one page origin. The browser only ever holds that token.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkOrigin } from '../../auth/origin.ts';
import { hashSecret, newSessionToken } from '../../auth/secrets.ts';
import { LocError } from '../../errors.ts';
import { BODY_ERRORS, NO_STORE, RATE_LIMIT_HEADERS, errorResponses, withHeaders } from '../http/responses.ts';
import { SessionRequest, SessionResult } from '../http/schemas.ts';
import { checkArea } from '../../cells/session-area.ts';

/** Default session lifetime, seconds (a session may last 60 to 3600). */
export const DEFAULT_TTL_S = 900;

const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/v1/embed/sessions', {
    config: { auth: 'partner' },
    schema: {
      operationId: 'createEmbedSession',
      tags: ['embed'],
      summary: 'Create an embed session',
      description:
        'Call it from your server with a partner key. `origin` must be https (or `http://localhost:<port>`), ' +
        "written exactly as the page's `location.origin`, and registered for the key. Optional `countries` and `bounds` limit where " +
        'visitors may choose: resolve refuses a cell outside them with 422 `outside_session_area` (with both, a cell must be inside both).',
      security: [{ apiKey: [] }],
      body: SessionRequest,
      // origin_not_allowed here is also the body's origin, refused once the key is accepted.
      response: {
        200: withHeaders(SessionResult, RATE_LIMIT_HEADERS, NO_STORE),
        ...errorResponses({ auth: 'partner', codes: [...BODY_ERRORS, 'origin_not_allowed'] }),
      },
    },
  }, async (request, reply) => {
    const caller = request.caller!;
    const origin = checkOrigin(request.body.origin);
    if (!caller.key.origins.includes(origin)) {
      // What the key has beside what was asked: the caller holds the key, so its origins are theirs to see.
      const registered = caller.key.origins.length === 0 ? 'none' : caller.key.origins.join(', ');
      throw new LocError(
        'origin_not_allowed',
        `The origin ${origin} is not registered for the API key ${caller.key.id}; it has: ${registered}. ` +
          `The operator adds one with "loc keys origins add ${caller.key.id} ${origin}".`,
        'origin',
      );
    }
    const { countries, bounds } = checkArea(app.config, request.body);
    const now = app.now();
    const expiresAt = now + (request.body.ttl ?? DEFAULT_TTL_S) * 1000;
    const { sid, secret, token } = newSessionToken();
    await app.store.createSession({ sid, secretHash: hashSecret(secret), keyId: caller.key.id, origin, createdAt: now, expiresAt, countries, bounds });
    app.sessionCounts.created++;
    reply.header('cache-control', 'no-store');
    return {
      success: true as const,
      session_token: token,
      expires_at: new Date(expiresAt).toISOString(),
      embed_url: `${app.config.publicUrl}/embed/frame/${sid}`,
      // Echoed only when sent: the answer to a request without an area stays as it always was.
      ...(countries === null ? {} : { countries }),
      ...(bounds === null ? {} : { bounds }),
    };
  });
};

export default sessionRoutes;
