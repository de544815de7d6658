import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALPHABET, MAX_BLOCKS, formatCode, isCodeFormat, parseCode } from './format.ts';

const part = (n: number) => fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: n, maxLength: n });
const country = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 2, maxLength: 2 });

describe('code format', () => {
  it('has 36⁴ block numbers', () => {
    expect(MAX_BLOCKS).toBe(1_679_616);
  });

  it('parses every spelling a person may write, and nothing that is not a code', () => {
    for (const input of ['fr-0rmb-cly0', '  FR-0RMB-CLY0\n', 'FR0RMBCLY0', 'FR 0RMB CLY0']) {
      expect(parseCode(input), input).toEqual({ country: 'FR', block: parseInt('0RMB', 36), row: parseInt('CL', 36), col: parseInt('Y0', 36) });
    }
    for (const input of ['', 'FR-0RMB-CLY', 'F1-0RMB-CLY0', 'FR--0RMB-CLY0', '\ufb01-0RMB-CLY0', 42 as unknown as string]) {
      expect(parseCode(input), String(input)).toBeNull();
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
