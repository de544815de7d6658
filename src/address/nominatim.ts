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
