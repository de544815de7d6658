/**
 * Reading pasted coordinates: the forms people paste, each from a table, then every form written by a
 * formatter from random points and read back (fast-check), the order rule, and what is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCoordinates } from './coordinates.ts';

const EIFFEL = { lat: 48.8584, lng: 2.2945 };
/** The Eiffel Tower in degrees-minutes-seconds, 48°51'30.24"N 2°17'40.2"E. */
const EIFFEL_DMS = { lat: 48 + 51 / 60 + 30.24 / 3600, lng: 2 + 17 / 60 + 40.2 / 3600 };

const read = (text: string) => {
  const parsed = parseCoordinates(text);
  expect(parsed, text).not.toBeNull();
  return parsed!;
};
const expectAt = (text: string, at: { lat: number; lng: number }, swapped = false) => {
  const parsed = read(text);
  expect(parsed.lat, text).toBeCloseTo(at.lat, 9);
  expect(parsed.lng, text).toBeCloseTo(at.lng, 9);
  expect(parsed.swapped, text).toBe(swapped);
};

describe('decimal pairs', () => {
  it.each([
    '48.8584, 2.2945', '48.8584,2.2945', '48.8584 2.2945', '48.8584;2.2945', ' 48.8584 / 2.2945 ', '+48.8584, +2.2945',
    '48.8584N 2.2945E', '48.8584 n, 2.2945 e', '48.8584°N 2.2945°E', '48.8584° N, 2.2945° E', 'N 48.8584 E 2.2945', 'N48.8584, E2.2945',
    '2.2945E 48.8584N', 'E 2.2945 N 48.8584', '48.8584º, 2.2945º',
  ])('%s', (text) => expectAt(text, EIFFEL));

  it('south and west are negative, by sign or by letter; a Unicode minus is a minus', () => {
    expectAt('-33.8568, 151.2153', { lat: -33.8568, lng: 151.2153 });
    expectAt('33.8568S 151.2153E', { lat: -33.8568, lng: 151.2153 });
    expectAt('40.6892 N, 74.0445 W', { lat: 40.6892, lng: -74.0445 });
    expectAt('40.6892, −74.0445', { lat: 40.6892, lng: -74.0445 });
    expectAt('S 22.9519 W 43.2105', { lat: -22.9519, lng: -43.2105 });
  });
});

describe('degrees, minutes and seconds', () => {
  it.each([
    `48°51'30.24"N 2°17'40.2"E`, `48°51'30.24"N, 2°17'40.2"E`, `48° 51' 30.24" N 2° 17' 40.2" E`, '48°51′30.24″N 2°17′40.2″E',
    `48°51’30.24”N 2°17’40.2”E`, `N 48°51'30.24" E 2°17'40.2"`, '48 51 30.24 N 2 17 40.2 E', `48°51'30.24''N 2°17'40.2''E`,
  ])('%s', (text) => expectAt(text, EIFFEL_DMS));

  it('degrees and decimal minutes', () => {
    expectAt(`48°51.504'N 2°17.67'E`, { lat: 48 + 51.504 / 60, lng: 2 + 17.67 / 60 });
    expectAt(`40°41.352'N 74°2.67'W`, { lat: 40 + 41.352 / 60, lng: -(74 + 2.67 / 60) });
  });
});

describe('links', () => {
  it.each([
    'https://www.google.com/maps/@48.8584,2.2945,17z',
    'https://www.google.com/maps/place/Tour+Eiffel/@48.8584,2.2945,17z/data=!3m1!4b1',
    'https://www.google.com/maps?q=48.8584,2.2945',
    'https://maps.google.com/?q=48.8584%2C2.2945&z=17',
    'https://www.google.com/maps/search/?api=1&query=48.8584%2C+2.2945',
    'https://www.openstreetmap.org/#map=17/48.8584/2.2945',
    'https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=17/48.85/2.29',
    'https://www.openstreetmap.org/?mlon=2.2945&mlat=48.8584',
    'https://maps.apple.com/?ll=48.8584,2.2945&q=Pin',
    'geo:48.8584,2.2945', 'geo:48.8584,2.2945,35;u=10', 'GEO:48.8584,2.2945?z=19',
  ])('%s', (text) => expectAt(text, EIFFEL));

  it('a Google place link gives the place’s pin (!3d…!4d…), not the centre of the view it was shared from', () => {
    expectAt('https://www.google.com/maps/place/Tour+Eiffel/@48.85,2.29,15z/data=!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d48.8584!4d2.2945', EIFFEL);
  });

  it('a link without coordinates, or with them out of range, is none', () => {
    for (const text of ['https://maps.app.goo.gl/abc123', 'https://www.google.com/maps/place/Tour+Eiffel', 'https://example.com/', 'geo:91,0', 'https://www.openstreetmap.org/#map=17/95/2']) {
      expect(parseCoordinates(text), text).toBeNull();
    }
  });
});

describe('order', () => {
  it('a pair is latitude, longitude', () => {
    expectAt('10, 20', { lat: 10, lng: 20 });
    expectAt('-80, 170', { lat: -80, lng: 170 });
  });

  it('a first number beyond ±90 beside a second within it is read as longitude, latitude, and says so', () => {
    expectAt('151.2153, -33.8568', { lat: -33.8568, lng: 151.2153 }, true);
    expectAt('-122.4783 37.8199', { lat: 37.8199, lng: -122.4783 }, true);
  });

  it('letters decide, and are never called a swap', () => {
    expectAt('151.2153E 33.8568S', { lat: -33.8568, lng: 151.2153 });
    expectAt('10E 20N', { lat: 20, lng: 10 });
  });
});

describe('refusals', () => {
  it.each([
    '', '48.8584', 'Paris', 'FR-0RMB-CLY0', '91, 91', '0, 181', '120, 100', '48.8584N 2.2945N', '2.29E 48.85W', '-48.85S 2.29E',
    `48°61'0"N 2°0'0"E`, `48°51'60"N 2°0'0"E`, `48.5°30'N 2°E`, '48.8584, 2.2945, 3', '1 2 3 4 5 6 7', 'N 48.85 2.29', '4.8.8, 2',
    `${'1'.repeat(40)} ${'2'.repeat(40)}`,
  ])('%j', (text) => expect(parseCoordinates(text)).toBeNull());
});

/** A latitude and a longitude to the micro-degree, as pasted pairs usually carry. */
const micro = (max: number) => fc.integer({ min: -max * 1e6, max: max * 1e6 }).map((v) => v / 1e6);
const point = fc.record({ lat: micro(90), lng: micro(180) });
const hemisphere = (value: number, axis: 'lat' | 'lng') => (axis === 'lat' ? (value < 0 ? 'S' : 'N') : value < 0 ? 'W' : 'E');

describe('round trips', () => {
  it('a decimal pair, signed, in any separator, reads back as written', () => {
    fc.assert(
      fc.property(point, fc.constantFrom(', ', ',', ' ', '; '), ({ lat, lng }, separator) => {
        // A first number beyond ±90 is never a latitude: this writer writes latitudes first.
        const parsed = parseCoordinates(`${lat}${separator}${lng}`);
        expect(parsed).toEqual({ lat, lng, swapped: false });
      }),
    );
  });

  it('with hemisphere letters, after or before, in either order', () => {
    fc.assert(
      fc.property(point, fc.boolean(), fc.boolean(), ({ lat, lng }, before, lngFirst) => {
        const write = (value: number, axis: 'lat' | 'lng') => (before ? `${hemisphere(value, axis)} ${Math.abs(value)}` : `${Math.abs(value)}°${hemisphere(value, axis)}`);
        const parts = [write(lat, 'lat'), write(lng, 'lng')];
        const text = (lngFirst ? parts.reverse() : parts).join(' ');
        const parsed = parseCoordinates(text);
        expect(parsed, text).toEqual({ lat: lat === 0 ? 0 : lat, lng: lng === 0 ? 0 : lng, swapped: false });
      }),
    );
  });

  it('degrees, minutes and hundredths of seconds', () => {
    const dms = (max: number) => fc.record({ d: fc.integer({ min: 0, max: max - 1 }), m: fc.integer({ min: 0, max: 59 }), cs: fc.integer({ min: 0, max: 5999 }), negative: fc.boolean() });
    fc.assert(
      fc.property(dms(90), dms(180), fc.constantFrom(`°'"`, '   ', `°′″`), (a, b, [deg, min, sec]) => {
        const value = ({ d, m, cs, negative }: typeof a) => (negative ? -1 : 1) * (d + m / 60 + cs / 360_000);
        const write = (x: typeof a, axis: 'lat' | 'lng') => `${x.d}${deg}${x.m}${min}${(x.cs / 100).toFixed(2)}${sec}${hemisphere(x.negative ? -1 : 1, axis)}`;
        const text = `${write(a, 'lat')} ${write(b, 'lng')}`;
        const parsed = parseCoordinates(text)!;
        expect(parsed, text).not.toBeNull();
        expect(parsed.lat, text).toBeCloseTo(value(a), 10);
        expect(parsed.lng, text).toBeCloseTo(value(b), 10);
      }),
    );
  });

  it('every link form', () => {
    const links = [
      (lat: number, lng: number) => `https://www.google.com/maps/@${lat},${lng},17z`,
      (lat: number, lng: number) => `https://www.google.com/maps/place/X/@0,0,3z/data=!3m1!4b1!4m5!3m4!8m2!3d${lat}!4d${lng}`,
      (lat: number, lng: number) => `https://www.google.com/maps?q=${encodeURIComponent(`${lat},${lng}`)}`,
      (lat: number, lng: number) => `https://www.openstreetmap.org/#map=18/${lat}/${lng}`,
      (lat: number, lng: number) => `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}`,
      (lat: number, lng: number) => `geo:${lat},${lng}`,
    ];
    fc.assert(
      fc.property(point, fc.constantFrom(...links), ({ lat, lng }, link) => {
        expect(parseCoordinates(link(lat, lng))).toEqual({ lat, lng, swapped: false });
      }),
    );
  });

  it('a pair whose first number cannot be a latitude is read swapped, and says so', () => {
    const outsideLatitudes = fc.integer({ min: 90_000_001, max: 180_000_000 }).chain((v) => fc.constantFrom(v / 1e6, -v / 1e6));
    fc.assert(
      fc.property(outsideLatitudes, micro(90), (lng, lat) => {
        expect(parseCoordinates(`${lng}, ${lat}`)).toEqual({ lat, lng, swapped: true });
      }),
    );
  });
});
