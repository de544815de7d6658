/**
 * How many single-character typos the suggestions catch (docs/api.md, "Suggestions for typed codes"):
 * random existing codes, every look-alike substitution and adjacent transposition of each, and where
 * the original lands in the answer — without a focus, and with a focus a few kilometres from it, as
 * a visitor's map would be. Seeded, so a run is reproducible; `npm run measure:typos` prints it.
 */
import { encode } from '../../src/code/index.ts';
import { LOOK_ALIKE_GROUPS, readTyped } from '../../src/code/typos.ts';
import { FAR_M, suggest, type Focus } from '../../src/search/suggest.ts';
import { seededRandom } from './seeded-random.ts';

/** Farthest the focus lies from the original code, metres: the visitor's map shows about where the place is. */
export const FOCUS_OFFSET_MAX_M = 3000;

export interface Share {
  typos: number;
  /** The original is among the suggestions. */
  listed: number;
  /** The original is the first suggestion. */
  first: number;
}

export interface TypoCatch {
  codes: number;
  /** By what the typo spells: no existing code, an existing code farther than FAR_M from the focus, one nearer. */
  byOutcome: Record<'not_a_code' | 'far_code' | 'near_code', Share>;
  /** With the focus, by the slip. */
  byKind: Record<'look_alike' | 'transposition', Share>;
  withoutFocus: Share;
  withFocus: Share;
}

const EARTH_M = 6_371_008.8;

function typosOf(code: string): [string, 'look_alike' | 'transposition'][] {
  const chars = readTyped(code)!;
  const out: [string, 'look_alike' | 'transposition'][] = [];
  for (let i = 0; i < chars.length; i++) {
    for (const group of LOOK_ALIKE_GROUPS) {
      if (!group.includes(chars[i])) continue;
      for (const other of group) if (other !== chars[i]) out.push([chars.slice(0, i) + other + chars.slice(i + 1), 'look_alike']);
    }
  }
  for (let i = 0; i + 1 < chars.length; i++) if (chars[i] !== chars[i + 1]) out.push([chars.slice(0, i) + chars[i + 1] + chars[i] + chars.slice(i + 2), 'transposition']);
  return out;
}

/** A point `metres` away from `at` on `bearing` (radians), on the sphere. */
function offset(at: Focus, metres: number, bearing: number): Focus {
  const rad = Math.PI / 180;
  const d = metres / EARTH_M;
  const lat1 = at.lat * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lng2 = at.lng * rad + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: lat2 / rad, lng: ((((lng2 / rad + 540) % 360) + 360) % 360) - 180 };
}

const share = (): Share => ({ typos: 0, listed: 0, first: 0 });

function count(into: Share, original: string, codes: string[]): void {
  into.typos++;
  if (codes.includes(original)) into.listed++;
  if (codes[0] === original) into.first++;
}

/** Measures `codes` random existing codes (points on land or territorial sea) drawn with `seed`. */
export function measureTypoCatch(codes: number, seed: number): TypoCatch {
  const random = seededRandom(seed);
  const config = { supportedCountries: null };
  const result: TypoCatch = {
    codes,
    byOutcome: { not_a_code: share(), far_code: share(), near_code: share() },
    byKind: { look_alike: share(), transposition: share() },
    withoutFocus: share(),
    withFocus: share(),
  };
  for (let sampled = 0; sampled < codes; ) {
    let original: string;
    let centre: Focus;
    try {
      const cell = encode(Math.asin(random() * 2 - 1) * (180 / Math.PI), random() * 360 - 180);
      [original, centre] = [cell.loc_code, { lat: cell.latitude, lng: cell.longitude }];
    } catch {
      continue;
    }
    sampled++;
    for (const [typo, kind] of typosOf(original)) {
      const alone = suggest(config, { input: typo });
      count(result.withoutFocus, original, alone.suggestions.map((s) => s.loc_code));
      const focus = offset(centre, random() * FOCUS_OFFSET_MAX_M, random() * 2 * Math.PI);
      const near = suggest(config, { input: typo, focus });
      const listed = near.suggestions.map((s) => s.loc_code);
      count(result.withFocus, original, listed);
      const outcome = near.exact === null ? 'not_a_code' : near.exact.distance_m! > FAR_M ? 'far_code' : 'near_code';
      count(result.byOutcome[outcome], original, listed);
      count(result.byKind[kind], original, listed);
    }
  }
  return result;
}
