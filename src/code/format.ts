/**
 * The written form of a location code: `CC-BBBB-RRCC` — country, block index, row and column of the
 * cell in its block — in upper-case base 36 (docs/code-format.md §3).
 */

import { normalizeCode } from './spelling.ts';

/** Base-36 digits in value order. */
export const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BASE = ALPHABET.length;

/** Digits of the block index: 36⁴ = 1 679 616 blocks per country at most. */
export const BLOCK_DIGITS = 4;
export const MAX_BLOCKS = BASE ** BLOCK_DIGITS;

/** The loose client-side check the API's contract gives clients, without trimming or case folding. */
const LOOSE = /^[A-Za-z]{2}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/;

/** U+002D HYPHEN-MINUS, the canonical separator. */
const HYPHEN = 0x2d;

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

