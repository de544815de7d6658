/**
 * The one error handler: every failure leaves as `{ success: false, code, message, error }` with the
 * status of the error catalogue (src/errors.ts). Fastify's own errors — bad JSON, wrong content type,
 * an oversized body, schema validation, an unknown route — are mapped onto catalogue codes, so a
 * client never sees a 500 for anything it sent. A database that cannot serve right now (full or
 * read-only disk, I/O error, lock) is a 503 that says why, not a 500: the client may retry.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CATALOGUE, LocError, describeValue, type ErrorCode } from '../../errors.ts';
import { printablePath, shortened } from '../../printable.ts';
import { StoreUnavailable, type UnavailableReason } from '../../store/store.ts';
import type { ErrorBody } from '../http/schemas.ts';
import { logRequest } from '../logs/request-log.ts';
import { wwwAuthenticate } from '../http/www-authenticate.ts';
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

/** Fastify error codes and the catalogue code each becomes. */
const FASTIFY_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
};

/** Messages that say more than Fastify's for the same condition. */
const FASTIFY_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON with the header Content-Type: application/json.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than 16 KB.',
};

/**
 * What a client is told when the database cannot serve its request (the log has the engine's own
 * words), and when to retry: a busy database passes in moments, full or broken storage waits for an
 * operator, a database out of reach for its network.
 */
const UNAVAILABLE: Readonly<Record<UnavailableReason, { message: string; retryAfterSeconds: number }>> = {
  full: { message: 'The service cannot store data right now: its storage is full. Retry later.', retryAfterSeconds: 60 },
  'read-only': { message: 'The service cannot store data right now: its storage is read-only. Retry later.', retryAfterSeconds: 60 },
  'io-error': { message: 'The service cannot read or write its storage right now (an I/O error). Retry later.', retryAfterSeconds: 10 },
  busy: { message: "The service's database is busy. Retry shortly.", retryAfterSeconds: 1 },
  'cannot-open': { message: 'The service cannot open its database right now. Retry later.', retryAfterSeconds: 10 },
  unreachable: { message: 'The service cannot reach its database right now. Retry later.', retryAfterSeconds: 10 },
};

/** An ajv error as Fastify hands it over (ajv runs with `verbose`, so `data` and `parentSchema` are set). */
interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  data?: unknown;
  parentSchema?: { properties?: Record<string, unknown>; minimum?: number; maximum?: number };
}

/** What a refusal of the body received, from the request's headers: its Content-Type, its length. */
function received(code: string, headers: FastifyRequest['headers'] | undefined): string {
  if (headers === undefined) return '';
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type = headers['content-type'];
    return type === undefined ? ' The request has no Content-Type.' : ` Received Content-Type ${describeValue(type)}.`;
  }
  const length = headers['content-length'];
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && length !== undefined && /^\d+$/.test(length)) return ` Received ${length} bytes.`;
  return '';
}

/**
 * Turns any error into the catalogue error it stands for. With the request's headers, a refused body's
 * message also says what was received.
 */
export function toLocError(error: unknown, headers?: FastifyRequest['headers']): LocError {
  if (error instanceof LocError) return error;
  if (error instanceof StoreUnavailable) {
    const { message, retryAfterSeconds } = UNAVAILABLE[error.reason];
    return new LocError('service_unavailable', message).retryAfter(retryAfterSeconds);
  }
  const fastifyError = error as Partial<FastifyError> & { validation?: SchemaError[]; validationContext?: string };
  if (fastifyError.validation) return validationError(fastifyError.validation[0], fastifyError.validationContext ?? 'body');
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) {
    const message = FASTIFY_MESSAGES[fastifyError.code!] ?? `${ERROR_CATALOGUE[mapped].message} ${fastifyError.message ?? ''}`.trim();
    return new LocError(mapped, `${message}${received(fastifyError.code!, headers)}`);
  }
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new LocError('bad_request', fastifyError.message || ERROR_CATALOGUE.bad_request.message);
  }
  return new LocError('internal_error');
}

/** One schema error as a sentence that names the field and shows what was received. */
function validationError(error: SchemaError, context: string): LocError {
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  const field = (name: string): string => (path ? `${path}.${name}` : name);
  const received = `, received ${describeValue(error.data)}`;
  switch (error.keyword) {
    case 'required': {
      const name = field(String(error.params.missingProperty));
      return new LocError('validation_error', `${name} is required.`, name);
    }
    case 'additionalProperties': {
      const name = field(String(error.params.additionalProperty));
      const known = Object.keys(error.parentSchema?.properties ?? {}).join(', ');
      return new LocError('validation_error', `${name} is not a known field; the known fields are ${known}.`, name);
    }
    case 'minimum':
    case 'maximum': {
      const { minimum, maximum } = error.parentSchema ?? {};
      return new LocError('validation_error', `${path} must be from ${minimum} to ${maximum}${received}.`, path);
    }
    case 'type': {
      const name = path || context;
      const type = String(error.params.type);
      const article = /^[aeiou]/.test(type) ? 'an' : 'a';
      return new LocError('validation_error', `${name} must be ${article} ${type}${received}.`, name);
    }
    case 'enum': {
      const allowed = (error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ');
      return new LocError('validation_error', `${path} must be one of ${allowed}${received}.`, path);
    }
    case 'maxLength':
      return new LocError('validation_error', `${path} must be at most ${error.params.limit} characters${received}.`, path);
    default:
      return new LocError('validation_error', `${path || context} ${error.message ?? 'is not valid'}${received}.`, path || context);
  }
}

export function errorBody(error: LocError): ErrorBody {
  const body: ErrorBody = { success: false, code: error.code, message: error.message, error: error.message };
  if (error.field !== undefined) body.field = error.field;
  return body;
}

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
      // logged where it was decided); anything else that ends in 5xx is a failure to look into.
      if (loc.status >= 500 && !(error instanceof LocError)) request.log.error({ err: error }, 'request failed');
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
  { name: 'loc-errors', fastify: '5.x' },
);
