/**
 * The spellings of a code a person may write — either case, a space or nothing for a separator,
 * white space around — and the one canonical `CC-XXXX-XXXX` they stand for (docs/code-format.md §3).
 * A module of its own, without format.ts's digit tables, because the form field's script normalises
 * a page's value with it and has four kilobytes in all.
 */

/**
 * The white space of a code, as its characters: what normalisation trims from both ends, and what may
 * stand for a separator. It is ECMAScript's WhiteSpace and LineTerminator (Unicode 15): written out, so
 * that neither an engine's Unicode tables nor another language's idea of white space (Python's strip()
 * also removes U+001C–U+001F and U+0085) decides which input is a code. All are in the BMP, so a
 * UTF-16 code unit is one of them exactly when the code point it encodes is. None is special in a
 * regular expression's character class.
 */
export const WHITE_SPACE = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/**
 * What input we accept: ASCII letters and digits in either case, each separator a hyphen, one white
 * space character or nothing, any white space around. Matched before upper-casing: `toUpperCase`
 * turns some other letters into ASCII ones ("ﬁ" into "FI", "ß" into "SS", "ı" into "I"), which must
 * not pass for a code.
 */
const SEPARATOR = `[\\-${WHITE_SPACE}]?`;
const LENIENT = new RegExp(`^[${WHITE_SPACE}]*([A-Za-z]{2})${SEPARATOR}([0-9A-Za-z]{4})${SEPARATOR}([0-9A-Za-z]{4})[${WHITE_SPACE}]*$`);

/** The canonical `CC-XXXX-XXXX` form of `input`, or null when it cannot be a code. */
export function normalizeCode(input: string): string | null {
  const m = typeof input === 'string' ? LENIENT.exec(input) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}`.toUpperCase() : null;
}
