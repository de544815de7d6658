/**
 * The error catalogue: every error code loc reports, with its HTTP status and default message.
 * The codec throws these, the server answers with them, and the embed reports the browser-side ones
 * through `onError`. One list, so a code means the same thing wherever it surfaces.
 */
import { printable, shortened } from './printable.ts';

export interface ErrorSpec {
  /** HTTP status the server answers with; null for errors that only the embed reports. */
  status: number | null;
  /** Default human-readable message. */
  message: string;
}

export const ERROR_CATALOGUE = {
  // Input
  validation_error: { status: 422, message: 'The request is not valid.' },
  bad_request: { status: 400, message: 'The request is malformed.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  unsupported_media_type: { status: 415, message: 'Send the request body as application/json.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  invalid_code: { status: 400, message: 'The code is malformed: expected CC-XXXX-XXXX.' },
  code_not_found: { status: 404, message: 'No cell has this code.' },
  unsupported_location: { status: 422, message: 'The point is outside every supported country.' },
  outside_session_area: { status: 422, message: 'The point is outside the area this embed session allows.' },
  not_found: { status: 404, message: 'There is nothing at this path.' },
  headers_too_large: { status: 431, message: 'The request headers are too large.' },
  request_timeout: { status: 408, message: 'The request did not arrive in time.' },
  expectation_failed: { status: 417, message: 'The Expect header asks for something this service does not do.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  // Authentication and authorisation
  missing_api_key: { status: 401, message: 'Send your API key in the x-api-key header.' },
  invalid_api_key: { status: 401, message: 'The API key is not valid.' },
  key_inactive: { status: 401, message: 'The API key is disabled.' },
  invalid_session: { status: 401, message: 'The session token is not valid.' },
  session_expired: { status: 401, message: 'The embed session has expired.' },
  partner_required: { status: 403, message: 'Only partner accounts can create embed sessions.' },
  origin_not_allowed: { status: 403, message: 'The origin is not registered for this API key.' },
  ip_not_allowed: { status: 403, message: 'Requests from this IP address are not allowed for this API key.' },
  // The partner panel (its pages show these; its page script gets them as JSON)
  sign_in_failed: { status: 401, message: 'The e-mail address or the password is wrong.' },
  sign_in_throttled: { status: 429, message: 'Too many sign-in attempts; wait a few minutes, or sign in with a passkey.' },
  reauthentication_required: { status: 401, message: 'Confirm it is you again before making this change.' },
  panel_writes_throttled: { status: 429, message: 'Too many changes in a few minutes; wait a little before the next one.' },
  operator_required: { status: 403, message: 'Only an operator can make this change; ask one.' },
  csrf_rejected: { status: 403, message: 'The form did not come from this panel; reload the page and try again.' },
  link_invalid: { status: 410, message: 'This link has been used, has expired or was replaced by a newer one; ask for a new one.' },
  // Limits and service
  rate_limited: { status: 429, message: 'The hourly request limit of this API key is used up.' },
  session_limit_reached: { status: 429, message: 'This embed session has made all the requests one session may make.' },
  service_unavailable: { status: 503, message: 'The service cannot handle the request right now.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
  // Reported by the embed only
  origin_mismatch: { status: null, message: 'The page origin does not match the session origin.' },
  load_timeout: { status: null, message: 'The map frame did not load in time.' },
  network: { status: null, message: 'The map could not reach the loc service.' },
  invalid_option: { status: null, message: 'A mount option has a value the map cannot use; it uses its default instead.' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
/** The codes the server answers with, those with a status; the others only the embed reports. */
export type HttpErrorCode = { [C in ErrorCode]: (typeof ERROR_CATALOGUE)[C]['status'] extends number ? C : never }[ErrorCode];

/** An error with a catalogue code; `field` names the input at fault when there is one. */
export class LocError extends Error {
  override readonly name = 'LocError';
  readonly status: number;
  /** Seconds after which a retry may succeed; the server sends it as `Retry-After` (see `retryAfter`). */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].message,
    readonly field?: string,
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code].status ?? 500;
  }

  /** This error, telling the client when a retry may succeed: `Retry-After`, whole seconds, at least 1. */
  retryAfter(seconds: number): this {
    this.retryAfterSeconds = Math.max(1, Math.ceil(seconds));
    return this;
  }

  toJSON(): { code: ErrorCode; message: string; field?: string } {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

/** Longest part of a received string a message quotes, in characters. */
const QUOTED_MAX = 40;

/**
 * Shows a received value in a message: strings quoted, cut after QUOTED_MAX characters, with what
 * could hide or reorder text escaped (printable.ts); the rest as JSON would write them, NaN kept.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return printable(JSON.stringify(shortened(value, QUOTED_MAX)));
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return 'an object';
}
