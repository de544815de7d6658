import * as countryCoder from '@rapideditor/country-coder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BorderIndex, valueAt } from './border-index.ts';
import { territoryOf } from './country.ts';
import { coverage } from './shipped-table.ts';
import { BLOCK_SIZE, colOf, colWest, rowOf, rowSouth } from './grid.ts';

const table = coverage();
const borders = table.borders!;
const index = new BorderIndex(borders);

/** The index's answer for a point, with the bounds of the block that holds it. */
function indexed(lat: number, lng: number): string | null {
  const row = rowOf(lat);
  const band = Math.floor(row / BLOCK_SIZE);
  const n = table.columns[band];
  const block = Math.floor(colOf(lng, n) / BLOCK_SIZE);
  const south = rowSouth(band * BLOCK_SIZE);
  const north = rowSouth((band + 1) * BLOCK_SIZE);
  const west = colWest(block * BLOCK_SIZE, n);
  const east = colWest(Math.min(n, (block + 1) * BLOCK_SIZE), n);
  const record: number[] = [];
  index.record(south, north, west, east, (polygon) => borders.code[polygon], record);
  const found = valueAt(Float64Array.from(record), 0, lat, lng, -1);
  return found <= 0 ? null : borders.codes[found - 1];
}

const edges = countryCoder.borders.features
  .filter((f) => f.geometry)
  .flatMap((f) => {
    const g = f.geometry!;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    return polygons.flatMap((rings) => rings.flatMap((ring) => ring.slice(1).map((p, i) => [ring[i], p] as const)));
  });

describe('border index', () => {
  it('answers as country-coder does anywhere (the table\'s polygons, with country-coder as the oracle)', () => {
    fc.assert(
      fc.property(fc.double({ min: -89.9, max: 89.9, noNaN: true }), fc.double({ min: -180, max: 179.999, noNaN: true }), (lat, lng) => {
        expect(indexed(lat, lng)).toBe(territoryOf(lat, lng));
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers as country-coder does on and a hair beside border edges', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: edges.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6),
        fc.constantFrom(0, 1e-12, -1e-12, 1e-9, -1e-9),
        (e, t, dy, dx) => {
          const [[x1, y1], [x2, y2]] = edges[e];
          const lat = y1 + t * (y2 - y1) + dy;
          const lng = x1 + t * (x2 - x1) + dx;
          fc.pre(lat > -90 && lat < 90 && lng >= -180 && lng < 180);
          expect(indexed(lat, lng)).toBe(territoryOf(lat, lng));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
