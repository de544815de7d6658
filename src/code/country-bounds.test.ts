/**
 * Country boxes from country-coder's borders: a country's box holds its own parts and not those with
 * codes of their own; one across the antimeridian crosses it when that is narrower; several countries
 * get the smallest box holding all, padded, or none when that would be most of the world.
 */
import { describe, expect, it } from 'vitest';
import { territoryOf } from './country.ts';
import { MAX_VIEW_WIDTH, VIEW_PADDING, arcWidth, countriesViewBox, countryBox, type Box } from './country-bounds.ts';

/** Whether a box holds a point (as the service's session-area.ts judges `bounds`). */
const holds = (box: Box, lat: number, lng: number) =>
  lat >= box.south && lat <= box.north && (box.west <= box.east ? lng >= box.west && lng <= box.east : lng >= box.west || lng <= box.east);

const PARIS = [48.8584, 2.2945] as const;
const BREST = [48.3904, -4.4861] as const;
const STRASBOURG = [48.5734, 7.7521] as const;
const AJACCIO = [41.9192, 8.7386] as const;
const CAYENNE = [4.9372, -52.326] as const;
const SAINT_DENIS_REUNION = [-20.8823, 55.4504] as const;
const CLIPPERTON = [10.3, -109.22] as const;

describe('countryBox', () => {
  it('FR is Metropolitan France and Corsica: the overseas regions have codes, and boxes, of their own', () => {
    // The premise: country-coder's FR holds them, but at territory level they are GF and RE.
    expect(territoryOf(...CAYENNE)).toBe('GF');
    expect(territoryOf(...SAINT_DENIS_REUNION)).toBe('RE');
    const fr = countryBox('FR')!;
    for (const [lat, lng] of [PARIS, BREST, STRASBOURG, AJACCIO]) expect(holds(fr, lat, lng), `${lat}, ${lng}`).toBe(true);
    expect(holds(fr, ...CAYENNE)).toBe(false);
    expect(holds(fr, ...SAINT_DENIS_REUNION)).toBe(false);
    expect(fr.west).toBeGreaterThan(-7);
    expect(fr.east).toBeLessThan(11);
    expect(fr.south).toBeGreaterThan(40.5);
    expect(fr.north).toBeLessThan(52);
    expect(holds(countryBox('GF')!, ...CAYENNE)).toBe(true);
  });

  it('leaves Clipperton Island, FR at territory level, out of France’s box', () => {
    expect(territoryOf(...CLIPPERTON)).toBe('FR');
    expect(holds(countryBox('FR')!, ...CLIPPERTON)).toBe(false);
  });

  it('DE is Germany, from Aachen to Görlitz and from the Alps to Sylt, with its coastal sea', () => {
    const de = countryBox('DE')!;
    // Aachen is at 6.08° E, the westmost land at 5.87° E; the border in the North Sea reaches 5.45° E.
    expect(de.west).toBeGreaterThan(5.4);
    expect(de.west).toBeLessThan(5.87);
    expect(de.east).toBeGreaterThan(15);
    expect(de.east).toBeLessThan(15.1);
    expect(de.south).toBeGreaterThan(47.2);
    expect(de.south).toBeLessThan(47.3);
    expect(de.north).toBeGreaterThan(55);
    expect(de.north).toBeLessThan(55.2);
  });

  it('US, with the Aleutians past 180°, crosses the antimeridian: narrower than Attu to Maine the long way', () => {
    const us = countryBox('US')!;
    expect(us.west).toBeGreaterThan(us.east);
    expect(us.west).toBeGreaterThan(165);
    expect(us.east).toBeLessThan(-60);
    expect(arcWidth(us)).toBeLessThan(us.west - us.east);
    for (const [lat, lng] of [[52.93, 173.2], [21.3069, -157.8583], [61.2181, -149.9003], [40.7128, -74.006], [25.7617, -80.1918]]) {
      expect(holds(us, lat, lng), `${lat}, ${lng}`).toBe(true);
    }
    expect(holds(us, 35.68, 139.69)).toBe(false);
  });

  it('RU and FJ cross the antimeridian; DE does not', () => {
    const ru = countryBox('RU')!;
    expect(ru.west).toBeGreaterThan(ru.east);
    expect(holds(ru, 54.71, 20.51)).toBe(true); // Kaliningrad
    expect(holds(ru, 66.1, -169.7)).toBe(true); // Chukotka, east of 180°
    expect(holds(ru, 40.71, -74)).toBe(false);
    const fj = countryBox('FJ')!;
    expect(fj.west).toBeGreaterThan(fj.east);
    expect(arcWidth(fj)).toBeLessThan(12);
    expect(holds(fj, -18.1416, 178.4419)).toBe(true); // Suva
    expect(holds(fj, -18.05, -178.65)).toBe(true); // Lakeba, in the Lau group
    const de = countryBox('DE')!;
    expect(de.west).toBeLessThan(de.east);
  });

  it('is null for a code without land, and the same box on every call', () => {
    expect(countryBox('ZZ')).toBeNull();
    expect(countryBox('DE')).toBe(countryBox('DE'));
  });
});

describe('countriesViewBox', () => {
  it('is one country’s box, padded', () => {
    const de = countryBox('DE')!;
    expect(countriesViewBox(['DE'])).toEqual({
      south: de.south - VIEW_PADDING,
      west: de.west - VIEW_PADDING,
      north: de.north + VIEW_PADDING,
      east: de.east + VIEW_PADDING,
    });
  });

  it('DE and FR: the smallest box holding both', () => {
    const de = countryBox('DE')!;
    const fr = countryBox('FR')!;
    expect(countriesViewBox(['DE', 'FR'])).toEqual({
      south: fr.south - VIEW_PADDING,
      west: fr.west - VIEW_PADDING,
      north: de.north + VIEW_PADDING,
      east: de.east + VIEW_PADDING,
    });
    expect(countriesViewBox(['FR', 'DE'])).toEqual(countriesViewBox(['DE', 'FR']));
  });

  it('pads across the antimeridian, and unites boxes on both sides of it the short way', () => {
    const fj = countriesViewBox(['FJ'])!;
    expect(fj.west).toBeGreaterThan(fj.east);
    expect(arcWidth(fj)).toBeCloseTo(arcWidth(countryBox('FJ')!) + 2 * VIEW_PADDING, 9);
    // Fiji (across 180°) and Samoa (east of it) and Tuvalu (west of it): one box round 180°, not one round the world.
    const pacific = countriesViewBox(['FJ', 'WS', 'TV'])!;
    expect(pacific.west).toBeGreaterThan(pacific.east);
    expect(arcWidth(pacific)).toBeLessThan(40);
    expect(holds(pacific, -13.8333, -171.75)).toBe(true); // Apia
    expect(holds(pacific, -8.52, 179.2)).toBe(true); // Funafuti
  });

  it('is null when the countries are so far apart that the box would be most of the world', () => {
    expect(countriesViewBox(['BR', 'JP'])).toBeNull();
    expect(countriesViewBox(['US', 'RU', 'AU'])).toBeNull();
    // Not merely wide: Russia alone, about 174° padded, still gets its box.
    expect(arcWidth(countriesViewBox(['RU'])!)).toBeLessThan(MAX_VIEW_WIDTH);
  });

  it('is null when a country has no land in country-coder', () => {
    expect(countriesViewBox(['DE', 'ZZ'])).toBeNull();
  });
});
