import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ALPHABET, MAX_BLOCKS, WHITE_SPACE, formatCode, isCodeFormat, normalizeCode, parseCode } from './format.ts';

const part = (n: number) => fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: n, maxLength: n });
const country = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 2, maxLength: 2 });

describe('code format', () => {
  it('has 36⁴ block numbers', () => {
    expect(MAX_BLOCKS).toBe(1_679_616);
  });

  it('normalises case, surrounding space and missing or spaced separators', () => {
    for (const input of ['fr-0rmb-cly0', '  FR-0RMB-CLY0\n', 'FR0RMBCLY0', 'fr0rmb-cly0', 'FR 0RMB CLY0', '\tfR-0rMb CLY0 ', `${' '.repeat(40)}FR-0RMB-CLY0${' '.repeat(40)}`]) {
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
      expect(parseCode(input), input).toBeNull();
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
    expect(trims).toEqual(WHITE_SPACE);
    expect(separates).toEqual([...WHITE_SPACE, 0x2d].sort((a, b) => a - b));
    expect(WHITE_SPACE).toHaveLength(25);
    const docs = readFileSync(new URL('../../docs/code-format.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## 3.'), docs.indexOf('## 4.'));
    const listed = [...section.matchAll(/U\+([0-9A-F]{4})(?:–U\+([0-9A-F]{4}))?/g)].flatMap(([, from, to]) => {
      const first = parseInt(from, 16);
      return Array.from({ length: (to ? parseInt(to, 16) : first) - first + 1 }, (_, i) => first + i);
    });
    expect(listed.filter((c) => WHITE_SPACE.includes(c))).toEqual(WHITE_SPACE);
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

  it('applies the contract\'s loose check as written: exact shape, any case, no trimming', () => {
    expect(isCodeFormat('FR-0RMB-CLY0')).toBe(true);
    expect(isCodeFormat('fr-0rmb-cly0')).toBe(true);
    expect(isCodeFormat(' FR-0RMB-CLY0')).toBe(false);
    expect(isCodeFormat('FR0RMBCLY0')).toBe(false);
    expect(isCodeFormat('12-0RMB-CLY0')).toBe(false);
  });

  it('reads back the parts it writes, digit pairs within 00–ZZ', () => {
    fc.assert(
      fc.property(
        country,
        fc.integer({ min: 0, max: MAX_BLOCKS - 1 }),
        fc.integer({ min: 0, max: 1295 }),
        fc.integer({ min: 0, max: 1295 }),
        (c, block, row, col) => {
          const code = formatCode({ country: c, block, row, col });
          expect(code).toMatch(/^[A-Z]{2}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
          expect(isCodeFormat(code)).toBe(true);
          expect(parseCode(code)).toEqual({ country: c, block, row, col });
          expect(parseCode(code.toLowerCase().replaceAll('-', ''))).toEqual({ country: c, block, row, col });
        },
      ),
    );
  });

  it('parses any well-formed code into in-range parts', () => {
    fc.assert(
      fc.property(country, part(4), part(4), (c, a, b) => {
        const parts = parseCode(`${c}-${a}-${b}`)!;
        expect(parts.block).toBeLessThan(MAX_BLOCKS);
        expect(parts.row).toBeLessThanOrEqual(1295);
        expect(parts.col).toBeLessThanOrEqual(1295);
        expect(formatCode(parts)).toBe(`${c}-${a}-${b}`);
      }),
    );
  });
});
