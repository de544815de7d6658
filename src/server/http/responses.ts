/**
 * What a route's responses carry besides their body, as its schema declares them to the serializer and
 * to /openapi.json: one error response per status, whose body's `code` is the enum of exactly the
 * catalogue codes (src/errors.ts) the route can answer with that status, a `default` response for the
 * codes any route may answer, and the headers each response carries.
 *
 * Schema metadata only: fast-json-stringify applies no `enum` while serialising and ignores `headers`,
 * so a response costs what it cost before.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CATALOGUE, type HttpErrorCode } from '../../errors.ts';
import { AUTH_REFUSALS, type AuthMode } from '../plugins/auth.ts';
import { ErrorBody } from './schemas.ts';

const statusOf = (code: HttpErrorCode): number => ERROR_CATALOGUE[code].status;

/**
 * A response header as @fastify/swagger reads it from a response schema's `headers`: `description`
 * goes to the header object and the rest, unconverted, becomes its schema, so it is written in
 * OpenAPI 3.0 (`enum`, not TypeBox's `const`). A header read that way cannot be marked required: each
 * description says when its header is sent.
 */
export interface HeaderSchema {
  type: 'string' | 'integer';
  description: string;
  enum?: string[];
  minimum?: number;
}
export type ResponseHeaders = Readonly<Record<string, HeaderSchema>>;

/** A response schema with the headers the response carries. */
export function withHeaders<T extends TSchema>(schema: T, ...headers: ResponseHeaders[]): T {
  return { ...schema, headers: Object.assign({}, ...headers) };
}

/** What plugins/rate-limit.ts sends once it has counted a request. */
export const RATE_LIMIT_HEADERS: ResponseHeaders = {
  'RateLimit-Limit': {
    type: 'integer',
    minimum: 1,
    description:
      'Requests allowed by the budget this request drew from: the key’s calls of this clock hour (UTC) for a call made with the key; for ' +
      'a call made with an embed session, whichever has fewer left of the session’s own budget and the key’s embed budget of this hour. ' +
      'Sent with every answer to a request whose key or session was accepted, never with a refusal of the key or session.',
  },
  'RateLimit-Remaining': { type: 'integer', minimum: 0, description: 'Requests that budget has left.' },
  'RateLimit-Reset': { type: 'integer', minimum: 1, description: 'Seconds until that budget’s window ends: the end of the hour, or of the session.' },
};

/** With 429 `rate_limited` and with every 503 `service_unavailable` (LocError.retryAfter). */
const RETRY_AFTER: ResponseHeaders = {
  'Retry-After': {
    type: 'integer',
    minimum: 1,
    description: 'Seconds after which a retry may succeed: with 429, until the hour ends; with 503, 1 for a shutdown or a locked database, 2 for an overloaded server, 60 for a full disk. Retry then, with backoff and jitter.',
  },
};
const RETRIED: HttpErrorCode[] = ['rate_limited', 'service_unavailable'];

/** What the rate limit refuses with, by the credentials a route accepts: only sessions have a budget of their own. */
const LIMIT_REFUSALS: Readonly<Record<AuthMode, readonly HttpErrorCode[]>> = {
  key: ['rate_limited'],
  partner: ['rate_limited'],
  'key-or-session': ['rate_limited', 'session_limit_reached'],
};

export const NO_STORE: ResponseHeaders = {
  'Cache-Control': { type: 'string', enum: ['no-store'], description: 'No cache may keep the answer.' },
};

/** The errors of every route with a JSON body. */
export const BODY_ERRORS: HttpErrorCode[] = ['invalid_json', 'unsupported_media_type', 'payload_too_large', 'validation_error'];

/**
 * What any route may answer, whatever it declares: refusals of Node's HTTP parser, of the Host check
 * and of a path that is not validly percent-encoded (plugins/protocol.ts, plugins/errors.ts), a
 * shutdown or a database that cannot serve (503), and a fault of ours (500).
 */
export const ANY_ROUTE_ERRORS: HttpErrorCode[] = ['bad_request', 'request_timeout', 'expectation_failed', 'headers_too_large', 'service_unavailable', 'internal_error'];

/**
 * Of those, the ones answered before any route's hook runs, so without the route's headers or the rate
 * limit's. (A 503 comes before routing while the service shuts down, but also from a database that
 * fails later; a 500, wherever the fault is.)
 */
const BEFORE_ROUTING: HttpErrorCode[] = ['bad_request', 'request_timeout', 'expectation_failed', 'headers_too_large'];

export interface ErrorResponsesOptions {
  /**
   * The route's `config.auth`: adds the codes the auth hook refuses a caller with in that mode, the
   * rate limit's 429s, and the 503 of a database the hook cannot read.
   */
  auth?: AuthMode;
  /** The route's own codes: its body's, its handler's. */
  codes: HttpErrorCode[];
  /** Headers the route sets on every request as it arrives: every routed answer carries them. */
  headers?: ResponseHeaders;
}

const list = (codes: readonly string[]): string => codes.map((code) => `\`${code}\``).join(', ');

/** The error body whose `code` is one of `codes`. */
function errorBody(codes: HttpErrorCode[], description: string): TSchema {
  return Type.Object(
    { ...ErrorBody.properties, code: Type.Unsafe<HttpErrorCode>({ type: 'string', enum: codes, description: ErrorBody.properties.code.description }) },
    { additionalProperties: false, description },
  );
}

/**
 * The error responses of a route, by status. A code any route may answer joins the response of its
 * status when the route declares that status (in OpenAPI, `default` covers only the statuses not
 * listed); the others make up `default`, which lists its codes with their statuses.
 *
 * A response lists the headers that some answer of its status carries: the route's own unless every
 * code of the status is answered before routing, and the rate limit's unless every code is also, or
 * is a refusal of the key or session (which the rate limit never counts).
 */
export function errorResponses({ auth, codes, headers = {} }: ErrorResponsesOptions): Record<number | 'default', TSchema> {
  const own: HttpErrorCode[] = auth === undefined ? codes : [...AUTH_REFUSALS[auth], ...codes, ...LIMIT_REFUSALS[auth], 'service_unavailable'];
  const byStatus = new Map<number, HttpErrorCode[]>();
  const add = (code: HttpErrorCode) => {
    const listed = byStatus.get(statusOf(code)) ?? [];
    if (!listed.includes(code)) byStatus.set(statusOf(code), [...listed, code]);
  };
  own.forEach(add);
  const others = ANY_ROUTE_ERRORS.filter((code) => !byStatus.has(statusOf(code)));
  ANY_ROUTE_ERRORS.filter((code) => byStatus.has(statusOf(code))).forEach(add);

  const uncounted = [...BEFORE_ROUTING, ...(auth === undefined ? [] : AUTH_REFUSALS[auth].filter((code) => !codes.includes(code)))];
  const response = (answered: HttpErrorCode[], description: string): TSchema => {
    const carried: ResponseHeaders[] = [];
    if (answered.some((code) => !BEFORE_ROUTING.includes(code))) carried.push(headers);
    if (auth !== undefined && answered.some((code) => !uncounted.includes(code))) carried.push(RATE_LIMIT_HEADERS);
    if (answered.some((code) => RETRIED.includes(code))) carried.push(RETRY_AFTER);
    const body = errorBody(answered, description);
    return carried.some((set) => Object.keys(set).length > 0) ? withHeaders(body, ...carried) : body;
  };

  const responses: Record<number | 'default', TSchema> = {
    default: response(others, `Any other refusal or failure, in the same shape: ${others.map((code) => `${statusOf(code)} \`${code}\``).join(', ')}.`),
  };
  for (const [status, answered] of byStatus) responses[status] = response(answered, list(answered));
  return responses;
}
