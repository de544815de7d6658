/**
 * Text from a client or a stored record, shown to a person — quoted in an error message, on a page,
 * in a terminal — so that it can neither hide text nor reorder what surrounds it: every character
 * that could is written as an escape instead. Those are controls (an escape sequence recolours a
 * terminal), format characters (bidirectional controls, joiners, tags), line and paragraph
 * separators, spaces other than U+0020 and the blank Braille cell (each looks like a space),
 * default-ignorable and unassigned code points (they show as nothing, or may once assigned), and
 * unpaired surrogates. Everything else shows as itself.
 */

/** What is escaped. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]|[^\P{White_Space} ]/gu;

const escape = (char: string): string => {
  const point = char.codePointAt(0)!;
  return point > 0xffff ? `\\u{${point.toString(16)}}` : `\\u${point.toString(16).padStart(4, '0')}`;
};

/** `text` with every character that could hide or reorder text written as `\u202e` (`\u{e0041}` beyond U+FFFF). */
export function printable(text: string): string {
  return text.replace(HIDDEN, escape);
}

/** At most `max` characters (code points) of `text`, and "…" when there were more. */
export function shortened(text: string, max: number): string {
  const points = [...text];
  return points.length > max ? `${points.slice(0, max).join('')}…` : text;
}

const UTF8 = new TextEncoder();

/**
 * At most `max` characters of a request path, as ASCII a person can read: what is not printable ASCII
 * is percent-encoded, as a URL writes it, and "…" follows a path cut short. Node hands the request
 * line over one character per byte (latin1), so each such character is the byte the client sent.
 */
export function printablePath(path: string, max: number): string {
  const points = [...path];
  const encoded = points.slice(0, max).join('').replace(/[^\x21-\x7e]/gu, (char) => {
    const point = char.codePointAt(0)!;
    const bytes = point <= 0xff ? [point] : [...UTF8.encode(char)];
    return bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  });
  return points.length > max ? `${encoded}…` : encoded;
}
