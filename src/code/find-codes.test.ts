import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCodes } from './find-codes.ts';
import { ALPHABET, isCodeFormat } from './format.ts';

const codes = (text: string) => findCodes(text).map((found) => found.code);

describe('findCodes', () => {
  it('finds every hyphenated code in running text, canonical and as written, with its index', () => {
    const text = 'Deliver to fr-0rmb-cly0 (gate) or US-550M-RQ5L.\nBackup: "DE-00AB-1234"';
    expect(findCodes(text)).toEqual([
      { code: 'FR-0RMB-CLY0', text: 'fr-0rmb-cly0', index: 11 },
      { code: 'US-550M-RQ5L', text: 'US-550M-RQ5L', index: 34 },
      { code: 'DE-00AB-1234', text: 'DE-00AB-1234', index: 57 },
    ]);
    for (const found of findCodes(text)) expect(text.slice(found.index, found.index + found.text.length)).toBe(found.text);
  });

  it('takes a code at either end of the text and beside punctuation or a dash that ends a phrase', () => {
    expect(codes('FR-0RMB-CLY0')).toEqual(['FR-0RMB-CLY0']);
    expect(codes('(FR-0RMB-CLY0), [us-550m-rq5l]; FR-0RMB-CLY0- and -FR-0RMB-CLY0')).toEqual(['FR-0RMB-CLY0', 'US-550M-RQ5L', 'FR-0RMB-CLY0', 'FR-0RMB-CLY0']);
  });

  it('leaves out what only looks like a code inside a longer token', () => {
    for (const text of ['XFR-0RMB-CLY0', 'FR-0RMB-CLY0X', 'AB-CD-EFGH-IJKL', 'FR-0RMB-CLY0-1', 'sku-FR-0RMB-CLY0', 'FRA-0RMB-CLY0', 'FR-0RMB-CLY00']) {
      expect(codes(text), text).toEqual([]);
    }
  });

  it('finds no spaced or unseparated spelling, which ordinary words would match', () => {
    expect(codes('my home here, everything, FR 0RMB CLY0, FR0RMBCLY0, FR\u20100RMB\u2010CLY0')).toEqual([]);
  });

  it('finds exactly the codes placed between separators in random text', () => {
    const part = (n: number) => fc.string({ unit: fc.constantFrom(...ALPHABET, ...'abcxyz'), minLength: n, maxLength: n });
    const code = fc.tuple(fc.string({ unit: fc.constantFrom(...'ABCZabz'), minLength: 2, maxLength: 2 }), part(4), part(4)).map((parts) => parts.join('-'));
    const filler = fc.string({ unit: fc.constantFrom(' ', ',', '.', '\n', '(', ')', '—'), minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, code)), filler, (pieces, tail) => {
        const text = pieces.map(([before, written]) => before + written).join('') + tail;
        expect(findCodes(text).map((found) => found.text)).toEqual(pieces.map(([, written]) => written));
        for (const found of findCodes(text)) expect(isCodeFormat(found.code) && found.code === found.code.toUpperCase()).toBe(true);
      }),
    );
  });

  it('names what it received when it is not a string', () => {
    expect(() => findCodes(42 as unknown as string)).toThrow('findCodes: expected a string, received number.');
  });
});
