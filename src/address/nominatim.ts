/**
 * A Nominatim-compatible reverse geocoder (`GET {url}/reverse?format=jsonv2&lat=…&lon=…`) for street
 * addresses, used only when the operator configures one. It must never make the API slow or fail:
 * each call has a timeout, answers are cached per cell, and after a failure the geocoder is left alone
 * for a while — callers fall back to the offline address whenever this answers null.
 *
 * Nor may the service become a way to flood it: the share page asks for the address of any code, to
 * anyone, without a key, so a client asking for many codes at once would otherwise have the service
 * open a request to the geocoder for each (a thousand concurrent page requests, a thousand outbound
 * connections). At most `maxInFlight` requests are open at a time, one per cell however many ask for
 * it; beyond that the answer is null, the offline address, until one finishes.
 *
 * Each answer is in the language asked for (`accept-language`: the names OpenStreetMap has in it, the
 * local names where it has none), cached per cell and language.
 */

import { BoundedCache } from '../bounded-cache.ts';

export interface NominatimOptions {
  /** Base URL, e.g. `https://nominatim.example.org`. */
  url: string;
  timeoutMs: number;
  /** Nominatim's usage policy asks every client to identify itself. */
  userAgent: string;
  now: () => number;
  /** Cells remembered; the oldest is forgotten first. */
  cacheSize?: number;
  /** After a failure, skip the geocoder this long. */
  backoffMs?: number;
  /** Requests open to the geocoder at most; more at once get null. */
  maxInFlight?: number;
}

/** Requests open to the geocoder at most, by default: a Nominatim of one's own serves this many at once easily. */
export const GEOCODER_MAX_IN_FLIGHT = 16;

/** `language`: a BCP 47 tag, English by default. */
export type ReverseGeocoder = (cellCode: string, lat: number, lng: number, language?: string) => Promise<string | null>;

export function nominatimGeocoder(options: NominatimOptions): ReverseGeocoder {
  const { url, timeoutMs, userAgent, now, cacheSize = 10_000, backoffMs = 30_000, maxInFlight = GEOCODER_MAX_IN_FLIGHT } = options;
  const base = url.replace(/\/+$/, '');
  const cache = new BoundedCache<string>(cacheSize);
  const inFlight = new Map<string, Promise<string | null>>();
  let resumeAt = 0;

  const ask = async (key: string, lat: number, lng: number, language: string): Promise<string | null> => {
    try {
      const query = new URLSearchParams({ format: 'jsonv2', lat: String(lat), lon: String(lng), zoom: '18', addressdetails: '0' });
      const response = await fetch(`${base}/reverse?${query}`, {
        headers: { 'user-agent': userAgent, accept: 'application/json', 'accept-language': language },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body = (await response.json()) as { display_name?: unknown };
      // "Unable to geocode" (open sea) is an answer, not a failure: no street address here.
      if (typeof body.display_name !== 'string' || body.display_name.trim() === '') return null;
      const address = body.display_name.trim().slice(0, 300);
      cache.set(key, address);
      return address;
    } catch {
      resumeAt = now() + backoffMs;
      return null;
    }
  };

  return async (cellCode, lat, lng, language = 'en') => {
    const key = `${language} ${cellCode}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const asked = inFlight.get(key);
    if (asked !== undefined) return asked;
    if (now() < resumeAt || inFlight.size >= maxInFlight) return null;
    const answer = ask(key, lat, lng, language).finally(() => inFlight.delete(key));
    inFlight.set(key, answer);
    return answer;
  };
}

/** A place the geocoder's forward search found. */
export interface GeocodedPlace {
  name: string;
  /** ISO 3166-1 alpha-2, upper case; null when the geocoder did not say. */
  country_code: string | null;
  /** The region (state, province, county) the geocoder names, when it names one. */
  admin: string | null;
  latitude: number;
  longitude: number;
}

/** Places one forward search asks the geocoder for. */
export const FORWARD_LIMIT = 5;

/**
 * The geocoder's forward search, when the operator turns it on too: `GET {url}/search?format=jsonv2&q=…&limit=5`,
 * held to the reverse geocoder's timeout, pause after a failure and bound on open requests; null when
 * it fails or times out (the caller answers with the offline places alone). Asked only when the
 * visitor presses Enter, never as they type: public Nominatim instances forbid autocomplete traffic in
 * their usage policy, and an operator's own instance would take a request per keystroke of every
 * visitor. No cache: Enter on the same text is rare, and a place's name may mean another place tomorrow.
 * `language`, a BCP 47 tag (English by default), names the places in it where OpenStreetMap can.
 */
export type ForwardGeocoder = (query: string, countries?: readonly string[], language?: string) => Promise<GeocodedPlace[] | null>;

export function nominatimSearch(options: Pick<NominatimOptions, 'url' | 'timeoutMs' | 'userAgent' | 'now' | 'backoffMs' | 'maxInFlight'>): ForwardGeocoder {
  const { url, timeoutMs, userAgent, now, backoffMs = 30_000, maxInFlight = GEOCODER_MAX_IN_FLIGHT } = options;
  const base = url.replace(/\/+$/, '');
  let inFlight = 0;
  let resumeAt = 0;

  return async (query, countries, language = 'en') => {
    if (now() < resumeAt || inFlight >= maxInFlight) return null;
    inFlight++;
    try {
      const params = new URLSearchParams({ format: 'jsonv2', q: query, limit: String(FORWARD_LIMIT), addressdetails: '1' });
      if (countries !== undefined && countries.length > 0) params.set('countrycodes', countries.join(',').toLowerCase());
      const response = await fetch(`${base}/search?${params}`, {
        headers: { 'user-agent': userAgent, accept: 'application/json', 'accept-language': language },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body = (await response.json()) as unknown;
      if (!Array.isArray(body)) throw new Error('not a list');
      return body.flatMap((entry) => geocoded(entry as NominatimPlace));
    } catch {
      resumeAt = now() + backoffMs;
      return null;
    } finally {
      inFlight--;
    }
  };
}

interface NominatimPlace {
  name?: unknown;
  display_name?: unknown;
  lat?: unknown;
  lon?: unknown;
  address?: Record<string, unknown>;
}

/** One entry of the geocoder's answer, or none when it lacks a name or a point in range. */
function geocoded({ name, display_name, lat, lon, address }: NominatimPlace): GeocodedPlace[] {
  const latitude = Number(lat);
  const longitude = Number(lon);
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : null);
  const label = text(name) ?? text(display_name)?.split(',')[0].trim() ?? null;
  if (label === null || !(Math.abs(latitude) <= 90) || !(Math.abs(longitude) <= 180)) return [];
  const country = text(address?.country_code);
  return [{
    name: label,
    country_code: country !== null && /^[a-z]{2}$/i.test(country) ? country.toUpperCase() : null,
    admin: text(address?.state) ?? text(address?.province) ?? text(address?.county) ?? text(address?.region),
    latitude,
    longitude,
  }];
}
