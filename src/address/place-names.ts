/**
 * Places by name: the GeoNames populated places of the offline addresses (place-index.ts), found by
 * the start of their name or of a word in it, accents and case aside (`sao` finds São Paulo, `denis`
 * Saint-Denis), ranked for a visitor looking at a map.
 *
 * No index of its own. The names are already two long strings (place-index.ts); folding them is a
 * character-for-character map, so the folded strings keep every place's offsets, and a search is
 * `indexOf` over about 1.3 million characters plus a binary search per hit — 2 to 6 ms for a
 * two-letter prefix, under 1 ms for longer ones (measured warm on a loaded two-core machine). Folding
 * happens on the first search, not at start: start stays as fast as reading the places file (about
 * 13 ms; server start is budgeted at 1 s), and the first search pays 20 to 30 ms once, with a handful
 * of large allocations (the strings and two arrays), not one per place — the burst of small objects
 * that place-index.ts keeps out of the service's thread.
 */
import { RAD, distanceOfH, haverSin } from './haversine.ts';
import { loadPlaces, loadedPlaces } from './offline.ts';
import type { PlaceIndex } from './place-index.ts';
import { populationOf } from './place-index.ts';
import { inSpan } from '../spans.ts';

/** Most places one search answers with. */
export const PLACES_MAX = 8;

/** Longer text than this is no place's name (the longest the places have is 65 characters): not searched. */
const QUERY_MAX = 120;

export interface NamedPlace {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
  latitude: number;
  longitude: number;
  /** From the focus, whole metres; only with a focus. */
  distance_m?: number;
}

export interface PlaceQuery {
  /** Where the visitor looks (the map's centre): nearer places first, big ones reaching further. */
  focus?: { lat: number; lng: number };
  /** Places it holds come before all others (a session's area). */
  preferred?: (lat: number, lng: number, country: string) => boolean;
  /** Only places of these countries (ISO alpha-2). */
  only?: ReadonlySet<string>;
  limit?: number;
}

interface Folded {
  index: PlaceIndex;
  /** `index.names`, folded (foldUnit), offset for offset. */
  text: [string, string];
  /** Per string, its places in order: their names' starts rise with them, for a binary search. */
  members: [Uint32Array, Uint32Array];
  /** Per place, its country's index in `countries`. */
  country: Uint16Array;
  countries: string[];
}

let folded: Folded | undefined;

/** Letters NFD leaves whole that a visitor types without their stroke. */
const STROKES: Record<string, string> = { ł: 'l', ø: 'o', đ: 'd', ħ: 'h', ı: 'i', ŧ: 't' };
const SPACE = 0x20;
/**
 * What separates words: spaces, hyphens, full stops (`St. Louis`) and the apostrophes and ʻokina of
 * transliterated names. Each folds to a space, and a space in a query matches a run of them.
 */
const SEPARATORS = new Set([0x20, 0x2d, 0x2e, 0x27, 0x2018, 0x2019, 0x02bb, 0x02bc, 0x2010, 0x2013]);
/** Folded code units, 0 until first asked for: the names use a few thousand distinct ones. */
const units = new Uint16Array(65_536);

/** A code unit without its accents, in lower case, separators as a space: always one unit for one. */
function foldUnit(c: number): number {
  if (units[c] !== 0) return units[c];
  let out = c;
  if (SEPARATORS.has(c)) out = SPACE;
  // Surrogates are left as they are: half a character has no accent.
  else if (c < 0xd800 || c > 0xdfff) {
    const base = String.fromCharCode(c).normalize('NFD').charAt(0).toLowerCase();
    const plain = STROKES[base] ?? base;
    if (plain.length === 1) out = plain.charCodeAt(0);
  }
  return (units[c] = out);
}

function foldText(text: string): string {
  const out = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = foldUnit(text.charCodeAt(i));
  return new TextDecoder('utf-16le').decode(out);
}

/** A query folded as the names are, its runs of spaces made one, trimmed. */
export function foldQuery(query: string): string {
  return foldText(query).replace(/ +/g, ' ').trim();
}

function foldedPlaces(): Folded {
  if (folded !== undefined) return folded;
  loadPlaces();
  const index = loadedPlaces()!;
  const count = index.nameWide.length;
  const sizes = [0, 0];
  for (let i = 0; i < count; i++) sizes[index.nameWide[i]]++;
  const members: Folded['members'] = [new Uint32Array(sizes[0]), new Uint32Array(sizes[1])];
  const filled = [0, 0];
  for (let i = 0; i < count; i++) members[index.nameWide[i]][filled[index.nameWide[i]]++] = i;
  const countries = [...index.trees.keys()];
  const country = new Uint16Array(count);
  countries.forEach((code, k) => {
    for (const place of index.trees.get(code)!.places) country[place] = k;
  });
  folded = { index, text: [foldText(index.names[0]), foldText(index.names[1])], members, country, countries };
  return folded;
}

/** The place of string `wide` whose name holds offset `at`. */
function placeAt({ index, members }: Folded, wide: 0 | 1, at: number): number {
  const own = members[wide];
  let lo = 0;
  let hi = own.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (index.nameStart[own[mid]] <= at) lo = mid;
    else hi = mid - 1;
  }
  return own[lo];
}

/** Great-circle distance, km. */
function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return distanceOfH(Math.min(1, haverSin((lat2 - lat1) * RAD) + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * haverSin((lng2 - lng1) * RAD)));
}

/**
 * The places whose name, or a word of it, starts with `query` (two characters at least, folded),
 * best first: those `preferred` holds, then by distance from the focus over the square root of the
 * population — a village next door before a city across the country, the city before a village as
 * far — or without a focus by population. A span of its own in a traced request; what was typed
 * stays out of it (a visitor's words).
 */
export const searchPlaces = (query: string, options: PlaceQuery = {}): NamedPlace[] =>
  inSpan('loc.address.search', { 'loc.address.focused': options.focus !== undefined }, () => rankPlaces(query, options));

function rankPlaces(query: string, { focus, preferred, only, limit = PLACES_MAX }: PlaceQuery): NamedPlace[] {
  const q = foldQuery(query);
  if (q.length < 2 || q.length > QUERY_MAX) return [];
  const f = foldedPlaces();
  const { index, text, country, countries } = f;
  // The best, kept sorted by rank, twice the limit so that duplicates can be dropped after.
  const keep = limit * 2;
  const ranks: number[] = [];
  const picks: number[] = [];
  // `saint denis` finds `Saint-Denis` and `st louis` `St. Louis`: a space matches a run of separators.
  // Without one, indexOf: no match object per hit, and a two-letter prefix has tens of thousands.
  const pattern = q.includes(' ') ? new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, ' +'), 'g') : null;
  /** The length of the last match `find` found. */
  let length = q.length;
  const find = (names: string, from: number): number => {
    if (pattern === null) return names.indexOf(q, from);
    pattern.lastIndex = from;
    const m = pattern.exec(names);
    length = m === null ? 0 : m[0].length;
    return m === null ? -1 : m.index;
  };
  for (const wide of [0, 1] as const) {
    const names = text[wide];
    for (let at = find(names, 0); at >= 0; at = find(names, at + 1)) {
      const place = placeAt(f, wide, at);
      if (at + length > index.nameEnd[place]) continue;
      const before = at === index.nameStart[place] ? SPACE : names.charCodeAt(at - 1);
      if (before !== SPACE && before !== 0x28 /* ( */) continue;
      if (only !== undefined && !only.has(countries[country[place]])) continue;
      const size = Math.sqrt(populationOf(index.reach[place]));
      // Its best rank, right at the focus, cannot make the list: skip the distance.
      if (ranks.length === keep && 1 / size >= ranks[keep - 1]) continue;
      const lat = index.lats[place];
      const lng = index.lngs[place];
      let rank = focus === undefined ? 1 / size : (distanceKm(focus.lat, focus.lng, lat, lng) + 1) / size;
      // Ranks are below 1e5 (20 000 km over a population of 1 at least); the preferred come before all.
      if (preferred !== undefined && !preferred(lat, lng, countries[country[place]])) rank += 1e6;
      if (ranks.length === keep && rank >= ranks[keep - 1]) continue;
      let k = ranks.length === keep ? keep - 1 : ranks.length;
      while (k > 0 && ranks[k - 1] > rank) {
        ranks[k] = ranks[k - 1];
        picks[k] = picks[k - 1];
        k--;
      }
      ranks[k] = rank;
      picks[k] = place;
    }
  }
  const out: NamedPlace[] = [];
  for (const place of picks) {
    const name = index.names[index.nameWide[place]].slice(index.nameStart[place], index.nameEnd[place]);
    const code = countries[country[place]];
    const latitude = index.lats[place];
    const longitude = index.lngs[place];
    // GeoNames lists some places twice, under two spellings or as two kinds of place, a few hundred metres apart.
    if (out.some((o) => o.name === name && o.country_code === code && distanceKm(o.latitude, o.longitude, latitude, longitude) < 5)) continue;
    const found: NamedPlace = { name, country_code: code, latitude, longitude };
    if (focus !== undefined) found.distance_m = Math.round(distanceKm(focus.lat, focus.lng, latitude, longitude) * 1000);
    out.push(found);
    if (out.length === limit) break;
  }
  return out;
}
