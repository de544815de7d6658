/**
 * Rules for the free texts a client attaches to a location (`address`, `label`), and for the label an
 * operator gives an API key: Unicode text on one line that reads as it shows, stored in NFC with outer
 * whitespace trimmed. What could break the line, reorder the text or hide part of it is refused with a
 * `validation_error` naming the field, the character, its position and why (422 from the API, exit 2
 * from the CLI); a text with nothing visible in it counts as not given.
 *
 * Refused, by Unicode property:
 * - controls (`\p{Cc}`, tab and newline included) and the line and paragraph separators U+2028 and
 *   U+2029 (`\p{Zl}`, `\p{Zp}`): they break the line;
 * - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder
 *   the text after them, so that a label reads otherwise than its characters run;
 * - every other format character (`\p{Cf}`) but those kept below: the soft hyphen (shows only where a
 *   line breaks), the zero-width space and word joiner (only change where a line may break), the
 *   byte order mark, the invisible mathematical operators, the deprecated format controls
 *   (U+206A–U+206F), the interlinear annotation controls (U+FFF9–U+FFFB), the musical beam and
 *   phrase controls, the language tag, and tag characters outside a flag: each shows as nothing in a
 *   line of text, so two labels that look the same could differ, or a label could carry text no one
 *   sees;
 * - the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0): letters that show as nothing, not needed by
 *   modern Korean, which is written in whole syllables;
 * - code points reserved for future invisible characters (default ignorable and unassigned),
 *   noncharacters (U+FFFE, U+FDD0, …: not for interchange), and unpaired UTF-16 surrogates.
 *
 * Kept, because real text needs them:
 * - ZWNJ and ZWJ (U+200C, U+200D): Persian, Indic scripts, emoji sequences (👩‍💻);
 * - the directional marks LRM, RLM and ALM (U+200E, U+200F, U+061C): each acts as an invisible letter
 *   of its direction, so it places the digits and punctuation next to it and can reorder nothing a
 *   visible letter could not; right-to-left text with numbers needs them;
 * - the prepended concatenation marks (U+0600–U+0605, U+06DD, U+070F, U+0890–U+0891, U+08E2,
 *   U+110BD, U+110CD): visible signs drawn over the digits after them (Arabic, Syriac, Kaithi);
 * - the Mongolian vowel separator (U+180E), the Egyptian hieroglyph format controls (U+13430–U+1343F)
 *   and the Duployan shorthand format controls (U+1BCA0–U+1BCA3): each lays out its own script;
 * - the tag characters of the flags of England, Scotland and Wales (U+1F3F4, tags, U+E007F: the emoji
 *   tag sequences Unicode recommends; any other tag sequence shows as a plain black flag, with its tags
 *   as hidden text);
 * - variation selectors (emoji presentation, ideographic variants), combining marks, every space
 *   character, private-use characters and code points not yet assigned that are not reserved as
 *   invisible (a newer emoji than this runtime knows).
 *
 * Lengths are in characters (code points): the schema checks what was sent (ADDRESS_MAX, LABEL_MAX in
 * server/schemas.ts), and the stored form is checked again, because NFC can lengthen a text (U+0958
 * becomes two code points, U+FB2C three) and a stored label must never be longer than the limit says.
 */
import { LocError } from './errors.ts';

/** The format characters kept (see above): joiners, directional marks, visible signs, scripts' own layout. */
const KEPT_FORMAT = String.raw`\u200C\u200D\u200E\u200F\u061C\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}\u180E\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}`;

/** Each refused class, as a named group of one pattern, and what the message calls it. */
const REFUSED = {
  control: { pattern: String.raw`\p{Cc}`, what: 'a control character' },
  separator: { pattern: String.raw`[\p{Zl}\p{Zp}]`, what: 'a line or paragraph separator' },
  bidi: { pattern: String.raw`[\p{Bidi_Control}--[\u061C\u200E\u200F]]`, what: 'a bidirectional embedding, override or isolate, which reorders the text after it' },
  tag: { pattern: String.raw`[\u{E0000}-\u{E007F}]`, what: 'a tag character outside the flag of England, Scotland or Wales, which shows as nothing' },
  invisible: { pattern: String.raw`[\p{Cf}--[${KEPT_FORMAT}]]`, what: 'an invisible format character' },
  filler: { pattern: String.raw`[\u115F\u1160\u3164\uFFA0]`, what: 'a Hangul filler, which shows as nothing' },
  reserved: { pattern: String.raw`[\p{Default_Ignorable_Code_Point}&&\p{Cn}]`, what: 'a code point reserved for invisible characters' },
  noncharacter: { pattern: String.raw`\p{Noncharacter_Code_Point}`, what: 'a noncharacter, which is not meant for text' },
  surrogate: { pattern: String.raw`\p{Cs}`, what: 'half of a broken character (an unpaired UTF-16 surrogate)' },
} as const;
type RefusedClass = keyof typeof REFUSED;

/**
 * The first refused character of a text; a flag's tag sequence matches whole (group `flag`) and is
 * passed over, so that its tag characters are refused nowhere else.
 */
const SCAN = new RegExp(
  [String.raw`(?<flag>\p{RGI_Emoji_Tag_Sequence})`, ...Object.entries(REFUSED).map(([name, { pattern }]) => `(?<${name}>${pattern})`)].join('|'),
  'gv',
);

/** What shows nothing (controls included, which a line of text refuses first): a text made only of these counts as not given. */
const BLANK = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\u2800]*$/u;

/** Whether `text` shows nothing at all: white space, invisible characters and controls only, or nothing. */
export const nothingVisible = (text: string): boolean => BLANK.test(text);

/** A refused character of `text`: what it is, and where (in code points); null when there is none. */
export function refusedCharacter(text: string): { point: string; position: number; what: string } | null {
  SCAN.lastIndex = 0;
  for (let match = SCAN.exec(text); match !== null; match = SCAN.exec(text)) {
    const name = Object.keys(REFUSED).find((key) => match!.groups![key] !== undefined) as RefusedClass | undefined;
    if (name === undefined) continue;
    return {
      point: `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
      position: [...text.slice(0, match.index)].length,
      what: REFUSED[name].what,
    };
  }
  return null;
}

/** The stored form of an optional text of at most `max` characters, or null when none was given. */
export function cleanText(field: string, value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  const refused = refusedCharacter(value);
  if (refused !== null) {
    throw new LocError('validation_error', `${field} must be one line of visible text; found ${refused.point} at position ${refused.position}, ${refused.what}.`, field);
  }
  const text = value.normalize('NFC').trim();
  const length = [...text].length;
  if (length > max) {
    throw new LocError('validation_error', `${field} must be at most ${max} characters; its normalised form (NFC) has ${length}.`, field);
  }
  return nothingVisible(text) ? null : text;
}
