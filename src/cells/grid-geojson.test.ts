import { describe, expect, it } from 'vitest';
import { cellsGeoJson, parseBbox } from './grid-geojson.ts';

/** Across the French–Belgian border west of Halluin. */
const BORDER = parseBbox('3.1064,50.7838,3.1070,50.7842');

describe('the cells of a box as GeoJSON', () => {
  it('carry the codes of every country the codes cover, by default', () => {
    const countries = new Set(cellsGeoJson({ supportedCountries: null }, BORDER).features.map(({ properties }) => properties.country_code));
    expect([...countries].sort()).toEqual(['BE', 'FR']);
  });

  it('carry no code in a country the service does not hand codes out in (LOC_SUPPORTED_COUNTRIES), as resolve refuses it', () => {
    const all = cellsGeoJson({ supportedCountries: null }, BORDER).features;
    const served = cellsGeoJson({ supportedCountries: new Set(['FR']) }, BORDER).features;
    expect(served.map(({ geometry }) => geometry)).toEqual(all.map(({ geometry }) => geometry));
    expect(served.map(({ properties }) => properties)).toEqual(
      all.map(({ properties }) => (properties.country_code === 'FR' ? properties : { loc_code: null, country_code: null })),
    );
  });
});

describe('bbox', () => {
  it('is read as west, south, east, north, spaces around the commas forgiven', () => {
    expect(parseBbox(' -1.5 , 2,+3.25,4 ')).toEqual({ west: -1.5, south: 2, east: 3.25, north: 4 });
  });

  it('may cross the antimeridian, and reach it from either side', () => {
    expect(parseBbox('179.9,-17,-179.9,-16.9')).toEqual({ west: 179.9, south: -17, east: -179.9, north: -16.9 });
    expect(parseBbox('-180,0,180,1')).toEqual({ west: -180, south: 0, east: 180, north: 1 });
    expect(parseBbox('180,0,-179.9,1')).toEqual({ west: 180, south: 0, east: -179.9, north: 1 });
  });

  it('has a width: the same meridian twice is refused, 180 and -180 included', () => {
    for (const text of ['5,0,5,1', '180,0,-180,1', '-180,0,-180,1']) expect(() => parseBbox(text), text).toThrow('bbox must have a width');
  });
});
