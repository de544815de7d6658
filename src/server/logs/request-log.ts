/**
 * The request log line: one per request, at `info`, after the response — method, path, client
 * address, the key that was counted (its id, never its secret), status, a failure's catalogue code
 * and time — so an operator can follow a key's traffic and its 429s, tell which refusal a 401 or 403
 * was, and find a request by the `Request-Id` a client quotes (the line's `reqId`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Levels at which the line is written. */
export const REQUEST_LOG_LEVELS: ReadonlySet<string> = new Set(['info', 'debug', 'trace']);

export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const key = request.caller?.key.id;
  const code = request.errorCode;
  request.log.info({
    req: request, ...(key === undefined ? {} : { key }), status: reply.statusCode, ...(code === null ? {} : { code }), ms: Math.round(reply.elapsedTime * 10) / 10,
  }, 'request');
}
