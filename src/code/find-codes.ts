/**
 * Codes in free text: a message, an address line, a pasted note. Written as the loose check of the
 * API's contract reads them, `CC-XXXX-XXXX` in either case, each found code also in its canonical
 * upper-case form (format.ts). Like that check it says nothing about whether a code exists.
 *
 * Only the hyphenated spelling is found, though normalizeCode also accepts a space or nothing as a
 * separator: in running text those would make ordinary words codes ("my home here", "everything").
 * A code is a whole token: a letter, digit or hyphenated part touching either end makes the run of
 * characters something longer (a part number, a URL slug), not a code.
 */
import { normalizeCode } from './spelling.ts';

/** A code found in a text. */
export interface FoundCode {
  /** The code in its canonical form, `CC-XXXX-XXXX` in upper case. */
  code: string;
  /** The code as written in the text. */
  text: string;
  /** Where it starts in the text, in UTF-16 code units (as `String.prototype.indexOf` counts). */
  index: number;
}

const CANDIDATE = /[A-Za-z]{2}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}/g;

const isAlphanumeric = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const HYPHEN = 0x2d;

/** Whether the characters before `start` and from `end` leave the match a token of its own. */
function standsAlone(text: string, start: number, end: number): boolean {
  const before = text.charCodeAt(start - 1);
  const after = text.charCodeAt(end);
  if (isAlphanumeric(before) || isAlphanumeric(after)) return false;
  // A hyphen is a boundary only when no letter or digit is on its far side: "FR-0RMB-CLY0-" ends a
  // sentence's dash, "X-FR-0RMB-CLY0" is a longer token.
  if (before === HYPHEN && isAlphanumeric(text.charCodeAt(start - 2))) return false;
  if (after === HYPHEN && isAlphanumeric(text.charCodeAt(end + 1))) return false;
  return true;
}

/**
 * Every code written in `text`, in the order they appear. One pass, linear in the text's length:
 * no code can start inside a rejected match (it would follow a letter, a digit or a hyphenated part),
 * so the search goes on after it.
 */
export function findCodes(text: string): FoundCode[] {
  if (typeof text !== 'string') throw new TypeError(`findCodes: expected a string, received ${text === null ? 'null' : typeof text}.`);
  const found: FoundCode[] = [];
  // A fresh expression per call: a shared global one keeps lastIndex between calls.
  const candidates = new RegExp(CANDIDATE.source, 'g');
  for (let match = candidates.exec(text); match !== null; match = candidates.exec(text)) {
    const end = match.index + match[0].length;
    if (standsAlone(text, match.index, end)) found.push({ code: normalizeCode(match[0]) as string, text: match[0], index: match.index });
  }
  return found;
}
