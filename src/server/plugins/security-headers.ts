/**
 * Headers every response of the service carries, whatever route, hook or error handler answers:
 *
 * - `X-Content-Type-Options: nosniff`, so that a browser takes a response for what its Content-Type
 *   says and nothing else — an error body that echoes a path or a field is JSON, never a script or a
 *   page, even where it is loaded by a `<script>` tag;
 * - `Referrer-Policy: no-referrer`, so that a link followed from one of the service's pages (the
 *   share page's map links, the docs) tells the other site nothing. A route may set its own; the
 *   share page's tiles carry theirs as attributes (OpenStreetMap asks for `strict-origin`).
 *
 * Set when the request comes in, before any other hook can refuse it, so refusals carry them too.
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** Sets the headers on `reply`; for the handlers that answer before the hooks run (plugins/errors.ts). */
export function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(SECURITY_HEADERS);
}

export default fp(
  async (app) => {
    app.addHook('onRequest', (_request, reply, done) => {
      securityHeaders(reply);
      done();
    });
  },
  { name: 'loc-security-headers', fastify: '5.x' },
);
