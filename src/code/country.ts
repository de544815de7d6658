/**
 * The country of a point: the ISO 3166-1 alpha-2 code of the territory-level feature of
 * country-coder (pinned to one exact version: the table generator copies its borders, with these
 * codes, into the table, where they decide codes). The codec itself reads only the table; this module
 * serves the generator, the tests as their oracle, and names and flags.
 *
 * Territory level gives Puerto Rico, Guam, the Isle of Man or Svalbard their own codes instead of
 * their sovereign's. Where country-coder's answer is not a code ISO assigns, the code ISO gives the
 * place is used instead (REASSIGNED). `XK` (Kosovo) is kept: the EU, the IMF and country-coder use it,
 * and Kosovo has no other. Bir Tawil, claimed by no country, gets no code.
 */
import { createRequire } from 'node:module';
import type * as CountryCoder from '@rapideditor/country-coder';

type Feature = ReturnType<typeof CountryCoder.featuresContaining>[number];

const load = createRequire(import.meta.url);
let loaded: typeof CountryCoder | undefined;
/**
 * country-coder, read on first use (its CommonJS build, the same code): indexing its borders is a
 * twentieth of `loc serve`'s start, and the codec does not need it.
 */
const countryCoder = (): typeof CountryCoder => (loaded ??= load('@rapideditor/country-coder') as typeof CountryCoder);

/**
 * country-coder answers, or feature ids, that ISO 3166-1 assigns another code: Ceuta and Melilla
 * (`EA`, only reserved) are ES; Northern Cyprus (Wikidata Q23681, no ISO code) is CY.
 */
const REASSIGNED: Readonly<Record<string, string>> = { EA: 'ES', Q23681: 'CY' };

/** Codes that are in country-coder's data but never get location codes: Antarctica. */
export const UNCOVERED_COUNTRIES: ReadonlySet<string> = new Set(['AQ']);

/** country-coder's borders: its features, with their geometries. */
export const countryBorders = (): typeof CountryCoder.borders => countryCoder().borders;

/** The territory-level ISO code at `lat`, `lng`, or null outside every country's borders. */
export function territoryOf(lat: number, lng: number): string | null {
  return territoryCode(countryCoder().featuresContaining([lng, lat]));
}

/** The territory-level code of the points inside one country-coder feature (by its id). */
export function territoryOfFeature(id: string): string | null {
  return territoryCode(countryCoder().featuresContaining(id));
}

/**
 * The first of a feature and its groups (ordered from small to large) at territory level or above
 * with an ISO code: what country-coder's `iso1A2Code(point, { level: 'territory' })` answers.
 */
function territoryCode(features: Feature[]): string | null {
  if (features.length === 0) return null;
  const match = features.find((f) => f.properties.level !== 'subterritory' && f.properties.iso1A2);
  const code = match?.properties.iso1A2 ?? features[0].properties.id;
  return REASSIGNED[code] ?? (match ? code : null);
}

// The short names people use ("United States", not country-coder's "United States of America").
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** English short name of a country code, e.g. `United States` for `US`. */
export function countryName(code: string): string {
  return regionNames.of(code) ?? countryCoder().feature(code)?.properties.nameEn ?? code;
}

const flags = new Map<string, string>();

/** Emoji flag of a country code (regional indicator pair), e.g. 🇫🇷 for `FR`. */
export function countryFlag(code: string): string {
  // Remembered: every lookup response carries one, and country-coder's search costs more than the map.
  let flag = flags.get(code);
  if (flag === undefined) {
    flag = countryCoder().feature(code)?.properties.emojiFlag ?? '';
    if (code.length === 2) flags.set(code, flag);
  }
  return flag;
}
