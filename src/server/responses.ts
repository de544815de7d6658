/**
 * The error responses of a route, as its schema declares them to the serializer and to /openapi.json:
 * one response per status, whose body's `code` is the enum of exactly the catalogue codes (src/errors.ts)
 * the route can answer with that status, and a `default` response for the codes any route may answer.
 *
 * Schema metadata only: fast-json-stringify applies no `enum` while serialising, so an error body
 * costs what it cost before.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CATALOGUE, type HttpErrorCode } from '../errors.ts';
import { AUTH_REFUSALS, type AuthMode } from './plugins/auth.ts';
import { ErrorBody } from './schemas.ts';

const statusOf = (code: HttpErrorCode): number => ERROR_CATALOGUE[code].status;

/** The errors of every route with a JSON body. */
export const BODY_ERRORS: HttpErrorCode[] = ['invalid_json', 'unsupported_media_type', 'payload_too_large', 'validation_error'];

/**
 * What any route may answer, whatever it declares: refusals of Node's HTTP parser, of the Host check
 * and of a path that is not validly percent-encoded (plugins/protocol.ts, plugins/errors.ts), a
 * shutdown or a database that cannot serve (503), and a fault of ours (500).
 */
export const ANY_ROUTE_ERRORS: HttpErrorCode[] = ['bad_request', 'request_timeout', 'expectation_failed', 'headers_too_large', 'service_unavailable', 'internal_error'];

export interface ErrorResponsesOptions {
  /**
   * The route's `config.auth`: adds the codes the auth hook refuses a caller with in that mode, the
   * rate limit's 429, and the 503 of a database the hook cannot read.
   */
  auth?: AuthMode;
  /** The route's own codes: its body's, its handler's. */
  codes: HttpErrorCode[];
}

const list = (codes: readonly string[]): string => codes.map((code) => `\`${code}\``).join(', ');

/** The error body whose `code` is one of `codes`. */
function errorBody(codes: HttpErrorCode[], description: string): TSchema {
  return Type.Object(
    { ...ErrorBody.properties, code: Type.Unsafe<HttpErrorCode>({ ...ErrorBody.properties.code, type: 'string', enum: codes }) },
    { additionalProperties: false, description },
  );
}

/**
 * The error responses of a route, by status. A code any route may answer joins the response of its
 * status when the route declares that status (in OpenAPI, `default` covers only the statuses not
 * listed); the others make up `default`, which lists its codes with their statuses.
 */
export function errorResponses({ auth, codes }: ErrorResponsesOptions): Record<number | 'default', TSchema> {
  const own: HttpErrorCode[] = auth === undefined ? codes : [...AUTH_REFUSALS[auth], ...codes, 'rate_limited', 'service_unavailable'];
  const byStatus = new Map<number, HttpErrorCode[]>();
  const add = (code: HttpErrorCode) => {
    const codes = byStatus.get(statusOf(code)) ?? [];
    if (!codes.includes(code)) byStatus.set(statusOf(code), [...codes, code]);
  };
  own.forEach(add);
  const others = ANY_ROUTE_ERRORS.filter((code) => !byStatus.has(statusOf(code)));
  ANY_ROUTE_ERRORS.filter((code) => byStatus.has(statusOf(code))).forEach(add);

  const responses: Record<number | 'default', TSchema> = {
    default: errorBody(others, `Any other refusal or failure, in the same shape: ${others.map((code) => `${statusOf(code)} \`${code}\``).join(', ')}.`),
  };
  for (const [status, codes] of byStatus) responses[status] = errorBody(codes, list(codes));
  return responses;
}
