/**
 * The gap scan (`npm run scan:gaps`): cells on land or in covered blocks that no country-coder feature
 * holds, so that format v1 gives them no code (docs/code-format.md §10). Samples coastlines, the
 * antimeridian, feature borders, small islands and populated places, and the inside of every mixed
 * block; groups the gaps into regions; writes docs/code-format-gaps.md; checks that the fills of the
 * erratum rule it derives are the shipped table's. A tool, not run by the codec.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Coverage } from '../coverage.ts';
import { TABLE_URL, coverage } from '../shipped-table.ts';
import { readTableFile, writeTableFile } from '../table-file.ts';
import { MAX_FILL_M, deriveFills } from './gap-fills.ts';
import { groupRegions, summarise } from './gap-regions.ts';
import { renderReport } from './gap-report.ts';
import { runGapScan } from './gap-run.ts';
import * as sources from './gap-sources.ts';

const output = fileURLToPath(new URL('../../../docs/code-format-gaps.md', import.meta.url));
const started = performance.now();
const log = (message: string): void => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);

const table = coverage();
const { scan, lookup, edges, grid, polygons, bands, borderSamples, mixedBlocks } = runGapScan(table, log);

const regions = groupRegions(scan.blocks, grid);
// The fills apply to the table without its own: revision 2's sections, which revision 3 shares.
const shipped = readFileSync(TABLE_URL);
const data = readTableFile(shipped);
const unfilled = new Coverage({ ...data, revision: 2, fills: null });
const fills = deriveFills(scan.blocks.values(), unfilled, lookup, edges);
// This scan is the generator's: the fills it derives are the shipped table's, or the table is not reproducible.
const same = Buffer.from(writeTableFile({ ...data, fills })).equals(shipped);
log(`${fills.length} fills, ${fills.filter((f) => f.squares).length} by square: ${same ? 'the shipped table\'s, byte for byte' : 'NOT the shipped table\'s'}`);
if (!same) process.exitCode = 1;
const seconds = (performance.now() - started) / 1000;
const report = renderReport(scan, regions, {
  maxM: MAX_FILL_M,
  seconds,
  fills,
  table: unfilled,
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
