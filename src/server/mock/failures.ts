/**
 * The failures `loc mock` answers on demand: a queue of error paths an integrator's suite asks for
 * (`--fail CODE[:N]` at start, `POST /_mock/failures` while it runs), each used up by the next N
 * requests it applies to. What a failure applies to is declared here, once: its code says which
 * requests can meet it at all, its scope which of those it takes.
 */

import { describeValue } from '../../errors.ts';
import { ConfigError } from '../config.ts';

/** The control endpoint (plugins/mock-failures.ts); the `/_mock` prefix is one no route of the real service has. */
export const MOCK_FAILURES_PATH = '/_mock/failures';

/** The error paths the mock can be asked for. */
export const FAILURE_CODES = ['rate_limited', 'session_expired', 'invalid_session', 'key_inactive', 'unsupported_location', 'outside_session_area', 'network'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/**
 * Which requests a failure takes: `embed`, POST /v1/embed/resolve and the map frame's calls (made
 * with a session token); `api`, the calls made with an API key; `all`, both.
 */
export const FAILURE_SCOPES = ['embed', 'api', 'all'] as const;
export type FailureScope = (typeof FAILURE_SCOPES)[number];

/** A failure unless told otherwise: the next request, whatever its scope. */
export const DEFAULT_TIMES = 1;
export const DEFAULT_SCOPE: FailureScope = 'all';
/** Most requests one failure may take: enough for any suite, and a typo of 10 000 000 is refused. */
export const MAX_TIMES = 10_000;

export interface Failure {
  code: FailureCode;
  /** Requests it still takes. */
  times: number;
  scope: FailureScope;
}

/** What the service knows of a request when it asks whether a failure takes it. */
export interface FailureTarget {
  /** The route, as declared (`/v1/embed/resolve`). */
  route: string;
  /** How the caller was authenticated; null for requests without a key or a session. */
  via: 'key' | 'session' | null;
}

/** The routes that hand out codes: the only ones `unsupported_location` can answer. */
const LOCATING_ROUTES = new Set(['/v1/embed/resolve', '/v1/loc/generate']);
const EMBED_ROUTE = '/v1/embed/resolve';

/** Whether a request can meet `code` at all, as the real service would answer it. */
function canFail(code: FailureCode, target: FailureTarget): boolean {
  switch (code) {
    // Only a session can expire or be unknown; a disabled key refuses its own calls and its sessions'.
    case 'session_expired':
    case 'invalid_session':
      return target.via === 'session';
    case 'key_inactive':
      return true;
    case 'unsupported_location':
      return LOCATING_ROUTES.has(target.route);
    // Only a session has an area: the map frame's resolve.
    case 'outside_session_area':
      return target.route === EMBED_ROUTE && target.via === 'session';
    case 'rate_limited':
    case 'network':
      return true;
  }
}

function inScope(scope: FailureScope, target: FailureTarget): boolean {
  const embed = target.route === EMBED_ROUTE || target.via === 'session';
  const api = target.via === 'key';
  return scope === 'embed' ? embed : scope === 'api' ? api : embed || api;
}

/** The failures waiting, in the order they were asked for. */
export class FailureQueue {
  private failures: Failure[] = [];

  add(failure: Failure): Failure {
    this.failures.push({ ...failure });
    return { ...failure };
  }

  list(): Failure[] {
    return this.failures.map((failure) => ({ ...failure }));
  }

  /** Whether a failure of `code` is queued. */
  has(code: FailureCode): boolean {
    return this.failures.some((failure) => failure.code === code);
  }

  clear(): void {
    this.failures = [];
  }

  /**
   * The first failure, of `codes`, that takes this request, used once; null when none does. Only
   * requests that reached the service's checks meet one: those with a key or a session it accepted.
   */
  take(target: FailureTarget, codes: readonly FailureCode[]): FailureCode | null {
    if (target.via === null) return null;
    const index = this.failures.findIndex((failure) => codes.includes(failure.code) && canFail(failure.code, target) && inScope(failure.scope, target));
    if (index < 0) return null;
    const failure = this.failures[index];
    failure.times -= 1;
    if (failure.times === 0) this.failures.splice(index, 1);
    return failure.code;
  }
}

/** A `--fail` value, `CODE` or `CODE:N`, as a failure of every scope; a ConfigError says what was expected. */
export function parseFailure(text: string): Failure {
  const match = /^([a-z_]+)(?::(\d+))?$/.exec(text.trim());
  const code = match?.[1] as FailureCode | undefined;
  const times = match?.[2] === undefined ? DEFAULT_TIMES : Number(match[2]);
  if (code === undefined || !FAILURE_CODES.includes(code) || times < 1 || times > MAX_TIMES) {
    throw new ConfigError(`--fail must be CODE or CODE:N, CODE one of ${FAILURE_CODES.join(', ')} and N from 1 to ${MAX_TIMES}, received ${describeValue(text)}.`);
  }
  return { code, times, scope: DEFAULT_SCOPE };
}
