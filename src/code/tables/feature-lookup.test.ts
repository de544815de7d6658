import * as countryCoder from '@rapideditor/country-coder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { territoryOf } from '../country.ts';
import { coverage } from '../shipped-table.ts';
import { BLOCK_SIZE, colOf, rowOf } from '../grid.ts';
import { FeatureLookup, NO_FEATURE, UNCODED_FEATURE } from './feature-lookup.ts';

const table = coverage();
const lookup = new FeatureLookup(table);

/** The lookup's answer as a territory code, or null (no feature), or 'uncoded'. */
function answer(lat: number, lng: number): string | null {
  const band = Math.floor(rowOf(lat) / BLOCK_SIZE);
  const block = Math.floor(colOf(lng, table.columns[band]) / BLOCK_SIZE);
  const v = lookup.at(band, block, lat, lng);
  return v === NO_FEATURE ? null : v === UNCODED_FEATURE ? 'uncoded' : lookup.codes[v];
}

const edgePoints = countryCoder.borders.features
  .filter((f) => f.geometry)
  .flatMap((f) => {
    const g = f.geometry!;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    return polygons.flatMap((rings) => rings.flatMap((ring) => ring.slice(1).map((p, i) => [ring[i], p] as const)));
  });

describe('feature lookup', () => {
  it('answers as country-coder does, anywhere and beside feature edges', () => {
    fc.assert(
      fc.property(fc.double({ min: -89.9, max: 89.9, noNaN: true }), fc.double({ min: -180, max: 179.999, noNaN: true }), (lat, lng) => {
        expect(answer(lat, lng) ?? null).toBe(territoryOf(lat, lng));
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: edgePoints.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(1e-9, -1e-9, 1e-5, -1e-5), (e, t, d) => {
        const [[x1, y1], [x2, y2]] = edgePoints[e];
        const lat = y1 + t * (y2 - y1) + d;
        const lng = x1 + t * (x2 - x1) - d;
        fc.pre(lat > -90 && lat < 90 && lng >= -180 && lng < 180);
        const found = answer(lat, lng);
        expect(found === 'uncoded' ? null : found).toBe(territoryOf(lat, lng));
      }),
      { numRuns: 2_000 },
    );
  });

  it('tells the Chukotka strip (no feature) from Bir Tawil (a feature without a code)', () => {
    expect(answer(66, -179.999)).toBeNull();
    expect(answer(66, -179.99)).toBe('RU');
    expect(answer(21.9, 33.7)).toBe('uncoded');
    expect(territoryOf(21.9, 33.7)).toBeNull();
  });
});
