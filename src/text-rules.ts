/**
 * Rules for the free texts a client attaches to a location (`address`, `label`), and for the label an
 * operator gives an API key: Unicode text on one line, stored in NFC with outer whitespace trimmed.
 * Control characters, bidirectional overrides (which can make a label read differently from what it
 * says) and broken UTF-16 are refused with a `validation_error` naming the field (422 from the API,
 * exit 2 from the CLI); an empty or blank text counts as not given. Lengths are in characters (code
 * points): the schema checks what was sent (ADDRESS_MAX, LABEL_MAX in server/schemas.ts), and the stored
 * form is checked again, because NFC can lengthen a text (U+0958 becomes two code points, U+FB2C
 * three) and a stored label must never be longer than the limit says.
 */
import { LocError } from './errors.ts';

/** With the u flag a well-formed pair is one code point, so this finds only unpaired surrogates. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** C0 and C1 controls (tab and newline included), and the bidi embedding, override and isolate controls. */
export const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** The stored form of an optional text of at most `max` characters, or null when none was given. */
export function cleanText(field: string, value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  if (UNPAIRED_SURROGATE.test(value)) {
    throw new LocError('validation_error', `${field} contains a broken character (an unpaired UTF-16 surrogate).`, field);
  }
  const match = FORBIDDEN.exec(value);
  if (match !== null) {
    const point = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new LocError('validation_error', `${field} must be one line of text without control characters; found ${point} at position ${match.index}.`, field);
  }
  const text = value.normalize('NFC').trim();
  const length = [...text].length;
  if (length > max) {
    throw new LocError('validation_error', `${field} must be at most ${max} characters; its normalised form (NFC) has ${length}.`, field);
  }
  return text === '' ? null : text;
}
