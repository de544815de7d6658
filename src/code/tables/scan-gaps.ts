/**
 * The gap scan (`npm run scan:gaps`): cells on land or in covered blocks that no country-coder feature
 * holds, so that format v1 gives them no code (docs/code-format.md §10). Samples coastlines, the
 * antimeridian, feature borders, small islands and populated places, and the inside of every mixed
 * block; groups the gaps into regions; writes docs/code-format-gaps.md. A tool, not run by the codec.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { coverage } from '../coverage.ts';
import { BLOCK_SIZE, CELL_SIZE_M } from '../grid.ts';
import { FeatureLookup } from './feature-lookup.ts';
import { FeatureEdges } from './gap-geometry.ts';
import { LandTest, landBlocks, loadPlaces } from './gap-land.ts';
import { loadLandPolygons } from './land.ts';
import { splitFills } from './gap-fills.ts';
import { groupRegions, summarise } from './gap-regions.ts';
import { renderReport } from './gap-report.ts';
import { GapScan, SOURCES } from './gap-scan.ts';
import * as sources from './gap-sources.ts';
import { BlockGrid } from './raster.ts';

/**
 * The largest distance at which a gap takes the nearest feature's country, in the rule proposed: one
 * block diagonal (≈ 5 498 m), the farthest a point of a mixed block can be from the border crossing it.
 */
const MAX_FILL_M = BLOCK_SIZE * CELL_SIZE_M * Math.SQRT2;

const output = fileURLToPath(new URL('../../../docs/code-format-gaps.md', import.meta.url));
const started = performance.now();
const log = (message: string): void => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);
const progress =
  (name: string) =>
  (done: number, all: number): void =>
    log(`${name}: ${((100 * done) / all).toFixed(0)} %`);

const table = coverage();
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

const regions = groupRegions(scan.blocks, grid);
const split = splitFills(scan.blocks.values(), table, lookup, edges, MAX_FILL_M);
log(`fill squares: ${split.blocks} blocks with two or more fills, ${split.split} split, ${split.squares} squares, ${split.runs} runs`);
const seconds = (performance.now() - started) / 1000;
const report = renderReport(scan, regions, {
  maxM: MAX_FILL_M,
  seconds,
  split,
  resolution: {
    coast: `every vertex and edge midpoint of ${polygons.length} land polygons, ${sources.COAST_NUDGE_M} m inland`,
    antimeridian: `${bands} bands, both end blocks: every ${sources.ANTIMERIDIAN_ROW_STEP}th cell row, the ${sources.ANTIMERIDIAN_NEAR_COLUMNS} cell columns nearest ±180°, then every ${sources.ANTIMERIDIAN_COLUMN_STEP}th`,
    border: `every ${sources.BORDER_STEP_M} m along every feature edge, ${sources.BORDER_OFFSET_M} m to either side (${borderSamples.toLocaleString('en-US')} samples)`,
    island: 'the centroid of every land polygon that holds it',
    place: 'every GeoNames populated place north of 60° S',
    mixed: `${mixedBlocks.toLocaleString('en-US')} mixed blocks: the centre cell of every ${sources.SUBGRID_STEP} × ${sources.SUBGRID_STEP} cells`,
  },
});
writeFileSync(output, report);
log(`${scan.blocks.size} gap blocks in ${regions.length} regions; wrote ${output}`);
for (const region of regions.slice(0, 10)) {
  const s = summarise(region);
  log(`  ${s.blocks} blocks near ${s.south.toFixed(2)}, ${s.west.toFixed(2)}: nearest ${s.nearest.map(([c, n]) => `${c} ${n}`).join(' ')}, ${s.minM.toFixed(0)}–${s.maxM.toFixed(0)} m, land points ${s.landPoints}`);
}
