import { describe, expect, it } from 'vitest';
import { coverage } from '../shipped-table.ts';
import { BLOCK_SIZE, blocksInBand, rowOf } from '../grid.ts';
import { FeatureLookup } from './feature-lookup.ts';
import { FeatureEdges } from './gap-geometry.ts';
import { LandTest, insidePolygon, landBlocks, loadPlaces, ringCentroid } from './gap-land.ts';
import { loadLandPolygons } from './land.ts';
import { groupRegions, summarise } from './gap-regions.ts';
import { GapScan, type GapBlock } from './gap-scan.ts';
import { scanCoasts } from './gap-sources.ts';
import { BlockGrid, toRing } from './raster.ts';

const table = coverage();
const grid = new BlockGrid(table.columns);
const polygons = loadLandPolygons();
const land = landBlocks(grid, polygons, loadPlaces());
const newScan = (): GapScan => new GapScan(table, new FeatureLookup(table), new FeatureEdges(), land, new LandTest(polygons));

describe('gap scan', () => {
  it('finds the Chukotka strip east of 180°: Russian land in covered blocks, in no feature', () => {
    const scan = newScan();
    expect(scan.test(66, -179.999, 'antimeridian', false)).toBe(true);
    expect(scan.test(66, -179.99, 'antimeridian', false)).toBe(false);
    // One point per band along the strip, 60 m east of 180°, from the mainland's south coast to its north coast.
    const first = Math.floor(rowOf(65.2) / BLOCK_SIZE);
    const last = Math.floor(rowOf(68.8) / BLOCK_SIZE);
    for (let band = first; band <= last; band++) scan.test(grid.bandMid(band), -179.9988, 'antimeridian', false);
    const blocks = [...scan.blocks.values()];
    expect(blocks.length).toBe(last - first + 1);
    for (const b of blocks) {
      expect(b.block).toBe(0);
      expect(b.members).toContain('RU');
      expect(b.land && b.landPoints > 0).toBe(true);
      expect([...b.nearest.keys()]).toEqual(['RU']);
      expect(b.maxM).toBeLessThan(60);
    }
    const regions = groupRegions(scan.blocks, grid);
    expect(regions).toHaveLength(1);
    const summary = summarise(regions[0]);
    expect(summary.uncovered).toBe(0);
    expect(summary.south).toBeLessThan(65.3);
    expect(summary.north).toBeGreaterThan(68.7);
  });

  it('never reports a pure block, nor sea outside coverage', () => {
    const scan = newScan();
    expect(scan.test(48.8584, 2.2945, 'place', true)).toBe(false); // Paris, a pure FR block
    expect(scan.test(0, -140, 'mixed', false)).toBe(false); // the open Pacific
    expect(scan.counts.place.pure).toBe(1);
    expect(scan.counts.mixed.tested).toBe(0);
  });

  it('joins touching blocks into one region, across the antimeridian too', () => {
    const band = Math.floor(rowOf(66) / BLOCK_SIZE);
    const last = blocksInBand(table.columns[band]) - 1;
    const block = (b: number, j: number): [number, GapBlock] => [b * 16384 + j, { band: b, block: j } as GapBlock];
    const regions = groupRegions(new Map([block(band, 0), block(band, last), block(band + 1, 0), block(band, 5)]), grid);
    expect(regions.map((r) => r.length)).toEqual([3, 1]);
  });

  it('moves coast samples inland, for outer rings and holes of either winding', () => {
    const square = [[10, 10], [10.1, 10], [10.1, 10.1], [10, 10.1], [10, 10]];
    const hole = [[10.04, 10.04], [10.06, 10.04], [10.06, 10.06], [10.04, 10.06], [10.04, 10.04]];
    for (const outer of [square, [...square].reverse()]) {
      for (const inner of [hole, [...hole].reverse()]) {
        const polygon = [toRing(outer, true), toRing(inner, true)];
        const samples: [number, number][] = [];
        const recorder = { test: (lat: number, lng: number) => samples.push([lat, lng]) } as unknown as GapScan;
        scanCoasts(recorder, [polygon], () => {});
        expect(samples).toHaveLength(16);
        for (const [lat, lng] of samples) expect(insidePolygon(polygon, lng, lat)).toBe(true);
      }
    }
  });

  it('finds the centroid of a ring and tells land from sea at the antimeridian', () => {
    const { area2, x, y } = ringCentroid(toRing([[0, 0], [2, 0], [2, 1], [0, 1], [0, 0]], false));
    expect([area2, x, y]).toEqual([4, 1, 0.5]);
    const band = Math.floor(rowOf(66) / BLOCK_SIZE);
    const test = new LandTest(polygons).forBlock(grid.bandSouth(band), grid.bandNorth(band), -180, -179.9);
    expect(test(66, -179.999)).toBe(true); // Chukotka
    const sea = new LandTest(polygons).forBlock(grid.bandSouth(band), grid.bandNorth(band), -170, -169.9);
    expect(sea(66, -169.95)).toBe(false); // the Bering Strait
  });
});
