import * as countryCoder from '@rapideditor/country-coder';
import fc from 'fast-check';
import whichPolygon from 'which-polygon';
import { describe, expect, it } from 'vitest';
import { coverage } from '../shipped-table.ts';
import { territoryOfFeature } from '../country.ts';
import { borderPolygons } from './borders.ts';

const features = countryCoder.borders.features.filter((f) => f.geometry);
const query = whichPolygon({ type: 'FeatureCollection', features } as Parameters<typeof whichPolygon>[0]);
type Item = { minX: number; minY: number; maxX: number; maxY: number; coords: number[][][]; props: { id: string } };
const tree = query.tree as unknown as { all(): Item[]; search(box: { minX: number; minY: number; maxX: number; maxY: number }): Item[] };
const items = tree.all();

describe('the border polygons a table carries', () => {
  it('are the ones the shipped table holds, bit for bit', () => {
    const derived = borderPolygons();
    const stored = coverage().borders!;
    expect(stored.codes).toEqual(derived.codes);
    expect(stored.code).toEqual(derived.code);
    expect(stored.polygonStart).toEqual(derived.polygonStart);
    expect(stored.ringStart).toEqual(derived.ringStart);
    for (const key of ['boxes', 'xs', 'ys'] as const) {
      const mismatch = derived[key].findIndex((v, i) => !Object.is(v, stored[key][i]));
      expect(mismatch, key).toBe(-1);
      expect(stored[key].length).toBe(derived[key].length);
    }
  });

  it('are country-coder\'s, in which-polygon\'s tree order, each with the territory code of its feature', () => {
    const { codes, code, boxes, polygonStart, ringStart, xs } = borderPolygons();
    expect(code.length).toBe(items.length);
    expect(xs.length).toBe(26_445);
    items.forEach((item, p) => {
      const expected = territoryOfFeature(item.props.id);
      expect(code[p] === 0 ? null : codes[code[p] - 1]).toBe(expected);
      expect([...boxes.subarray(4 * p, 4 * p + 4)]).toEqual([item.minX, item.minY, item.maxX, item.maxY]);
      const rings = item.coords.map((ring) => ring.length);
      expect(Array.from({ length: polygonStart[p + 1] - polygonStart[p] }, (_, r) => ringStart[polygonStart[p] + r + 1] - ringStart[polygonStart[p] + r])).toEqual(rings);
    });
    expect(codes).toContain('AQ'); // a code without location codes: the test still answers it, and it has none
    expect(code.filter((c) => c === 0).length).toBeGreaterThan(0); // Bir Tawil answers none
  });

  it('are tried in the order which-polygon\'s search returns them: all() order, those whose box holds the point', () => {
    const holds = (item: Item, lng: number, lat: number): boolean => item.minX <= lng && lng <= item.maxX && item.minY <= lat && lat <= item.maxY;
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (lat, lng) => {
        const found = tree.search({ minX: lng, minY: lat, maxX: lng, maxY: lat });
        expect(found).toEqual(items.filter((item) => holds(item, lng, lat)));
      }),
      { numRuns: 5_000 },
    );
  });
});
