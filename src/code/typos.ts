/**
 * Typos of a typed code: what a visitor who reads a code off paper or a screen and types it may get
 * wrong, and the written codes the text could have been before that slip. Which of those exist, and
 * which are offered, is the service's business (search/suggest.ts); this module knows only the
 * written form.
 *
 * A single wrong character nearly always spells another well-formed code, so a typo is undone by the
 * inverse of the slip: a look-alike read back, two neighbours swapped back, an extra character left
 * out, a missing one put back.
 */
import { ALPHABET } from './format.ts';
import { WHITE_SPACE } from './spelling.ts';

/**
 * Characters of the alphabet that are read for one another in print and handwriting. Every code uses
 * the whole base-36 alphabet, so no look-alike is excluded from it and each group is ambiguous in
 * both directions: a typed O may be a 0 and a typed 0 an O.
 */
export const LOOK_ALIKE_GROUPS: readonly string[] = ['0ODQ', '1IL', '2Z', '5S', '6G', '8B', 'UV'];

/** The slip a variant undoes, in the order variants are offered when nothing else ranks them. */
export const TYPO_KINDS = ['look_alike', 'transposition', 'extra_character', 'missing_character'] as const;
export type TypoKind = (typeof TYPO_KINDS)[number];

/** A code the typed text could have been, and the slip that would have turned it into the text. */
export interface Variant {
  code: string;
  kind: TypoKind;
}

/**
 * How far from where the visitor looks an existing code may lie before its variants within this
 * distance are listed beside it (search/suggest.ts), and before the map's search box asks the visitor
 * whether to go there, metres. A typo in the cell's four characters moves it at most about 4 km, one
 * in the block's anywhere in the country: 50 km is beyond any slip of the cell part and within the
 * map a visitor is looking at.
 */
export const FAR_M = 50_000;

/** Characters of a code: 2 of the country, 4 of the block, 4 of the cell. */
export const CODE_LENGTH = 10;
const COUNTRY_LENGTH = 2;

const LOOK_ALIKES = new Map<string, string>();
for (const group of LOOK_ALIKE_GROUPS) {
  for (const c of group) LOOK_ALIKES.set(c, (LOOK_ALIKES.get(c) ?? '') + group.replace(c, ''));
}

/**
 * What a typed text spells besides the codec's own rules (format.ts): separators are taken anywhere,
 * not only between the groups, and include what pasting from a word processor or a phone brings —
 * the Unicode dashes and minus signs, the soft hyphen and the zero-width space.
 */
const SEPARATORS: ReadonlySet<number> = new Set([
  ...Array.from(WHITE_SPACE, (ch) => ch.charCodeAt(0)), 0x2d, 0x00ad, 0x200b, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xfe63,
]);

/** The fullwidth forms of ASCII (U+FF01 … U+FF5E) that an East Asian keyboard types: their ASCII character. */
const FULLWIDTH_FIRST = 0xff01;
const FULLWIDTH_LAST = 0xff5e;
const FULLWIDTH_OFFSET = 0xfee0;

/**
 * The characters of the alphabet a typed text spells, upper case, without separators; null when it
 * holds anything else. Fullwidth letters and digits count as their ASCII ones, as a reader sees them.
 */
export function readTyped(input: string): string | null {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    let c = input.charCodeAt(i);
    if (SEPARATORS.has(c)) continue;
    if (c >= FULLWIDTH_FIRST && c <= FULLWIDTH_LAST) {
      c -= FULLWIDTH_OFFSET;
      if (c === 0x2d) continue;
    }
    if (c >= 0x61 && c <= 0x7a) c -= 0x20;
    if (c >= 128 || !ALPHABET.includes(String.fromCharCode(c))) return null;
    out += String.fromCharCode(c);
  }
  return out;
}

/** The canonical form of ten characters of the alphabet, when its country part is two letters. */
export function asCode(chars: string): string | null {
  if (chars.length !== CODE_LENGTH || !isLetter(chars[0]) || !isLetter(chars[1])) return null;
  return `${chars.slice(0, COUNTRY_LENGTH)}-${chars.slice(2, 6)}-${chars.slice(6)}`;
}

const isLetter = (c: string): boolean => c >= 'A' && c <= 'Z';

/**
 * Every well-formed code that one slip turns into `chars` (characters of the alphabet, as readTyped
 * returns them), each once, under the first slip that explains it in TYPO_KINDS order, and never
 * `chars` itself. Ten characters: look-alikes and swaps; eleven: one left out; nine: one put back.
 */
export function variantsOf(chars: string): Variant[] {
  const seen = new Set<string>();
  const out: Variant[] = [];
  const add = (candidate: string, kind: TypoKind) => {
    const code = asCode(candidate);
    if (code !== null && candidate !== chars && !seen.has(code)) {
      seen.add(code);
      out.push({ code, kind });
    }
  };
  if (chars.length === CODE_LENGTH) {
    for (let i = 0; i < chars.length; i++) {
      for (const other of LOOK_ALIKES.get(chars[i]) ?? '') add(chars.slice(0, i) + other + chars.slice(i + 1), 'look_alike');
    }
    for (let i = 0; i + 1 < chars.length; i++) add(chars.slice(0, i) + chars[i + 1] + chars[i] + chars.slice(i + 2), 'transposition');
  } else if (chars.length === CODE_LENGTH + 1) {
    for (let i = 0; i < chars.length; i++) add(chars.slice(0, i) + chars.slice(i + 1), 'extra_character');
  } else if (chars.length === CODE_LENGTH - 1) {
    for (let i = 0; i <= chars.length; i++) {
      for (const c of i < COUNTRY_LENGTH ? ALPHABET.slice(10) : ALPHABET) add(chars.slice(0, i) + c + chars.slice(i), 'missing_character');
    }
  }
  return out;
}
