import { describe, expect, it } from 'vitest';
import { coverage } from '../shipped-table.ts';
import { BLOCK_SIZE } from '../grid.ts';
import { FeatureLookup } from './feature-lookup.ts';
import { FeatureEdges } from './gap-geometry.ts';
import { LandTest, landBlocks, loadPlaces } from './gap-land.ts';
import { deriveFills } from './gap-fills.ts';
import { GapScan, type GapBlock } from './gap-scan.ts';
import { loadLandPolygons } from './land.ts';
import { BlockGrid } from './raster.ts';

const table = coverage();
const polygons = loadLandPolygons();
const land = landBlocks(new BlockGrid(table.columns), polygons, loadPlaces());
const lookup = new FeatureLookup(table);
const edges = new FeatureEdges();
const newScan = (): GapScan => new GapScan(table, lookup, edges, land, new LandTest(polygons));
const shippedFill = (band: number, block: number) => table.fills.find((f) => f.band === band && f.block === block);

/** A gap block as the scan records it, with the nearest coded features given. */
const gapBlock = (members: string[], nearest: [string, number][]): GapBlock => ({
  band: 3000,
  block: 7,
  lat: 0,
  lng: 0,
  members,
  land: false,
  points: { coast: 0, antimeridian: 0, border: 0, island: 0, place: 0, mixed: 1 },
  landPoints: 0,
  nearest: new Map(nearest.map(([code, m]) => [code, { points: 1, minM: m, maxM: m }])),
  minM: Math.min(...nearest.map(([, m]) => m)),
  maxM: Math.max(...nearest.map(([, m]) => m)),
  unreached: 0,
});

describe('the fills of the erratum rule', () => {
  it('gives the Chukotka strip east of 180° one fill, Russia, as the shipped table has it', () => {
    const scan = newScan();
    expect(scan.test(66, -179.999, 'antimeridian', false)).toBe(true);
    const fills = deriveFills(scan.blocks.values(), table, lookup, edges);
    expect(fills).toHaveLength(1);
    const [fill] = fills;
    expect(fill).toEqual({ band: fill.band, block: 0, country: table.indexOfCountry('RU'), squares: null });
    expect(shippedFill(fill.band, fill.block)).toEqual(fill);
  });

  it('gives a block where countries meet a fill per square, as the shipped table has it', () => {
    const shipped = table.fills.find((f) => f.squares !== null)!;
    const scan = newScan();
    // The scan's own sampling of a mixed block: the centre cell of every 12 × 12 cells.
    const columns = table.columns[shipped.band];
    for (let r = 6; r < BLOCK_SIZE; r += 12) {
      for (let c = 6; c < BLOCK_SIZE && shipped.block * BLOCK_SIZE + c < columns; c += 12) {
        scan.testCell(shipped.band * BLOCK_SIZE + r, shipped.block * BLOCK_SIZE + c, 'mixed', false);
      }
    }
    const fills = deriveFills(scan.blocks.values(), table, lookup, edges);
    expect(fills).toEqual([shipped]);
    expect(new Set(shipped.squares).size).toBeGreaterThan(1);
  });

  it('gives no fill where the nearest feature is Antarctica\'s or beyond reach, and refuses a block no country covers', () => {
    expect(deriveFills([gapBlock(['AR'], [['AQ', 100]])], table, lookup, edges)).toEqual([]);
    expect(deriveFills([gapBlock(['RU'], [['RU', 6_000]])], table, lookup, edges)).toEqual([]);
    expect(() => deriveFills([gapBlock([], [['RU', 100]])], table, lookup, edges)).toThrow(/band 3000 block 7 is covered by no country/);
    expect(() => deriveFills([gapBlock(['RU'], [['ZZ', 100]])], table, lookup, edges)).toThrow(/fill country ZZ has no codes/);
  });
});
