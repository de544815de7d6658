/**
 * The area of an embed session: the countries and the box its visitors may choose points in, given
 * when the partner's server creates the session. What a field's schema cannot check is checked here
 * at creation; at resolve, a cell outside the area is refused with `outside_session_area`.
 *
 * A cell is judged by its centre, the point resolve answers with, whether it was chosen by a click or
 * by its code: the same cell is then always allowed or always refused, however it is chosen.
 */
import { arcWidth, countriesViewBox } from '../code/country-bounds.ts';
import { countryName, type LocatedCell } from '../code/index.ts';
import { LocError } from '../errors.ts';
import type { Bounds, EmbedSession } from '../store/store.ts';
import { servedCountries, type Served } from './locate.ts';

export interface SessionArea {
  countries: string[] | null;
  bounds: Bounds | null;
}

/**
 * The area a session request asks for, refused with `validation_error` naming the field: a country the
 * service does not hand codes out in, a box whose south is not below its north, or whose west equals
 * its east (an empty box, or the whole world: either way not what was meant), or whose west is 180 and
 * east -180 (the same meridian again, across the antimeridian).
 */
export function checkArea(config: Pick<Served, 'supportedCountries'>, area: Partial<SessionArea>): SessionArea {
  const { countries = null, bounds = null } = area;
  if (countries !== null) {
    const { countries: supported, served } = servedCountries(config);
    countries.forEach((country, index) => {
      if (supported.has(country)) return;
      throw new LocError('validation_error', `countries.${index} must be a country this service hands codes out in (${served}), received "${country}".`, `countries.${index}`);
    });
  }
  if (bounds !== null) {
    if (!(bounds.south < bounds.north)) {
      throw new LocError('validation_error', `bounds.north must be greater than bounds.south, received south ${bounds.south} and north ${bounds.north}.`, 'bounds.north');
    }
    // 180 and -180 are one meridian: from there eastwards to itself is a box no point is inside.
    if (bounds.west === 180 && bounds.east === -180) {
      throw new LocError(
        'validation_error',
        'bounds.east must name another meridian than bounds.west (180 and -180 are the same one, a box of no width), received west 180 and east -180; for every longitude send west -180 and east 180.',
        'bounds.east',
      );
    }
    if (bounds.west === bounds.east) {
      throw new LocError(
        'validation_error',
        `bounds.east must differ from bounds.west (west greater than east is a box across the antimeridian), received ${bounds.east} for both.`,
        'bounds.east',
      );
    }
  }
  return { countries, bounds };
}

/** The area in words, for messages: what the session allows. */
function describeArea({ countries, bounds }: SessionArea): string {
  const parts: string[] = [];
  if (countries !== null) parts.push(`in ${countries.join(', ')}`);
  if (bounds !== null) {
    const across = bounds.west > bounds.east ? ', across the antimeridian' : '';
    parts.push(`within south ${bounds.south}, west ${bounds.west}, north ${bounds.north}, east ${bounds.east}${across}`);
  }
  return parts.join(' and ');
}

/** Whether the box holds a point, edges included. */
export function boundsHold(bounds: Bounds, lat: number, lng: number): boolean {
  if (lat < bounds.south || lat > bounds.north) return false;
  return bounds.west <= bounds.east ? lng >= bounds.west && lng <= bounds.east : lng >= bounds.west || lng <= bounds.east;
}

/**
 * Refuses a cell outside the session's area with `outside_session_area`, saying which part of the area
 * it fails — the countries first — and what the whole area is. A session without an area allows any cell.
 */
export function assertInArea(session: Pick<EmbedSession, 'countries' | 'bounds'>, cell: LocatedCell): void {
  const area = { countries: session.countries, bounds: session.bounds };
  const whole = describeArea(area);
  if (area.countries !== null && !area.countries.includes(cell.country_code)) {
    throw new LocError(
      'outside_session_area',
      `The point is in ${countryName(cell.country_code)} (${cell.country_code}), not in the countries this embed session allows: it allows points ${whole}.`,
    );
  }
  if (area.bounds !== null && !boundsHold(area.bounds, cell.latitude, cell.longitude)) {
    throw new LocError(
      'outside_session_area',
      `The point (its cell centre ${cell.latitude}, ${cell.longitude}) is outside the bounds this embed session allows: it allows points ${whole}.`,
    );
  }
}

/**
 * The box the frame keeps the map's view in (FrameConfig.bounds), or null to leave it free: the
 * session's `bounds` when it has only those, its countries' box (country-bounds.ts) when it has only
 * countries, and where both overlap when it has both — the points it allows lie in both, and the
 * overlap is never larger than either, so a box drawn round a city in a large country keeps the view on
 * the city. Where they do not overlap the session allows no point at all; the view is then kept in
 * `bounds`, which is what the partner wrote.
 */
export function viewBounds({ countries, bounds }: SessionArea): Bounds | null {
  const countriesBox = countries === null ? null : countriesViewBox(countries);
  if (bounds === null || countriesBox === null) return bounds ?? countriesBox;
  return overlap(bounds, countriesBox) ?? bounds;
}

/**
 * Where two boxes overlap, or null where they do not. Two boxes that reach round the world from
 * either side can overlap in two pieces; then the narrower box, which holds both, stands for them.
 */
function overlap(a: Bounds, b: Bounds): Bounds | null {
  const south = Math.max(a.south, b.south);
  const north = Math.min(a.north, b.north);
  if (south >= north) return null;
  // Longitudes as arcs from a's west: where b starts, and where each ends, eastwards.
  const aWidth = arcWidth(a);
  const bWidth = arcWidth(b);
  const bStart = (((b.west - a.west) % 360) + 360) % 360;
  const first = bStart < aWidth ? { from: bStart, to: Math.min(aWidth, bStart + bWidth) } : null;
  const second = bStart + bWidth > 360 ? { from: 0, to: Math.min(aWidth, bStart + bWidth - 360) } : null;
  if (first && second) return aWidth <= bWidth ? { ...a, south, north } : { ...b, south, north };
  const piece = first ?? second;
  if (!piece) return null;
  // Each edge of the overlap is an edge of one of the boxes: taken as written, not through the arithmetic.
  return { south, west: piece.from === 0 ? a.west : b.west, north, east: piece.to === aWidth ? a.east : b.east };
}
