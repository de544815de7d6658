/**
 * What the search box lists, in words: each result of a search (or coordinates read in the frame) as
 * an option with a name and a line under it, the status line over the list ("Did you mean"), and the
 * box's other strings. Kept together, in TEXT, so that the frame's catalogues can take them over; the
 * box's static words (its name, placeholder, the list's name, the question's buttons) are frame.html's.
 */
import { FAR_M } from '../src/code/typos.ts';
import type { Coordinates } from '../src/search/coordinates.ts';
import type { SearchAnswer, SearchHit } from './api.ts';

/** The box's words, English. */
export const TEXT = {
  coordinates: 'Coordinates',
  swapped: 'Read as longitude, latitude',
  exact: 'Location code',
  didYouMean: (code: string) => `Did you mean ${code}?`,
  fromMap: (distance: string) => `${distance} from the map`,
  outsideArea: 'outside the area this site accepts',
  noPlace: (q: string) => `No place starts with “${q}”.`,
  noCode: 'No location has this code, nor any code one slip away from it.',
  notACode: 'No location has this code. Did you mean one of these?',
  doubted: (distance: string) => `This code is ${distance} from the map. Did you mean one of these?`,
  maybe: 'Did you mean one of these?',
  count: (n: number) => (n === 1 ? '1 result. Use the down arrow to reach it.' : `${n} results. Use the up and down arrows to move through them.`),
  askFar: (code: string, distance: string) => `${code} is ${distance} from the map. Show it?`,
  askOutside: (code: string) => `${code} is outside the area this site accepts and cannot be chosen here. Show where it is?`,
  shownOutside: (code: string) => `Map moved to ${code}, outside the area this site accepts.`,
  moved: (place: string) => `Map moved to ${place}.`,
  failed: 'Search is not available right now. Try again in a moment.',
  spent: 'This map cannot search any more. You can still choose a point on the map.',
};

/** One result as the list shows it, and what choosing it does. */
export interface Found {
  kind: 'place' | 'point' | 'code';
  lat: number;
  lng: number;
  /** The option's first line: a place's name, a point's coordinates, a code. */
  label: string;
  /** Its second line: country and distance, how the pair was read, … */
  detail: string;
  /** A place's name with its region and country, as the announcement of the move says it. */
  place?: string;
  /** A code's: the code, and whether the text named it as typed (else it is a suggestion). */
  code?: string;
  exact?: boolean;
  distance?: number;
  inArea?: boolean;
}

/** `metres` for people: 350 m, 1.9 km, 8 400 km (a no-break space between the thousands). */
export function formatDistance(metres: number): string {
  // Below 995 m, tens of metres; 995 m and more would round to "1000 m": kilometres.
  if (metres < 995) return `${Math.max(10, Math.round(metres / 10) * 10)} m`;
  if (metres < 10_000) return `${(metres / 1000).toFixed(1)} km`;
  return `${String(Math.round(metres / 1000)).replace(/\B(?=(\d{3})+$)/g, '\u00a0')} km`;
}

const where = (hit: SearchHit): string[] => {
  const parts: string[] = [];
  if (hit.distance_m !== undefined) parts.push(TEXT.fromMap(formatDistance(hit.distance_m)));
  if (hit.in_area === false) parts.push(TEXT.outsideArea);
  return parts;
};

/** Coordinates read in the frame, as their one option. */
export function pointFound({ lat, lng, swapped }: Coordinates): Found {
  return { kind: 'point', lat, lng, label: `${lat.toFixed(6)}, ${lng.toFixed(6)}`, detail: swapped ? TEXT.swapped : TEXT.coordinates };
}

/** The options of an answer, and the status line over them (empty: none). */
export function foundIn(answer: SearchAnswer, q: string): { found: Found[]; status: string } {
  const { kind, results } = answer;
  if (kind === 'coordinates') {
    const [point] = results;
    return { found: point ? [pointFound({ lat: point.latitude, lng: point.longitude, swapped: point.swapped === true })] : [], status: '' };
  }
  if (kind === 'places') {
    const found = results.map((hit): Found => {
      const region = [hit.admin, hit.country].filter(Boolean).join(', ');
      return {
        kind: 'place',
        lat: hit.latitude,
        lng: hit.longitude,
        label: hit.name ?? '',
        detail: [region, ...where(hit)].filter(Boolean).join(' · '),
        place: [hit.name, region].filter(Boolean).join(', '),
        distance: hit.distance_m,
        inArea: hit.in_area,
      };
    });
    return { found, status: found.length === 0 ? TEXT.noPlace(q) : '' };
  }
  const found = results.map((hit): Found => ({
    kind: 'code',
    lat: hit.latitude,
    lng: hit.longitude,
    code: hit.loc_code,
    // A suggestion says it is one in its name, which is what a screen reader reads of an option.
    label: hit.match === 'exact' ? hit.loc_code! : TEXT.didYouMean(hit.loc_code!),
    exact: hit.match === 'exact',
    detail: [hit.match === 'exact' ? TEXT.exact : '', ...where(hit)].filter(Boolean).join(' · '),
    distance: hit.distance_m,
    inArea: hit.in_area,
  }));
  const exact = results.find((hit) => hit.match === 'exact');
  const doubted = found.length > 1 || (found.length === 1 && exact === undefined);
  let status = '';
  if (found.length === 0) status = TEXT.noCode;
  else if (exact === undefined) status = TEXT.notACode;
  else if (doubted) status = exact.distance_m !== undefined && exact.distance_m > FAR_M ? TEXT.doubted(formatDistance(exact.distance_m)) : TEXT.maybe;
  return { found, status };
}
