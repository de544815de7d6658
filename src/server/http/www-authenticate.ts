/**
 * The `WWW-Authenticate` header of a 401 (RFC 9110 §11.6.1): one challenge for each credential the
 * route accepts, as its OpenAPI `security` lists them, so that a client learns from the refusal how
 * to authenticate there.
 *
 * - An API key in `x-api-key`: no scheme is registered for a key in a header of its own, so loc names
 *   one, `ApiKey` (Elasticsearch's name for its key scheme), and says which header carries it:
 *   `ApiKey realm="loc", header="x-api-key"`.
 * - An embed session token in `Authorization: Bearer`: RFC 6750's `Bearer realm="loc"`, with
 *   `error="invalid_token"` when a token was presented and refused (malformed, unknown, expired, or
 *   its key disabled); without an error code when none was presented (RFC 6750 §3.1). The body's
 *   message says more.
 *
 * A route whose schema names no security takes the API key, as every `/v1` route does.
 */
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../../auth/secrets.ts';

export const REALM = 'loc';

/** The security schemes of /openapi.json (app.ts), and the challenge of each. */
const CHALLENGES = {
  apiKey: `ApiKey realm="${REALM}", header="x-api-key"`,
  sessionToken: `Bearer realm="${REALM}"`,
} as const;
type Scheme = keyof typeof CHALLENGES;

type Security = readonly Readonly<Record<string, readonly string[]>>[] | undefined;

/** The schemes a route accepts, in the order its security lists them. */
function schemesOf(security: Security): Scheme[] {
  const named = (security ?? [{ apiKey: [] }]).flatMap((requirement) => Object.keys(requirement));
  return [...new Set(named)].filter((name): name is Scheme => name in CHALLENGES);
}

/** The header for a 401 of `request`'s route. */
export function wwwAuthenticate(request: FastifyRequest): string {
  const schemes = schemesOf(request.routeOptions.schema?.security);
  const key = request.headers['x-api-key'];
  // A route that takes either credential uses the key when one is sent: then the token was not the one refused.
  const keySent = schemes.includes('apiKey') && key !== undefined && key !== '';
  const tokenRefused = !keySent && bearerToken(Array.isArray(request.headers.authorization) ? request.headers.authorization[0] : request.headers.authorization) !== null;
  return schemes
    .map((scheme) => (scheme === 'sessionToken' && tokenRefused ? `${CHALLENGES.sessionToken}, error="invalid_token"` : CHALLENGES[scheme]))
    .join(', ');
}

/** The header as /openapi.json declares it on a 401, for an operation's security. */
function declared(security: Security): { schema: { type: 'string' }; description: string } {
  const schemes = schemesOf(security);
  const each = schemes.map((scheme) =>
    scheme === 'apiKey'
      ? `\`${CHALLENGES.apiKey}\` (send the key in \`x-api-key\`)`
      : `\`${CHALLENGES.sessionToken}\` (send a session token as \`Authorization: Bearer\`), with \`error="invalid_token"\` when the token sent was refused`,
  );
  return { schema: { type: 'string' }, description: `How to authenticate here, one challenge per way in: ${each.join(', then ')}.` };
}

type Operation = { security?: Security; responses?: Record<string, { headers?: Record<string, unknown> }> };

/** `document` with `WWW-Authenticate` declared on the 401 response of every operation that has one. */
export function declareChallenges<T extends object>(document: T): T {
  const { paths = {} } = document as { paths?: Record<string, Record<string, Operation>> };
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods)) {
      const unauthorized = operation.responses?.['401'];
      if (unauthorized !== undefined) unauthorized.headers = { ...unauthorized.headers, 'WWW-Authenticate': declared(operation.security) };
    }
  }
  return document;
}
