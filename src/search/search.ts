/**
 * Search: what a visitor typed into the map's search box, read as the one thing it can be — a
 * coordinate pair (search/coordinates.ts), a loc code (suggest.ts, typos and all), or the
 * start of a place's name (address/place-names.ts, and the geocoder's forward search when the
 * operator turned it on and the visitor pressed Enter). Nothing is chosen here: the answer lists, the
 * visitor picks.
 *
 * A code is ten letters and digits, and so is `Washington`: text is taken for a code when it is
 * written like one (a digit, or the hyphens or spaces of `FR-0RMB-CLY0`), and for a name otherwise —
 * unless no place has that name and it does spell a code, or one slip away from one.
 */
import { RAD, distanceOfH, haverSin } from '../address/haversine.ts';
import type { ForwardGeocoder } from '../address/nominatim.ts';
import { PLACES_MAX, searchPlaces } from '../address/place-names.ts';
import { countryName } from '../code/index.ts';
import { CODE_LENGTH, readTyped } from '../code/typos.ts';
import { LocError } from '../errors.ts';
import { parseCoordinates } from './coordinates.ts';
import type { Bounds } from '../store/store.ts';
import type { Served } from '../cells/locate.ts';
import { boundsHold } from '../cells/session-area.ts';
import { suggest, type Focus, type SuggestedCell, type Suggestion } from './suggest.ts';

export type SearchKind = 'code' | 'coordinates' | 'places';

/** The area a session allows; null parts allow anything. */
export interface Area {
  countries: readonly string[] | null;
  bounds: Bounds | null;
}

export interface SearchRequest {
  q: string;
  focus?: Focus;
  /** Only these countries: codes suggested, places listed. */
  countries?: ReadonlySet<string>;
  /** The caller's session's area: codes suggested within it, places in it first, each result says whether it is in it. */
  area?: Area;
  /** Enter was pressed: the geocoder may be asked too. */
  forward?: boolean;
  /** The language the geocoder names places in (a BCP 47 tag); English without one. */
  language?: string;
}

interface InArea {
  /** Whether it lies in the session's area; only when the session has one. */
  in_area?: boolean;
}

export interface CodeResult extends SuggestedCell, InArea {
  /** `exact`: the code as typed names this cell; else the slip that would have turned this code into the input. */
  match: 'exact' | Suggestion['reason'];
}

export interface CoordinatesResult extends InArea {
  latitude: number;
  longitude: number;
  /** Read as longitude, latitude (search/coordinates.ts). */
  swapped: boolean;
  distance_m?: number;
}

export interface PlaceResult extends InArea {
  name: string;
  country_code: string | null;
  /** The country's English name; null when the geocoder named none. */
  country: string | null;
  /** The region the geocoder names; the offline places name none. */
  admin: string | null;
  latitude: number;
  longitude: number;
  distance_m?: number;
  source: 'places' | 'geocoder';
}

export type SearchAnswer =
  | { kind: 'code'; normalized: string; results: CodeResult[] }
  | { kind: 'coordinates'; normalized: null; results: CoordinatesResult[] }
  | { kind: 'places'; normalized: null; results: PlaceResult[] };

/**
 * Text written as a code: ten letters and digits (one more or less for a slip) with a digit among
 * them, or grouped as a code is, two letters and two groups of four (`fr 0rmb cly0`). Ten letters
 * otherwise are a name first (`Washington`, `St Louis Park`).
 */
function writtenAsCode(q: string): boolean {
  const chars = readTyped(q);
  if (chars === null || Math.abs(chars.length - CODE_LENGTH) > 1) return false;
  return /\d/.test(chars) || /^[a-z]{2}[\s-][a-z0-9]{4}[\s-][a-z0-9]{4}$/i.test(q);
}

export interface SearchDeps {
  config: Pick<Served, 'supportedCountries'>;
  forwardGeocoder: ForwardGeocoder | null;
}

export async function search({ config, forwardGeocoder }: SearchDeps, request: SearchRequest): Promise<SearchAnswer> {
  const { focus, area } = request;
  const q = request.q.trim();
  if (q === '') throw new LocError('validation_error', 'q must be the text to search for: a place name, coordinates or a code; received only spaces.', 'q');
  const inArea = (lat: number, lng: number, country: string | null): boolean =>
    area !== undefined &&
    (area.countries === null || (country !== null && area.countries.includes(country))) &&
    (area.bounds === null || boundsHold(area.bounds, lat, lng));
  const flag = <T extends InArea>(result: T, lat: number, lng: number, country: string | null): T => {
    if (area !== undefined) result.in_area = inArea(lat, lng, country);
    return result;
  };
  const distance = (lat: number, lng: number) => (focus === undefined ? {} : { distance_m: distanceM(focus, lat, lng) });

  const point = parseCoordinates(q);
  if (point !== null) {
    const { lat, lng, swapped } = point;
    const result: CoordinatesResult = { latitude: lat, longitude: lng, swapped, ...distance(lat, lng) };
    // A bare point has no country until it is resolved: judged only where the area is a box alone.
    if (area !== undefined && area.countries === null) flag(result, lat, lng, null);
    return { kind: 'coordinates', normalized: null, results: [result] };
  }

  // A session's countries narrow the codes suggested, as the call's own do.
  const countries = area?.countries ? new Set([...area.countries].filter((c) => request.countries?.has(c) ?? true)) : request.countries;
  const asCode = (): SearchAnswer | null => {
    let answer;
    try {
      answer = suggest(config, { input: q, focus, countries });
    } catch (error) {
      if (error instanceof LocError && error.code === 'invalid_code') return null;
      throw error;
    }
    const results: CodeResult[] = [];
    if (answer.exact !== null) results.push({ ...answer.exact, match: 'exact' });
    for (const { reason, ...cell } of answer.suggestions) results.push({ ...cell, match: reason });
    for (const result of results) flag(result, result.latitude, result.longitude, result.country_code);
    return { kind: 'code', normalized: answer.normalized, results };
  };

  const codeFirst = writtenAsCode(q);
  if (codeFirst) {
    const code = asCode();
    if (code !== null) return code;
  }
  // Places where the service hands out no codes are left out: the visitor could choose nothing there.
  // A session's area only ranks them (and says in_area): the visitor may look beyond it.
  const only = request.countries ?? config.supportedCountries ?? undefined;
  const places = searchPlaces(q, { focus, preferred: area === undefined ? undefined : inArea, only }).map(({ distance_m, ...place }) =>
    flag<PlaceResult>(
      { ...place, country: countryName(place.country_code), admin: null, ...(distance_m === undefined ? {} : { distance_m }), source: 'places' },
      place.latitude,
      place.longitude,
      place.country_code,
    ),
  );
  if (request.forward && forwardGeocoder !== null) {
    for (const found of (await forwardGeocoder(q, only && [...only], request.language)) ?? []) {
      // Asked for those countries only, but a geocoder may not listen.
      if (only !== undefined && (found.country_code === null || !only.has(found.country_code))) continue;
      // The offline list already has it: same name, within 5 km.
      if (places.some((p) => p.name === found.name && distanceM(p, found.latitude, found.longitude) < 5000)) continue;
      places.push(flag<PlaceResult>({
        name: found.name,
        country_code: found.country_code,
        country: found.country_code === null ? null : countryName(found.country_code),
        admin: found.admin,
        latitude: found.latitude,
        longitude: found.longitude,
        ...distance(found.latitude, found.longitude),
        source: 'geocoder',
      }, found.latitude, found.longitude, found.country_code));
    }
  }
  if (places.length === 0 && !codeFirst && readTyped(q) !== null) {
    const code = asCode();
    if (code !== null && code.results.length > 0) return code;
  }
  return { kind: 'places', normalized: null, results: places.slice(0, PLACES_MAX * 2) };
}

/** Great-circle distance, whole metres, as suggest and the place search measure it. */
function distanceM(from: { lat: number; lng: number } | { latitude: number; longitude: number }, lat: number, lng: number): number {
  const [lat1, lng1] = 'lat' in from ? [from.lat, from.lng] : [from.latitude, from.longitude];
  const h = haverSin((lat - lat1) * RAD) + Math.cos(lat1 * RAD) * Math.cos(lat * RAD) * haverSin((lng - lng1) * RAD);
  return Math.round(distanceOfH(Math.min(1, h)) * 1000);
}
