/**
 * The written side of typo protection: which characters are look-alikes, how typed text is read,
 * and that every slip's variants hold the code it came from.
 */
import { describe, expect, it } from 'vitest';
import { ALPHABET } from './format.ts';
import { LOOK_ALIKE_GROUPS, asCode, readTyped, variantsOf } from './typos.ts';

describe('look-alikes', () => {
  it('are characters of the alphabet only, each group of two or more', () => {
    for (const group of LOOK_ALIKE_GROUPS) {
      expect(group.length, group).toBeGreaterThan(1);
      for (const c of group) expect(ALPHABET, group).toContain(c);
    }
  });
});

describe('readTyped', () => {
  it('forgives case, separators anywhere, Unicode dashes, the soft hyphen and fullwidth characters', () => {
    expect(readTyped(' fr-0rmb-cly0 ')).toBe('FR0RMBCLY0');
    expect(readTyped('F R0R–MB—CLY0')).toBe('FR0RMBCLY0');
    expect(readTyped('FR\u00ad0RMB\u2212CLY0')).toBe('FR0RMBCLY0');
    expect(readTyped('ＦＲ－０ＲＭＢ－ＣＬＹ０')).toBe('FR0RMBCLY0');
  });

  it('refuses anything else: punctuation, other scripts, letters that only upper-case to ASCII', () => {
    for (const input of ['FR.0RMB.CLY0', 'FR-0RMB-CLY0!', 'FR-0RМB-CLY0' /* Cyrillic М */, 'ﬁ-0RMB-CLY0', 'ı']) expect(readTyped(input), input).toBeNull();
  });
});

describe('variantsOf', () => {
  const codes = (chars: string) => variantsOf(chars).map(({ code, kind }) => `${code} ${kind}`);

  it('undoes a look-alike in either direction, and keeps the country two letters', () => {
    expect(codes('FR0RMBCLY0')).toEqual(expect.arrayContaining(['FR-ORMB-CLY0 look_alike', 'FR-0RM8-CLY0 look_alike', 'FR-0RMB-C1Y0 look_alike', 'FR-0RMB-CIY0 look_alike']));
    expect(codes('8E0000AAAA')).toContain('BE-0000-AAAA look_alike');
    expect(variantsOf('BE0000AAAA').every(({ code }) => /^[A-Z]{2}-/.test(code))).toBe(true);
  });

  it('swaps neighbours back, across the separators too', () => {
    expect(codes('FR0RMBCYL0')).toContain('FR-0RMB-CLY0 transposition');
    expect(codes('FRR0MBCLY0')).toContain('FR-0RMB-CLY0 transposition');
  });

  it('leaves out one character of eleven, puts back one of nine', () => {
    expect(codes('FR0RMBCCLY0')).toContain('FR-0RMB-CLY0 extra_character');
    expect(codes('FR0RMBLY0')).toContain('FR-0RMB-CLY0 missing_character');
    expect(variantsOf('FR0RMBLY0').length).toBeLessThanOrEqual(2 * 26 + 8 * 36);
    expect(variantsOf('FR0RMB')).toEqual([]);
  });

  it('lists each code once and never the input', () => {
    const listed = variantsOf('FR0000CLY0').map(({ code }) => code);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).not.toContain(asCode('FR0000CLY0'));
  });
});
