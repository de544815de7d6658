/**
 * The frame's client of the loc API: resolve a point, check a token and read its session, fetch the grid
 * table. Every failure becomes a `LocEmbedError` with a stable code, whatever the server or the
 * network did.
 */
import type { GridData, LatLng, SessionInfo } from '../src/embed/protocol.ts';
import type { LocEmbedError, LocErrorCode, LocResolveResult } from '../src/embed/public-types.ts';
import { RECOVERABLE } from '../src/embed/recoverable.ts';
import { currentLocale } from './i18n.ts';

/** What a lookup finds the cell of: a point, or a code (`LocHandle.select`). */
export type Target = LatLng | string;

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

/** The answer's body, and the service's clock when it answered (its `Date`, to the second; NaN without one). */
async function respond<T>(url: string, init: RequestInit): Promise<{ body: T; serviceNow: number }> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', cache: 'no-store', ...init });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new EmbedFailure('network', `The service could not be reached (${(error as Error)?.message ?? error}).${elsewhere(url)}`);
  }
  const body = (await response.json().catch(() => null)) as { success?: boolean; code?: unknown; message?: unknown } | null;
  if (response.ok && body) return { body: body as T, serviceNow: Date.parse(response.headers.get('date') ?? '') };
  const code = codeOf(response.status, body?.code);
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  const message = typeof body?.message === 'string' ? body.message : `The service answered ${response.status}.`;
  throw new EmbedFailure(code, message, Number.isFinite(retryAfter) ? retryAfter : undefined);
}

const request = async <T>(url: string, init: RequestInit): Promise<T> => (await respond<T>(url, init)).body;

/**
 * `POST /v1/embed/resolve`: the code and address of the cell holding `point`, or of the cell a code
 * names; `save` stores it.
 */
export function resolvePoint(apiBase: string, token: string, target: Target, save: boolean, signal?: AbortSignal): Promise<LocResolveResult> {
  const body = typeof target === 'string' ? { code: target, save } : { lat: target.lat, lng: target.lng, save };
  return request(`${apiBase}/v1/embed/resolve`, {
    method: 'POST',
    // The address in the frame's language, where the service's geocoder has it.
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': currentLocale() },
    body: JSON.stringify(body),
    signal,
  });
}

/**
 * `GET /embed/session/{sid}` with the token: the session's origin and expiry, once the service has
 * checked that the token is the session's own (`invalid_session` when its secret is not), and the
 * service's clock as it answered, which times that expiry (expiry.ts).
 */
export function sessionInfo(apiBase: string, token: string): Promise<{ body: SessionInfo; serviceNow: number }> {
  const sid = token.slice(0, token.indexOf('.'));
  return respond(`${apiBase}/embed/session/${encodeURIComponent(sid)}`, { headers: { authorization: `Bearer ${token}` } });
}

/** A result of `GET /v1/loc/search`, as the frame reads it (the service's SearchCode, SearchCoordinates, SearchPlace). */
export interface SearchHit {
  latitude: number;
  longitude: number;
  distance_m?: number;
  in_area?: boolean;
  /** A code's. */
  loc_code?: string;
  match?: 'exact' | 'look_alike' | 'transposition' | 'extra_character' | 'missing_character';
  /** A place's. */
  name?: string;
  country?: string | null;
  admin?: string | null;
  /** A point's. */
  swapped?: boolean;
}

export interface SearchAnswer {
  kind: 'code' | 'coordinates' | 'places';
  normalized: string | null;
  results: SearchHit[];
}

export interface SearchQuery {
  q: string;
  focus: LatLng;
  /** Enter was pressed: the service may ask its geocoder too. */
  forward: boolean;
}

/** `GET /v1/loc/search` with the session's token: what the visitor typed, read by the service. */
export function searchText(apiBase: string, token: string, { q, focus, forward }: SearchQuery, signal: AbortSignal): Promise<SearchAnswer> {
  const query = new URLSearchParams({ q, focus: `${focus.lat.toFixed(6)},${focus.lng.toFixed(6)}` });
  if (forward) query.set('forward', '1');
  // The frame's own language (its <html lang>), for the places the service's geocoder names.
  const language = globalThis.document?.documentElement.lang || 'en';
  return request(`${apiBase}/v1/loc/search?${query}`, { headers: { authorization: `Bearer ${token}`, 'accept-language': language }, signal });
}

/** `GET /embed/grid.json`: the band column counts, fetched once when the grid first shows. */
export function gridData(apiBase: string): Promise<GridData> {
  return request(`${apiBase}/embed/grid.json`, { cache: 'default' });
}
