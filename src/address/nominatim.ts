/**
 * A Nominatim-compatible reverse geocoder (`GET {url}/reverse?format=jsonv2&lat=…&lon=…`) for street
 * addresses, used only when the operator configures one. It must never make the API slow or fail:
 * each call has a timeout, answers are cached per cell, and after a failure the geocoder is left alone
 * for a while — callers fall back to the offline address whenever this answers null.
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
}

export type ReverseGeocoder = (cellCode: string, lat: number, lng: number) => Promise<string | null>;

export function nominatimGeocoder(options: NominatimOptions): ReverseGeocoder {
  const { url, timeoutMs, userAgent, now, cacheSize = 10_000, backoffMs = 30_000 } = options;
  const base = url.replace(/\/+$/, '');
  const cache = new BoundedCache<string>(cacheSize);
  let resumeAt = 0;

  return async (cellCode, lat, lng) => {
    const cached = cache.get(cellCode);
    if (cached !== undefined) return cached;
    if (now() < resumeAt) return null;
    try {
      const query = new URLSearchParams({ format: 'jsonv2', lat: String(lat), lon: String(lng), zoom: '18', addressdetails: '0' });
      const response = await fetch(`${base}/reverse?${query}`, {
        headers: { 'user-agent': userAgent, accept: 'application/json', 'accept-language': 'en' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body = (await response.json()) as { display_name?: unknown };
      // "Unable to geocode" (open sea) is an answer, not a failure: no street address here.
      if (typeof body.display_name !== 'string' || body.display_name.trim() === '') return null;
      const address = body.display_name.trim().slice(0, 300);
      cache.set(cellCode, address);
      return address;
    } catch {
      resumeAt = now() + backoffMs;
      return null;
    }
  };
}
