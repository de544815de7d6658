/**
 * Request ids: every request gets a random id, `req_` and 24 hex digits, which its response carries in
 * `Request-Id` and its log lines as `reqId`. A client quotes it when something went wrong, and the
 * operator finds that request's lines — as with Stripe's `Request-Id`.
 *
 * Random rather than Fastify's counter (`req-1`, `req-2`, …): a counter starts again at every restart
 * and on every server, so one id would name many requests, and it would tell anyone how many
 * requests the service has answered. An id sent by the client is not taken: it could be anything,
 * and it would land in the logs.
 */
import { randomFillSync } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const ID_BYTES = 12;

/** Random bytes fetched in bulk: one call into OpenSSL per 341 ids instead of one per id. */
const pool = Buffer.alloc(ID_BYTES * 341);
let next = pool.length;

/** A new request id, e.g. `req_9f86d081884c7d659a2feaa0`. Fastify's `genReqId`. */
export function newRequestId(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  next += ID_BYTES;
  return `req_${pool.toString('hex', next - ID_BYTES, next)}`;
}

/** Sets `Request-Id` on `reply`; for the handlers that answer before the hooks run (plugins/errors.ts). */
export function requestIdHeader(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.header('request-id', request.id);
}

export default fp(
  async (app) => {
    // Set as the request comes in, before any other hook can refuse it, so refusals carry it too.
    app.addHook('onRequest', (request, reply, done) => {
      requestIdHeader(request, reply);
      done();
    });
  },
  { name: 'loc-request-id', fastify: '5.x' },
);
