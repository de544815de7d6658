/** The one-line text rules of address and label: what is refused and why, what real text keeps. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkIpRange } from './auth/ip-range.ts';
import { checkOrigin } from './auth/origin.ts';
import { accountName } from './cli/account-commands.ts';
import { LocError } from './errors.ts';
import { cleanText } from './text-rules.ts';

/** The message cleanText refuses `text` with, or what it stores. */
function outcome(text: string): string {
  try {
    return `ok ${JSON.stringify(cleanText('label', text, 100))}`;
  } catch (error) {
    expect(error).toBeInstanceOf(LocError);
    expect(error).toMatchObject({ code: 'validation_error', field: 'label' });
    return (error as LocError).message;
  }
}

const ENGLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
const SCOTLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';

describe('refused', () => {
  it.each([
    ['two\nlines', 'U+000A at position 3, a control character'],
    ['tab\there', 'U+0009 at position 3, a control character'],
    ['next\u0085line', 'U+0085 at position 4, a control character'],
    ['one\u2028two', 'U+2028 at position 3, a line or paragraph separator'],
    ['one\u2029two', 'U+2029 at position 3, a line or paragraph separator'],
    ['evil\u202Etxt.exe', 'U+202E at position 4, a bidirectional embedding, override or isolate, which reorders the text after it'],
    ['\u202Aembedded', 'U+202A at position 0, a bidirectional embedding'],
    ['iso\u2066late\u2069', 'U+2066 at position 3, a bidirectional embedding'],
    ['first\u2068strong', 'U+2068 at position 5, a bidirectional embedding'],
    ['soft\u00ADhyphen', 'U+00AD at position 4, an invisible format character'],
    ['zero\u200Bwidth', 'U+200B at position 4, an invisible format character'],
    ['word\u2060joiner', 'U+2060 at position 4, an invisible format character'],
    ['\uFEFFbom', 'U+FEFF at position 0, an invisible format character'],
    ['f\u2061(x)', 'U+2061 at position 1, an invisible format character'],
    ['deprecated\u206A', 'U+206A at position 10, an invisible format character'],
    ['\uFFF9base\uFFFAruby\uFFFB', 'U+FFF9 at position 0, an invisible format character'],
    ['\u{1D173}beam', 'U+1D173 at position 0, an invisible format character'],
    ['\u{E0001}\u{E0065}\u{E006E}', 'U+E0001 at position 0, a tag character outside the flag of England, Scotland or Wales, which shows as nothing'],
    ['hidden\u{E0041}\u{E0042}', 'U+E0041 at position 6, a tag character outside the flag'],
    // A subdivision flag Unicode does not recommend: a black flag, with its tags as hidden text.
    ['\u{1F3F4}\u{E0075}\u{E0073}\u{E0063}\u{E0061}\u{E007F}', 'U+E0075 at position 1, a tag character outside the flag'],
    ['\u3164', 'U+3164 at position 0, a Hangul filler, which shows as nothing'],
    ['a\u115Fb', 'U+115F at position 1, a Hangul filler'],
    ['\uFFA0', 'U+FFA0 at position 0, a Hangul filler'],
    ['a\u2065b', 'U+2065 at position 1, a code point reserved for invisible characters'],
    ['a\uFFFEb', 'U+FFFE at position 1, a noncharacter, which is not meant for text'],
    ['a\uFDD0b', 'U+FDD0 at position 1, a noncharacter'],
    ['broken\uD800', 'U+D800 at position 6, half of a broken character (an unpaired UTF-16 surrogate)'],
    // Positions count characters (code points), as the length limits do.
    ['😀😀\n', 'U+000A at position 2, a control character'],
  ])('%j: %s', (text, found) => {
    expect(outcome(text)).toMatch(new RegExp(`^label must be one line of visible text; found ${found.replace(/[()+]/g, '\\$&')}`));
  });
});

describe('kept', () => {
  it.each([
    ['ZWJ in emoji sequences', '👩‍💻 and 👨‍👩‍👧'],
    ['ZWNJ in Persian', 'می‌خواهم'],
    ['ZWJ and ZWNJ in Indic scripts', 'क्‍ष · क्‌ष'],
    ['the directional marks, around numbers in right-to-left text', '\u200Fרחוב הרצל 12\u200F · \u061Cشارع ١٢ · a\u200Eb'],
    ['variation selectors', '❤️ ☺︎ 葛\u{E0100}'],
    ['the flags of England and Scotland', `${ENGLAND} ${SCOTLAND}`],
    ['prepended concatenation marks', '\u0600١٢٣ \u06DD١'],
    ['the Mongolian vowel separator', 'ᠨᠢ\u180Eᠡ'],
    ['every space character', 'a\u00A0b\u2003c\u3000d'],
    ['private use', '\uE000'],
  ])('%s', (_, text) => {
    expect(outcome(text)).toBe(`ok ${JSON.stringify(text.normalize('NFC'))}`);
  });

  it('takes a text with nothing visible in it as not given', () => {
    for (const text of ['', '   ', '\u200D', ' \u200E\u200F ', '\uFE0F', '\u2800\u2800']) expect(outcome(text)).toBe('ok null');
  });
});

/** One character of the classes the rules refuse, named independently of text-rules.ts. */
const refusedChar = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCodePoint(c)),
  fc.constantFrom('\u2028', '\u2029', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'),
  fc.constantFrom('\u00AD', '\u200B', '\u2060', '\u2061', '\u2064', '\u206F', '\uFEFF', '\uFFF9', '\uFFFB', '\u{1D17A}', '\u{E0001}', '\u3164', '\u115F', '\u1160', '\uFFA0'),
  fc.integer({ min: 0xE0020, max: 0xE007F }).map((c) => String.fromCodePoint(c)),
);

/** Text of any script, with the invisible characters real text needs. */
const goodText = fc.array(
  fc.oneof(
    { weight: 5, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }).filter((s) => !/[\p{C}\p{Zl}\p{Zp}\u3164\u115F\u1160\uFFA0]/u.test(s)) },
    { weight: 1, arbitrary: fc.constantFrom('\u200C', '\u200D', '\u200E', '\u200F', '\u061C', '\uFE0F', '👩‍💻', ENGLAND, SCOTLAND, '\u0600') },
  ),
  { maxLength: 12 },
).map((parts) => parts.join(''));

describe('properties', () => {
  it('refuses any text with a refused character, wherever it is', () => {
    fc.assert(fc.property(goodText, refusedChar, goodText, (before, bad, after) => {
      // A tag character right after a flag's tags would only lengthen them: still not a flag Unicode recommends.
      expect(outcome(`${before}${bad}${after}`)).toMatch(/^label must be one line of visible text; found U\+[0-9A-F]{4,5} at position \d+, /);
    }));
  });

  it('keeps real text of any script, with its joiners, marks, selectors and flags, as NFC', () => {
    fc.assert(fc.property(goodText, (text) => {
      const stored = cleanText('label', text, 1000);
      const expected = text.normalize('NFC').trim();
      expect(stored === null ? '' : stored).toBe(/^[\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]*$/u.test(expected) ? '' : expected);
    }));
  });
});

// PostgreSQL refuses U+0000 in text (22021) where SQLite stores it. Every text the store keeps passes
// one of these checks first, shared by the API and the CLI, so neither engine ever sees one: a usage
// error (422 from the API, exit 2 from the CLI), never a database error. (A command line cannot carry
// U+0000 at all; the API's JSON can.)
describe('U+0000, which PostgreSQL stores in no text', () => {
  it('is refused by every check of a text the store keeps', () => {
    expect(outcome('a\0b')).toBe('label must be one line of visible text; found U+0000 at position 1, a control character.');
    expect(() => cleanText('address', '\0', 200)).toThrow(LocError);
    for (const origin of ['https://a\0b.example', 'https://shop.example\0', '\0https://shop.example']) expect(() => checkOrigin(origin)).toThrow(LocError);
    for (const range of ['10.0.0.0/8\0', '\0' + '2001:db8::/32']) expect(() => checkIpRange(range)).toThrow(LocError);
    expect(() => accountName('acme\0')).toThrow(/account name must be/);
  });
});
