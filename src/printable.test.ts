/** Client text shown to people: nothing in it may hide text or reorder what surrounds it. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeValue } from './errors.ts';
import { printable, printablePath, shortened } from './printable.ts';

/** What would hide or reorder text if it reached a message, a page or a terminal. */
const HIDING = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]|[^\P{White_Space} ]/u;

/** Strings heavy in such characters, beside ordinary text of every script. */
const hostileText = fc.array(
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('\u202e', '\u2066', '\u200f', '\u200d', '\u00ad', '\u2028', '\u0085', '\u001b', '\ufeff', '\u3164', '\u2800', '\u{e0041}', '\ud800', '\u00a0', '\u2065'),
  ),
  { maxLength: 30 },
).map((parts) => parts.join(''));

describe('printable', () => {
  it('escapes bidi controls, separators, controls, invisible and unassigned characters, and look-alike spaces', () => {
    expect(printable('evil\u202etxt.exe')).toBe('evil\\u202etxt.exe');
    expect(printable('a\u2028b\u0085c\u001b[31m')).toBe('a\\u2028b\\u0085c\\u001b[31m');
    expect(printable('\u00adsoft\u200bzero\ufeff')).toBe('\\u00adsoft\\u200bzero\\ufeff');
    expect(printable('\u3164\u2800\u00a0')).toBe('\\u3164\\u2800\\u00a0');
    expect(printable('x\u{e0041}y')).toBe('x\\u{e0041}y');
  });

  it('shows every script, emoji and plain spaces as they are', () => {
    for (const text of ['東京 · Ελλάδα · مرحبا · שלום · 👋🏽', 'Café', 'e\u0301']) expect(printable(text)).toBe(text);
  });

  it('leaves nothing that hides or reorders text, whatever the input', () => {
    fc.assert(fc.property(hostileText, (text) => !HIDING.test(printable(text))));
  });
});

describe('describeValue', () => {
  it('quotes at most 40 characters, counted in code points, and escapes what could hide text', () => {
    expect(describeValue('😀'.repeat(41))).toBe(`"${'😀'.repeat(40)}…"`);
    expect(describeValue('a\u202eb"c\\')).toBe('"a\\u202eb\\"c\\\\"');
    fc.assert(fc.property(hostileText, (text) => {
      const shown = describeValue(text);
      return !HIDING.test(shown) && [...shown].length <= 2 + 40 * 12 + 1;
    }));
  });
});

describe('printablePath', () => {
  it('percent-encodes what is not printable ASCII, byte for byte, and cuts a long path short', () => {
    expect(printablePath('/v1/x\u202ey', 100)).toBe('/v1/x%E2%80%AEy');
    // Node hands over a request line one character per byte.
    expect(printablePath('/a\u00e2\u0080\u00ae', 100)).toBe('/a%E2%80%AE');
    expect(printablePath(`/${'a'.repeat(200)}`, 100)).toBe(`/${'a'.repeat(99)}…`);
    fc.assert(fc.property(hostileText, fc.integer({ min: 1, max: 50 }), (path, max) => /^[\x21-\x7e]*…?$/.test(printablePath(path, max))));
  });
});

describe('shortened', () => {
  it('never cuts a character in two', () => {
    expect(shortened('😀😀😀', 2)).toBe('😀😀…');
    expect(shortened('abc', 3)).toBe('abc');
  });
});
