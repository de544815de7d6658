import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { WHITE_SPACE, normalizeCode } from './spelling.ts';

/**
 * ECMAScript's WhiteSpace and LineTerminator in Unicode 15, by code point: what docs/code-format.md
 * §3 lists, written out here as the reference for the module's string.
 */
const LISTED = [
  0x0009, 0x000a, 0x000b, 0x000c, 0x000d, 0x0020, 0x00a0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

describe('a code\'s spellings', () => {
  it('normalises case, surrounding space and missing or spaced separators', () => {
    for (const input of ['fr-0rmb-cly0', '  FR-0RMB-CLY0\n', 'FR0RMBCLY0', 'fr0rmb-cly0', 'FR 0RMB CLY0', '\tfR-0rMb CLY0 ', `${' '.repeat(40)}FR-0RMB-CLY0${' '.repeat(40)}`, `${' '.repeat(100_000)}fr-0rmb-cly0${'\u3000'.repeat(100_000)}`]) {
      expect(normalizeCode(input)).toBe('FR-0RMB-CLY0');
    }
  });

  it('rejects wrong lengths, symbols, digits in the country and doubled separators', () => {
    for (const input of [
      '',
      'FR',
      'FR-0RMB-CLY',
      'FR-0RMB-CLY00',
      'FRA-0RMB-CLY0',
      'F1-0RMB-CLY0',
      'FR-0RM_-CLY0',
      'FR-0RMB-CLÝ0',
      'FR--0RMB-CLY0',
      'FR-0RMB--CLY0',
      'FR/0RMB/CLY0',
      '../FR-0RMB-CLY0',
      'FR-0RMB-CLY0%00',
      'x'.repeat(1000),
      `FR-0RMB-CLY0${' '.repeat(40)}x`,
      // Letters that upper-case to ASCII ones are not letters of a code.
      '\ufb01-0RMB-CLY0',
      'fr-0rmb-\u0131ly0',
      '\u017fe-0000-0000',
    ]) {
      expect(normalizeCode(input), input).toBeNull();
    }
    expect(normalizeCode(42 as unknown as string)).toBeNull();
  });

  it('trims exactly the white space code points docs/code-format.md §3 lists, and takes one of them or U+002D as a separator', () => {
    const trims: number[] = [];
    const separates: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (normalizeCode(`${ch}${ch}FR-0RMB-CLY0${ch}`) === 'FR-0RMB-CLY0') trims.push(c);
      if (normalizeCode(`FR${ch}0RMB${ch}CLY0`) === 'FR-0RMB-CLY0') separates.push(c);
    }
    // Beyond the BMP nothing is white space: a surrogate pair is never trimmed nor a separator.
    expect(normalizeCode('\u{1F600}FR-0RMB-CLY0')).toBeNull();
    expect(normalizeCode('FR\u{20000}0RMB-CLY0')).toBeNull();
    expect(trims).toEqual(LISTED);
    expect(separates).toEqual([...LISTED, 0x2d].sort((a, b) => a - b));
    expect(Array.from(WHITE_SPACE, (ch) => ch.charCodeAt(0))).toEqual(LISTED);
    const docs = readFileSync(new URL('../../docs/code-format.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## 3.'), docs.indexOf('## 4.'));
    const listed = [...section.matchAll(/U\+([0-9A-F]{4})(?:–U\+([0-9A-F]{4}))?/g)].flatMap(([, from, to]) => {
      const first = parseInt(from, 16);
      return Array.from({ length: (to ? parseInt(to, 16) : first) - first + 1 }, (_, i) => first + i);
    });
    expect(listed.filter((c) => LISTED.includes(c))).toEqual(LISTED);
  });

  it('takes none of the white space other conventions count, nor hyphens other than U+002D', () => {
    // NEL, the information separators (Python's str.strip()), the Mongolian vowel separator (white
    // space in Unicode before 6.3), zero-width space and joiner, and the other hyphens, dashes and minus signs.
    for (const c of [0x85, 0x1c, 0x1d, 0x1e, 0x1f, 0x180e, 0x200b, 0x200d, 0x2060, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2212, 0xfe63, 0xff0d, 0x058a, 0x30fc]) {
      const ch = String.fromCharCode(c);
      expect(normalizeCode(`${ch}FR-0RMB-CLY0`), c.toString(16)).toBeNull();
      expect(normalizeCode(`FR-0RMB-CLY0${ch}`), c.toString(16)).toBeNull();
      expect(normalizeCode(`FR${ch}0RMB-CLY0`), c.toString(16)).toBeNull();
    }
  });
});
