/**
 * Refusals at the HTTP level, in the catalogue's shape like every other error. Node answers these
 * itself, before any route or hook runs, with an empty body (a missing Host, an unknown Expect) or
 * Fastify's own body (a request its parser rejects): a client reading `code` would find none.
 *
 * - A request the parser rejects — a header with a control character, Content-Length twice, a
 *   malformed request line — gets 400 `bad_request` naming the parser's reason; headers over Node's
 *   16 KB get 431 `headers_too_large`; a request that arrives too slowly gets 408 `request_timeout`.
 *   Only the parser's reason is logged, never the raw bytes (they can hold a key).
 * - An HTTP/1.1 request without a Host header gets 400 `bad_request` (RFC 9112 §3.2).
 * - An Expect other than 100-continue gets 417 `expectation_failed`.
 * - CONNECT, which Node would answer by closing the connection without a word, gets 405
 *   `method_not_allowed`: loc is not a proxy.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { LocError, describeValue } from '../../errors.ts';
import { errorBody } from '../http/error-body.ts';
import { newRequestId } from './request-id.ts';
import { securityHeadersFor } from './security-headers.ts';

/** The security headers of every response of a service at `publicUrl`, as raw header lines. */
const securityLines = (publicUrl: string): string => Object.entries(securityHeadersFor(publicUrl)).map(([name, value]) => `${name}: ${value}\r\n`).join('');

/**
 * A complete HTTP/1.1 response carrying `error` as JSON; the connection closes after it. Its
 * Request-Id is new: no request was routed, but the refusal is logged under that id all the same.
 */
function rawResponse(app: FastifyInstance, error: LocError, requestId: string, extraHeaders = ''): string {
  const body = JSON.stringify(errorBody(error));
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `${securityLines(app.config.publicUrl)}Request-Id: ${requestId}\r\n${extraHeaders}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** The Request-Id of a refusal made before routing, under which the refusal is logged (at debug). */
function refusalId(log: FastifyBaseLogger, details: Record<string, unknown>): string {
  const reqId = newRequestId();
  log.debug({ reqId, ...details }, 'request refused before routing');
  return reqId;
}

/** Node's parser error (llhttp) as a catalogue error. */
export function parserError(error: Error & { code?: string; reason?: string }): LocError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new LocError('headers_too_large', 'The request headers are larger than 16 KB.');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new LocError('request_timeout');
  return new LocError('bad_request', `The request is not valid HTTP/1.1: ${error.reason ?? error.code ?? 'unreadable'}.`);
}

/** Fastify's `clientErrorHandler` option: answers what the HTTP parser refused, then drops the connection. */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string; reason?: string }, socket: Socket): void {
  // A connection the client reset has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = parserError(error);
  const reqId = refusalId(this.log, { code: error.code, reason: error.reason });
  if (socket.writable) socket.write(rawResponse(this, refusal, reqId));
  socket.destroy();
}

export default fp(
  async (app) => {
    // Node's own Host check (turned off in app.ts) would answer an empty 400.
    app.addHook('onRequest', (request, _reply, done) => {
      const hostless = request.raw.httpVersion === '1.1' && request.headers.host === undefined;
      done(hostless ? new LocError('bad_request', 'An HTTP/1.1 request must carry a Host header.') : undefined);
    });
    app.server.on('checkExpectation', (request, response) => {
      const refusal = new LocError(
        'expectation_failed',
        `The service cannot meet Expect: ${describeValue(String(request.headers.expect))}; only 100-continue is supported.`,
      );
      const reqId = refusalId(app.log, { expect: String(request.headers.expect).slice(0, 40) });
      response.writeHead(refusal.status, { 'content-type': 'application/json; charset=utf-8', connection: 'close', 'request-id': reqId, ...securityHeadersFor(app.config.publicUrl) });
      response.end(JSON.stringify(errorBody(refusal)));
    });
    app.server.on('connect', (_request, socket: Socket) => {
      const refusal = new LocError('method_not_allowed', 'CONNECT is not supported: loc is not a proxy.');
      socket.on('error', () => {});
      socket.end(rawResponse(app, refusal, refusalId(app.log, { method: 'CONNECT' }), 'Allow: GET, HEAD, POST\r\n'));
    });
  },
  { name: 'loc-protocol', fastify: '5.x', dependencies: ['loc-errors'] },
);
