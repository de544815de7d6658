/**
 * One run of the gap scan over a table (docs/code-format.md §10): every source of samples, in the
 * order the report lists them. The scan report (scan-gaps.ts) and the generator's fills
 * (generate.ts) both start from it.
 */
import type { Coverage } from '../coverage.ts';
import { FeatureLookup } from './feature-lookup.ts';
import { FeatureEdges } from './gap-geometry.ts';
import { LandTest, landBlocks, loadPlaces } from './gap-land.ts';
import { GapScan, SOURCES } from './gap-scan.ts';
import * as sources from './gap-sources.ts';
import { loadLandPolygons, type LandPolygon } from './land.ts';
import { BlockGrid } from './raster.ts';

export interface GapRun {
  scan: GapScan;
  lookup: FeatureLookup;
  edges: FeatureEdges;
  grid: BlockGrid;
  polygons: LandPolygon[];
  /** Bands whose antimeridian blocks were sampled; border samples; mixed blocks sampled. */
  bands: number;
  borderSamples: number;
  mixedBlocks: number;
}

export function runGapScan(table: Coverage, log: (message: string) => void): GapRun {
  const progress =
    (name: string) =>
    (done: number, all: number): void =>
      log(`${name}: ${((100 * done) / all).toFixed(0)} %`);
  const grid = new BlockGrid(table.columns);
  const polygons = loadLandPolygons();
  const places = loadPlaces();
  log(`${polygons.length} land polygons, ${places.length} populated places`);
  const land = landBlocks(grid, polygons, places);
  const lookup = new FeatureLookup(table);
  const edges = new FeatureEdges();
  const scan = new GapScan(table, lookup, edges, land, new LandTest(polygons));
  log('land blocks marked, feature edges filed');

  const step = (name: string, run: () => void): void => {
    run();
    const c = scan.counts;
    log(`${name} done: ${SOURCES.map((s) => `${s} ${c[s].sampled}/${c[s].gaps}`).join(', ')}; ${scan.blocks.size} gap blocks`);
  };
  let bands = 0;
  let borderSamples = 0;
  let mixedBlocks = 0;
  step('small islands and places', () => sources.scanIslands(scan, polygons, places));
  step('antimeridian', () => (bands = sources.scanAntimeridian(scan, table, land, progress('antimeridian'))));
  step('coastlines', () => sources.scanCoasts(scan, polygons, progress('coastlines')));
  step('borders', () => (borderSamples = sources.scanBorders(scan, progress('borders'))));
  step('mixed blocks', () => (mixedBlocks = sources.scanMixedBlocks(scan, table, progress('mixed blocks'))));
  return { scan, lookup, edges, grid, polygons, bands, borderSamples, mixedBlocks };
}
