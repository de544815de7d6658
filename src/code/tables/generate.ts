/**
 * Generates the frozen tables of format v1 (`npm run generate:tables`): band column counts, for every
 * block of the grid the countries whose coverage holds it, the border polygons that decide the country
 * of a cell centre in a mixed block, and the fills of the cells those polygons leave without a
 * country (docs/code-format.md §4–§6, §10). It writes revision 2 (`v1r2.bin`, without the fills) and
 * revision 3 (`v1r3.bin`, the codec's): revision 2 comes out byte for byte as committed, which shows
 * that the sections revision 3 shares with it are made the same way.
 *
 * Run once per revision. The output is committed and its hash pinned by a test: running this again
 * with other data or another engine may move codes, and that is a new format version; a revision
 * may only add what changes no code, which src/code/revision.test.ts proves against the one before.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import cliProgress from 'cli-progress';
import { BANDS, designBandColumns } from '../grid.ts';
import { Coverage } from '../coverage.ts';
import { writeTableFile, type TableData } from '../table-file.ts';
import { classify } from './block-classes.ts';
import { borderPolygons } from './borders.ts';
import { deriveFills } from './gap-fills.ts';
import { runGapScan } from './gap-run.ts';
import { nearLand, type Phase } from './near-land.ts';
import { BlockGrid } from './raster.ts';

/** The revision of format 1 this generator writes, and the one before it, written alongside. */
const REVISION = 3;
const output = (revision: number): string => fileURLToPath(new URL(`./v1r${revision}.bin`, import.meta.url));

const bars = new cliProgress.MultiBar(
  { format: ' {phase} |{bar}| {percentage}% {value}/{total}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 },
  cliProgress.Presets.shades_classic,
);

const phase: Phase = (name, total, work) => {
  const bar = bars.create(total, 0, { phase: name.padEnd(24) });
  const result = work(() => bar.increment());
  bar.update(total);
  return result;
};

const columns = Uint32Array.from({ length: BANDS }, (_, band) => designBandColumns(band));
const grid = new BlockGrid(columns);
const { countries, classes, runs, blockCounts } = classify(grid, nearLand(grid, phase), phase);
const borders = borderPolygons();
bars.stop();

const previous: TableData = { version: 1, revision: REVISION - 1, columns, countries, classes, runs, borders, fills: null };
const started = performance.now();
const log = (message: string): void => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] gap scan: ${message}`);
const { scan, lookup, edges } = runGapScan(new Coverage(previous), log);
const fills = deriveFills(scan.blocks.values(), new Coverage(previous), lookup, edges);

for (const data of [previous, { ...previous, revision: REVISION, fills }]) {
  const bytes = writeTableFile(data);
  writeFileSync(output(data.revision), bytes);
  console.log(`wrote ${output(data.revision)}: ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
const table = new Coverage({ ...previous, revision: REVISION, fills });
const added = table.blockCounts.reduce((sum, n, c) => sum + n - blockCounts[c], 0);
console.log(`${countries.length} countries, ${runs.first.length} runs, ${classes.length} block classes`);
console.log(`${borders.code.length} border polygons, ${borders.xs.length} points`);
console.log(`${fills.length} fills (${fills.filter((f) => f.squares).length} by square), ${added} blocks added to countries' coverage`);
for (const { code, blocks } of countries
  .map((code, i) => ({ code, blocks: table.blockCounts[i] }))
  .sort((a, b) => b.blocks - a.blocks)
  .slice(0, 5)) {
  console.log(`${code}: ${blocks} blocks, ${((100 * blocks) / 36 ** 4).toFixed(1)}% of 36⁴`);
}
