/**
 * Suggestions for a typed code: the cell it names, when it names one, and the codes the visitor may
 * have meant — the variants of code/typos.ts that exist, in the countries asked for, nearest the
 * focus first. Nothing is chosen for the visitor: the answer lists, the visitor picks.
 *
 * A wrong character nearly always still spells an existing code, so an existing code is doubted too
 * when it lies far from the focus while a variant lies near it, or outside the countries asked for:
 * then the variants are listed beside it.
 */
import { haverSin, distanceOfH, RAD } from '../address/haversine.ts';
import { decode, supportedCountries, type LocatedCell } from '../code/index.ts';
import { CODE_LENGTH, FAR_M, TYPO_KINDS, asCode, readTyped, variantsOf, type TypoKind } from '../code/typos.ts';
import { LocError, describeValue } from '../errors.ts';
import { servedCountries, type Served } from '../cells/locate.ts';

/** Most variants one answer lists. */
export const SUGGESTIONS_MAX = 5;

/** How far from the focus an existing code may lie before it is doubted (code/typos.ts says why); the frame asks before going that far. */
export { FAR_M };

/** A point the visitor looks at: the map's centre. */
export interface Focus {
  lat: number;
  lng: number;
}

export interface SuggestRequest {
  input: string;
  focus?: Focus;
  /** Only codes of these countries are offered; all the service's countries when absent. */
  countries?: ReadonlySet<string>;
}

export interface SuggestedCell {
  loc_code: string;
  latitude: number;
  longitude: number;
  country_code: string;
  /** From the focus, whole metres; only with a focus. */
  distance_m?: number;
}

export interface Suggestion extends SuggestedCell {
  reason: TypoKind;
}

export interface SuggestAnswer {
  normalized: string;
  exact: SuggestedCell | null;
  suggestions: Suggestion[];
}

/** The suggestions for `request`; 400 `invalid_code` when the input cannot be a code, nor one slip away from one. */
export function suggest(config: Pick<Served, 'supportedCountries'>, { input, focus, countries }: SuggestRequest): SuggestAnswer {
  const chars = readTyped(input);
  if (chars === null || Math.abs(chars.length - CODE_LENGTH) > 1) {
    throw new LocError(
      'invalid_code',
      `Expected a code like FR-1A2B-3C4D (ten letters and digits, one more or one less for a typo), received ${describeValue(input)}.`,
      'input',
    );
  }
  const typed = asCode(chars);
  const variants = variantsOf(chars);
  const known = new Set(supportedCountries());
  if (![typed, ...variants.map((v) => v.code)].some((code) => code !== null && known.has(code.slice(0, 2)))) {
    throw new LocError('invalid_code', `${describeValue(input)} names no country that has codes, nor does any look-alike or slip of it.`, 'input');
  }

  const offered = (country: string) => (config.supportedCountries?.has(country) ?? true) && (countries?.has(country) ?? true);
  const exactCell = typed === null ? null : existing(typed);
  const exact = exactCell === null ? null : placed(exactCell, focus);
  // An existing code is taken as typed unless it is doubted: far from the focus, or outside the countries.
  const farOff = exact?.distance_m !== undefined && exact.distance_m > FAR_M;
  if (exact !== null && !farOff && offered(exact.country_code)) return { normalized: typed!, exact, suggestions: [] };

  const suggestions: Suggestion[] = [];
  for (const { code, kind } of variants) {
    const cell = existing(code);
    if (cell === null || !offered(cell.country_code)) continue;
    const suggestion: Suggestion = { ...placed(cell, focus), reason: kind };
    if (farOff && suggestion.distance_m! > FAR_M) continue;
    suggestions.push(suggestion);
  }
  // Stable: among equals, the order variantsOf gives.
  const kindRank = (s: Suggestion) => TYPO_KINDS.indexOf(s.reason);
  suggestions.sort((a, b) => (focus ? a.distance_m! - b.distance_m! : 0) || kindRank(a) - kindRank(b));
  return { normalized: typed ?? chars, exact, suggestions: suggestions.slice(0, SUGGESTIONS_MAX) };
}

/** The cell of a well-formed code, or null when no cell has it. */
function existing(code: string): LocatedCell | null {
  try {
    return decode(code);
  } catch (error) {
    if (error instanceof LocError && error.code === 'code_not_found') return null;
    throw error;
  }
}

function placed(cell: LocatedCell, focus: Focus | undefined): SuggestedCell {
  const out: SuggestedCell = { loc_code: cell.loc_code, latitude: cell.latitude, longitude: cell.longitude, country_code: cell.country_code };
  if (focus) out.distance_m = distanceM(focus, cell);
  return out;
}

/** Great-circle distance, whole metres, as the address search measures it. */
function distanceM(focus: Focus, cell: LocatedCell): number {
  const h = haverSin((cell.latitude - focus.lat) * RAD) + Math.cos(focus.lat * RAD) * Math.cos(cell.latitude * RAD) * haverSin((cell.longitude - focus.lng) * RAD);
  return Math.round(distanceOfH(Math.min(1, h)) * 1000);
}

/** `focus` as sent, `lat,lng` in decimal degrees; 422 `validation_error` naming `focus` otherwise. */
export function parseFocus(text: string): Focus {
  const m = /^\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*$/.exec(text);
  const lat = m ? Number(m[1]) : NaN;
  const lng = m ? Number(m[2]) : NaN;
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) {
    throw new LocError('validation_error', `focus must be "lat,lng" in decimal degrees, latitude -90 to 90 and longitude -180 to 180; received ${describeValue(text)}.`, 'focus');
  }
  return { lat, lng };
}

/**
 * `countries` as sent, ISO alpha-2 codes separated by commas; 422 `validation_error` naming `countries`
 * for one this service hands no codes out in (as a session's area is checked: session-area.ts).
 */
export function parseCountries(config: Pick<Served, 'supportedCountries'>, text: string): ReadonlySet<string> {
  const { countries: known, served } = servedCountries(config);
  const out = new Set<string>();
  for (const part of text.split(',')) {
    const code = part.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(code) || !known.has(code)) {
      throw new LocError('validation_error', `countries must be ISO 3166-1 alpha-2 codes separated by commas, each ${served}; ${describeValue(part)} is not one.`, 'countries');
    }
    out.add(code);
  }
  return out;
}
