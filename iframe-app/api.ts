/**
 * The frame's client of the loc API: resolve a point, check a token and read its session, fetch the grid
 * table. Every failure becomes a `LocEmbedError` with a stable code, whatever the server or the
 * network did.
 */
import type { GridData, LatLng, SessionInfo } from '../src/embed/protocol.ts';
import type { LocEmbedError, LocErrorCode, LocResolveResult } from '../src/embed/public-types.ts';

/** What a lookup finds the cell of: a point, or a code (`LocHandle.select`). */
export type Target = LatLng | string;

/** Whether the map keeps working after each error (`LocEmbedError.recoverable`). */
export const RECOVERABLE: Record<LocErrorCode, boolean> = {
  session_expired: false,
  invalid_session: false,
  key_inactive: false,
  partner_required: false,
  origin_mismatch: false,
  load_timeout: false,
  rate_limited: true,
  session_limit_reached: false,
  network: true,
  unsupported_location: true,
  invalid_code: true,
  code_not_found: true,
  service_unavailable: true,
  internal_error: true,
};

/** A failure on its way to `onError`. */
export class EmbedFailure extends Error {
  constructor(
    readonly code: LocErrorCode,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  toJSON(): LocEmbedError {
    const error: LocEmbedError = { code: this.code, message: this.message, recoverable: RECOVERABLE[this.code] };
    if (this.retryAfter !== undefined) error.retryAfter = this.retryAfter;
    return error;
  }
}

/** The code of a failed response: the server's own when the embed knows it, else one from the status. */
export function codeOf(status: number, serverCode: unknown): LocErrorCode {
  if (typeof serverCode === 'string' && serverCode in RECOVERABLE) return serverCode as LocErrorCode;
  if (status === 401) return 'invalid_session';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'service_unavailable';
  return 'internal_error';
}

/**
 * Why a reachable service cannot be reached: the frame's calls go to the service's public URL and
 * count on being same-origin there (the API sends no CORS headers). A loader loaded from another name
 * of the service — 127.0.0.1 for localhost, an internal host name — opens the frame on that name, the
 * map draws, and every call fails as if the network were down.
 */
function elsewhere(url: string): string {
  const api = new URL(url).origin;
  const here = globalThis.location?.origin;
  return here && here !== api
    ? ` This map was loaded from ${here}, but the service's public URL (LOC_PUBLIC_URL) is ${api}: load loc-embed.js from ${api}, or set LOC_PUBLIC_URL to ${here}.`
    : '';
}

async function request<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', cache: 'no-store', ...init });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new EmbedFailure('network', `The service could not be reached (${(error as Error)?.message ?? error}).${elsewhere(url)}`);
  }
  const body = (await response.json().catch(() => null)) as { success?: boolean; code?: unknown; message?: unknown } | null;
  if (response.ok && body) return body as T;
  const code = codeOf(response.status, body?.code);
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  const message = typeof body?.message === 'string' ? body.message : `The service answered ${response.status}.`;
  throw new EmbedFailure(code, message, Number.isFinite(retryAfter) ? retryAfter : undefined);
}

/**
 * `POST /v1/embed/resolve`: the code and address of the cell holding `point`, or of the cell a code
 * names; `save` stores it.
 */
export function resolvePoint(apiBase: string, token: string, target: Target, save: boolean, signal?: AbortSignal): Promise<LocResolveResult> {
  const body = typeof target === 'string' ? { code: target, save } : { lat: target.lat, lng: target.lng, save };
  return request(`${apiBase}/v1/embed/resolve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal,
  });
}

/**
 * `GET /embed/session/{sid}` with the token: the session's origin and expiry, once the service has
 * checked that the token is the session's own (`invalid_session` when its secret is not).
 */
export function sessionInfo(apiBase: string, token: string): Promise<SessionInfo> {
  const sid = token.slice(0, token.indexOf('.'));
  return request(`${apiBase}/embed/session/${encodeURIComponent(sid)}`, { headers: { authorization: `Bearer ${token}` } });
}

/** `GET /embed/grid.json`: the band column counts, fetched once when the grid first shows. */
export function gridData(apiBase: string): Promise<GridData> {
  return request(`${apiBase}/embed/grid.json`, { cache: 'default' });
}
