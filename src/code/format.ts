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

/** The spec's loose client-side check (spec §1.7), without trimming or case folding. */
const LOOSE = /^[A-Za-z]{2}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/;

/** What input we accept: a separator (hyphen or space) may be left out, case does not matter. */
const LENIENT = /^([A-Z]{2})[-\s]?([0-9A-Z]{4})[-\s]?([0-9A-Z]{4})$/;

const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE; i++) DIGIT_VALUE[ALPHABET.charCodeAt(i)] = i;

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
  if (typeof input !== 'string' || input.length > 32) return null;
  const m = LENIENT.exec(input.trim().toUpperCase());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Splits a code (any accepted spelling) into its parts, or null when it is malformed. */
export function parseCode(input: string): CodeParts | null {
  const code = normalizeCode(input);
  if (code === null) return null;
  return {
    country: code.slice(0, 2),
    block: digits(code, 3, 7),
    row: digits(code, 8, 10),
    col: digits(code, 10, 12),
  };
}

/** Writes a code from its parts. */
export function formatCode(parts: CodeParts): string {
  return `${parts.country}-${base36(parts.block, BLOCK_DIGITS)}-${base36(parts.row, 2)}${base36(parts.col, 2)}`;
}

function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * BASE + DIGIT_VALUE[text.charCodeAt(i)];
  return value;
}

function base36(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[v % BASE] + out;
    v = Math.floor(v / BASE);
  }
  return out;
}
