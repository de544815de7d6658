import { describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { bandColumns, cellAt, supportedCountries } from './cells.ts';
import { encode } from './codec.ts';
import { BANDS } from './grid.ts';

describe('cells without codes', () => {
  it('gives the same bounds as encode where there is a code, and bounds at sea where there is none', () => {
    expect(cellAt(48.8584, 2.2945)).toEqual(encode(48.8584, 2.2945).cell);
    const sea = cellAt(0, -30);
    expect(sea.south).toBeLessThanOrEqual(0);
    expect(sea.north).toBeGreaterThan(0);
    expect(sea.east - sea.west).toBeCloseTo(360 / bandColumns(BANDS / 2), 12);
  });

  it('validates its input', () => {
    expect(() => cellAt(NaN, 0)).toThrow(LocError);
    expect(() => cellAt(0, 181)).toThrow(/lng in \[-180, 180\]/);
    expect(() => bandColumns(BANDS)).toThrow(/band must be an integer/);
    expect(() => bandColumns(1.5)).toThrow(LocError);
  });

  it('lists the covered countries', () => {
    expect(supportedCountries()).toHaveLength(249);
  });
});
