import * as countryCoder from '@rapideditor/country-coder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryFlag, countryName, territoryOf, territoryOfFeature } from './country.ts';

describe('country of a point', () => {
  it('is country-coder’s territory-level ISO code, except the reassigned ones', () => {
    fc.assert(
      fc.property(fc.double({ min: -60, max: 84, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (lat, lng) => {
        const theirs = countryCoder.iso1A2Code([lng, lat], { level: 'territory' });
        const ours = territoryOf(lat, lng);
        if (theirs === 'EA') expect(ours).toBe('ES');
        else if (theirs === null && ours !== null) expect(ours).toBe('CY');
        else expect(ours).toBe(theirs);
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives territories their own code', () => {
    expect(territoryOf(18.4655, -66.1057)).toBe('PR');
    expect(territoryOf(13.4443, 144.7937)).toBe('GU');
    expect(territoryOf(54.15, -4.4833)).toBe('IM');
    expect(territoryOf(78.2232, 15.6267)).toBe('SJ');
    expect(territoryOf(48.8584, 2.2945)).toBe('FR');
    expect(territoryOf(28.1235, -15.4363)).toBe('ES');
  });

  it('maps Ceuta and Melilla to ES and Northern Cyprus to CY', () => {
    expect(countryCoder.iso1A2Code([-5.3198, 35.8894], { level: 'territory' })).toBe('EA');
    expect(territoryOf(35.8894, -5.3198)).toBe('ES');
    expect(territoryOf(35.2923, -2.9381)).toBe('ES');
    expect(countryCoder.iso1A2Code([33.3642, 35.1753], { level: 'territory' })).toBeNull();
    expect(territoryOf(35.1753, 33.3642)).toBe('CY');
    expect(territoryOf(0, 0)).toBeNull();
  });

  it('names the code of a feature as points inside it are named', () => {
    expect(territoryOfFeature('PR')).toBe('PR');
    expect(territoryOfFeature('FX')).toBe('FR');
    expect(territoryOfFeature('Q23681')).toBe('CY');
    expect(territoryOfFeature('Q620634')).toBeNull(); // Bir Tawil: no country
  });

  it('names countries and their flags', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryFlag('FR')).toBe('🇫🇷');
  });
});
