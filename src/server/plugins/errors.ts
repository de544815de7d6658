/**
 * The one error handler: every failure leaves as `{ success: false, code, message, error }` with the
 * status of the error catalogue (src/errors.ts), as http/error-body.ts makes it: Fastify's own errors
 * are mapped onto catalogue codes, so a client never sees a 500 for anything it sent, and a database
 * that cannot serve right now is a 503 that says why. An unknown route is `not_found`, a path that is
 * not validly percent-encoded `bad_request`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LocError, type ErrorCode } from '../../errors.ts';
import { printablePath, shortened } from '../../printable.ts';
import { errorBody, toLocError } from '../http/error-body.ts';
import { wwwAuthenticate } from '../http/www-authenticate.ts';
import { logRequest } from '../logs/request-log.ts';
import { requestIdHeader } from './request-id.ts';
import { securityHeaders } from './security-headers.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The catalogue code the request was answered with, when it failed: the request log line names it,
     * so that a 401 or 403 in the log says which refusal it was (key_inactive, ip_not_allowed, …).
     */
    errorCode: ErrorCode | null;
  }
}

/** The most of an unknown path a `not_found` message quotes, in characters. */
const PATH_SHOWN_MAX = 100;

/** What a path that is not validly percent-encoded is told: where the encoding goes wrong. */
function badEncoding(path: string): LocError {
  const refuse = (why: string) => new LocError('bad_request', `The path is not validly percent-encoded${why}`);
  const lone = /%(?![0-9A-Fa-f]{2})/.exec(path);
  if (lone !== null) return refuse(`: ${JSON.stringify(printablePath(path.slice(lone.index, lone.index + 3), 3))} is not % followed by two hexadecimal digits.`);
  for (const [escapes] of path.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
    try {
      decodeURIComponent(escapes);
    } catch {
      return refuse(`: the bytes ${shortened(escapes, 30)} are not UTF-8.`);
    }
  }
  return refuse('.');
}

/**
 * The handler of errors raised before routing, which Fastify takes as its `frameworkErrors` option
 * rather than from `setErrorHandler`: a path that is not validly percent-encoded. Routing needs the
 * path decoded, so this comes before any route — and before its key is checked — and is the same
 * answer on every path, lookup's included: 400 `bad_request`, saying where the encoding goes wrong.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const loc = error.code === 'FST_ERR_BAD_URL' ? badEncoding(request.url.split('?')[0]) : toLocError(error);
  request.errorCode = loc.code;
  requestIdHeader(request, securityHeaders(reply)).code(loc.status).send(errorBody(loc));
  // Answered before the hooks, so the onResponse hook that writes the request line does not run.
  logRequest(request, reply);
}

export default fp(
  async (app) => {
    app.decorateRequest('errorCode', null);
    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const loc = toLocError(error, request.headers);
      // A LocError is an answer the service chose (a shutdown, a tile budget; its cause, if any, was
      // logged where it was decided); anything else that ends in 5xx is a failure to look into, logged
      // in full — but for the database or the counters out of service, which the outage log counts.
      if (loc.status >= 500 && !(error instanceof LocError) && !app.outages.failed(error, { log: request.log, what: 'request failed', request: true })) {
        request.log.error({ err: error }, 'request failed');
      }
      if (loc.retryAfterSeconds !== undefined) reply.header('retry-after', loc.retryAfterSeconds);
      if (loc.status === 401) reply.header('www-authenticate', wwwAuthenticate(request));
      request.errorCode = loc.code;
      reply.code(loc.status).send(errorBody(loc));
    });
    app.setNotFoundHandler((request, reply) => {
      // The path as the client could have written it (printable ASCII, cut short): it is theirs to see,
      // but what they sent must not reorder or hide text in the message.
      const path = printablePath(request.url.split('?')[0], PATH_SHOWN_MAX);
      const loc = new LocError('not_found', `There is no ${request.method} ${path}; see /docs.`);
      request.errorCode = loc.code;
      reply.code(404).send(errorBody(loc));
    });
  },
  { name: 'loc-errors', fastify: '5.x', dependencies: ['loc-outages'] },
);
