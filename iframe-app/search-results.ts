/**
 * What the search box lists, in words: each result of a search (or coordinates read in the frame) as
 * an option with a name and a line under it, the status line over the list ("Did you mean"), and
 * distances for people. Every word comes from the frame's catalogues (`search.*` in locales/en.ts);
 * the box's static ones (its name, placeholder, the list's name, the question's buttons) are
 * frame.html's, localised with the rest of the page.
 */
import { FAR_M } from '../src/code/typos.ts';
import type { Coordinates } from '../src/search/coordinates.ts';
import type { SearchAnswer, SearchHit } from './api.ts';
import { t } from './i18n.ts';

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

/** `metres` for people, in the frame's language: 350 m, 1.9 km, 8,400 km (8 400 km in French). */
export function formatDistance(metres: number): string {
  // Below 995 m, tens of metres; 995 m and more would round to "1000 m": kilometres.
  if (metres < 995) return t('search.metres', { count: Math.max(10, Math.round(metres / 10) * 10) });
  if (metres < 10_000) return t('search.kilometres', { count: Math.round(metres / 100) / 10 });
  return t('search.kilometres', { count: Math.round(metres / 1000) });
}

const where = (hit: SearchHit): string[] => {
  const parts: string[] = [];
  if (hit.distance_m !== undefined) parts.push(t('search.fromMap', { distance: formatDistance(hit.distance_m) }));
  if (hit.in_area === false) parts.push(t('search.outsideArea'));
  return parts;
};

/** Coordinates read in the frame, as their one option. */
export function pointFound({ lat, lng, swapped }: Coordinates): Found {
  return { kind: 'point', lat, lng, label: `${lat.toFixed(6)}, ${lng.toFixed(6)}`, detail: t(swapped ? 'search.swapped' : 'search.coordinates') };
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
    return { found, status: found.length === 0 ? t('search.noPlace', { text: q }) : '' };
  }
  const found = results.map((hit): Found => ({
    kind: 'code',
    lat: hit.latitude,
    lng: hit.longitude,
    code: hit.loc_code,
    // A suggestion says it is one in its name, which is what a screen reader reads of an option.
    label: hit.match === 'exact' ? hit.loc_code! : t('search.didYouMean', { code: hit.loc_code! }),
    exact: hit.match === 'exact',
    detail: [hit.match === 'exact' ? t('search.exact') : '', ...where(hit)].filter(Boolean).join(' · '),
    distance: hit.distance_m,
    inArea: hit.in_area,
  }));
  const exact = results.find((hit) => hit.match === 'exact');
  const doubted = found.length > 1 || (found.length === 1 && exact === undefined);
  let status = '';
  if (found.length === 0) status = t('search.noCode');
  else if (exact === undefined) status = t('search.notACode');
  else if (doubted) status = exact.distance_m !== undefined && exact.distance_m > FAR_M ? t('search.doubted', { distance: formatDistance(exact.distance_m) }) : t('search.maybe');
  return { found, status };
}
