/**
 * Headers every response of the service carries, whatever route, hook or error handler answers:
 *
 * - `X-Content-Type-Options: nosniff`, so that a browser takes a response for what its Content-Type
 *   says and nothing else — an error body that echoes a path or a field is JSON, never a script or a
 *   page, even where it is loaded by a `<script>` tag;
 * - `Referrer-Policy: no-referrer`, so that a link followed from one of the service's pages (the
 *   share page's map links, the docs) tells the other site nothing. A route may set its own; the
 *   share page's tiles carry theirs as attributes (OpenStreetMap asks for `strict-origin`);
 * - when the public URL (`LOC_PUBLIC_URL`) is https, `Strict-Transport-Security: max-age=31536000`:
 *   a browser that reached the service once over HTTPS never tries plain HTTP for it for a year, so
 *   no one on the way can strip TLS from a panel sign-in. Sent by the service even over HTTP, since it
 *   usually sits behind a proxy that ends TLS, and a browser ignores it on an answer that came over
 *   plain HTTP; never when the public URL is http. Neither `includeSubDomains` (the service's host
 *   does not speak for its subdomains) nor `preload` (a list browsers ship, which an operator must ask
 *   for and cannot leave quickly).
 *
 * Set when the request comes in, before any other hook can refuse it, so refusals carry them too.
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** A year, in seconds: what HSTS deployments that mean it use, short of preload's two. */
export const HSTS = 'max-age=31536000';

/** The headers of every response of a service whose public URL is `publicUrl`. */
export function securityHeadersFor(publicUrl: string): Readonly<Record<string, string>> {
  return publicUrl.startsWith('https:') ? { ...SECURITY_HEADERS, 'strict-transport-security': HSTS } : SECURITY_HEADERS;
}

/** Sets the headers on `reply`; for the handlers that answer before the hooks run (plugins/errors.ts). */
export function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(securityHeadersFor(reply.server.config.publicUrl));
}

export default fp<{ publicUrl: string }>(
  async (app, { publicUrl }) => {
    const headers = securityHeadersFor(publicUrl);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'loc-security-headers', fastify: '5.x' },
);
