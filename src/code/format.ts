/**
 * The written form of a location code: `CC-BBBB-RRCC` — country, block index, row and column of the
 * cell in its block — in upper-case base 36 (docs/code-format.md §3).
 */

/** Base-36 digits in value order. */
export const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BASE = ALPHABET.length;

/** Digits of the block index: 36⁴ = 1 679 616 blocks per country at most. */
export const BLOCK_DIGITS = 4;
export const MAX_BLOCKS = BASE ** BLOCK_DIGITS;

/** The loose client-side check the API's contract gives clients, without trimming or case folding. */
const LOOSE = /^[A-Za-z]{2}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/;

/**
 * The white space of a code, by code point: what normalisation trims from both ends, and what may
 * stand for a separator. It is ECMAScript's WhiteSpace and LineTerminator (Unicode 15): written out, so
 * that neither an engine's Unicode tables nor another language's idea of white space (Python's strip()
 * also removes U+001C–U+001F and U+0085) decides which input is a code. All are in the BMP, so a
 * UTF-16 code unit is one of them exactly when the code point it encodes is.
 */
export const WHITE_SPACE: readonly number[] = [
  0x0009, 0x000a, 0x000b, 0x000c, 0x000d, 0x0020, 0x00a0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
const WHITE_SPACE_SET: ReadonlySet<number> = new Set(WHITE_SPACE);
const isWhiteSpace = (c: number): boolean => (c <= 0x20 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : c >= 0xa0 && WHITE_SPACE_SET.has(c));

/** The one hyphen a separator may be: U+002D HYPHEN-MINUS. U+2010 HYPHEN, dashes and minus signs are not. */
const HYPHEN = 0x2d;

/**
 * What input we accept once trimmed: ASCII letters and digits in either case, each separator a hyphen,
 * one white space character or nothing. Matched before upper-casing: `toUpperCase` turns some other
 * letters into ASCII ones ("ﬁ" into "FI", "ß" into "SS", "ı" into "I"), which must not pass for a code.
 */
const SEPARATOR = `[\\-${WHITE_SPACE.map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('')}]?`;
const LENIENT = new RegExp(`^([A-Za-z]{2})${SEPARATOR}([0-9A-Za-z]{4})${SEPARATOR}([0-9A-Za-z]{4})$`);

const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE; i++) DIGIT_VALUE[ALPHABET.charCodeAt(i)] = i;

/**
 * Character codes of the high and low digit of every two-digit group 00 … ZZ: a code is then written
 * by table look-ups into one String.fromCharCode call, one allocation instead of six concatenations.
 * Plain arrays of small integers, not typed arrays: TurboFan checks a typed array's buffer for
 * detachment on every read, and these are eight reads per code.
 */
const PAIR_HIGH = Array.from({ length: BASE * BASE }, (_, i) => ALPHABET.charCodeAt(Math.floor(i / BASE)));
const PAIR_LOW = Array.from({ length: BASE * BASE }, (_, i) => ALPHABET.charCodeAt(i % BASE));

/** The parts of a code. */
export interface CodeParts {
  country: string;
  /** Index of the block among the country's covered blocks. */
  block: number;
  /** Row and column of the cell inside its block, 0 … 1295. */
  row: number;
  col: number;
}

/** The spec's loose format check; it says nothing about whether the code exists. */
export function isCodeFormat(input: string): boolean {
  return typeof input === 'string' && LOOSE.test(input);
}

/** The canonical `CC-XXXX-XXXX` form of `input`, or null when it cannot be a code. */
export function normalizeCode(input: string): string | null {
  if (typeof input !== 'string') return null;
  // Trimmed first, so any amount of surrounding space is forgiven; then nothing longer than the
  // longest spelling (two separators) is copied or matched.
  let start = 0;
  let end = input.length;
  while (start < end && isWhiteSpace(input.charCodeAt(start))) start++;
  while (end > start && isWhiteSpace(input.charCodeAt(end - 1))) end--;
  if (end - start > 14) return null;
  const m = LENIENT.exec(input.slice(start, end));
  return m ? `${m[1]}-${m[2]}-${m[3]}`.toUpperCase() : null;
}

/** Splits a code (any accepted spelling) into its parts, or null when it is malformed. */
export function parseCode(input: string): CodeParts | null {
  const code = isCanonical(input) ? input : normalizeCode(input);
  if (code === null) return null;
  return {
    country: code.slice(0, 2),
    block: digits(code, 3, 7),
    row: digits(code, 8, 10),
    col: digits(code, 10, 12),
  };
}

/** The common case, checked without a regular expression or a copy: `CC-XXXX-XXXX` in upper case. */
function isCanonical(input: string): boolean {
  if (typeof input !== 'string' || input.length !== 12 || input.charCodeAt(2) !== HYPHEN || input.charCodeAt(7) !== HYPHEN) return false;
  for (let i = 0; i < 12; i++) {
    if (i === 2 || i === 7) continue;
    const c = input.charCodeAt(i);
    if (c >= 128 || DIGIT_VALUE[c] < 0 || (i < 2 && c < 65)) return false;
  }
  return true;
}

/** Writes a code from its parts. */
export function formatCode(parts: CodeParts): string {
  return writeCode(parts.country.charCodeAt(0), parts.country.charCodeAt(1), parts.block, parts.row, parts.col);
}

/**
 * formatCode without the parts object or the country string, for the codec's hot path: the country
 * is given as its two character codes (Coverage.countryChars), as reading them from a string costs a
 * check of the string's representation each.
 */
export function writeCode(first: number, second: number, block: number, row: number, col: number): string {
  // 1296 = 36², the span of two digits, written out so that V8 divides with a multiply (see encode).
  const high = (block / 1296) | 0;
  const low = block - high * 1296;
  return String.fromCharCode(
    first,
    second,
    HYPHEN,
    PAIR_HIGH[high],
    PAIR_LOW[high],
    PAIR_HIGH[low],
    PAIR_LOW[low],
    HYPHEN,
    PAIR_HIGH[row],
    PAIR_LOW[row],
    PAIR_HIGH[col],
    PAIR_LOW[col],
  );
}

function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * BASE + DIGIT_VALUE[text.charCodeAt(i)];
  return value;
}

