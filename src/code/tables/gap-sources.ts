/**
 * The sample points of the gap scan (docs/code-format.md §10), one function per kind, each handing its
 * points to a GapScan. Resolutions are the constants below; the document quotes them.
 */
import * as countryCoder from '@rapideditor/country-coder';
import { NO_COVERAGE, isPureEntry, type Coverage } from '../coverage.ts';
import { BANDS, BLOCK_SIZE, blocksInBand, rowOf } from '../grid.ts';
import { METRES_PER_DEGREE } from './gap-geometry.ts';
import { insidePolygon, ringCentroid } from './gap-land.ts';
import { ANTARCTIC_LATITUDE, type LandPolygon } from './land.ts';
import type { GapScan } from './gap-scan.ts';
import type { BlockMask } from './raster.ts';

/** How far inland coast samples are moved from a land ring's vertex or edge midpoint. */
export const COAST_NUDGE_M = 1;
/** Antimeridian: every 4th cell row, the 4 cell columns nearest ±180°, then every 16th column. */
export const ANTIMERIDIAN_ROW_STEP = 4;
export const ANTIMERIDIAN_NEAR_COLUMNS = 4;
export const ANTIMERIDIAN_COLUMN_STEP = 16;
/** Borders: a sample every 100 m along every feature edge, one cell (3 m) to either side. */
export const BORDER_STEP_M = 100;
export const BORDER_OFFSET_M = 3;
/** Mixed blocks: the centre cell of every square of 12 × 12 cells (36 m). */
export const SUBGRID_STEP = 12;

/** Calls `fn` with a progress note every `every` items. */
export type Progress = (done: number, total: number) => void;

/**
 * Coastlines: every vertex and every edge midpoint of every land ring, moved COAST_NUDGE_M inland
 * (to the left of a counter-clockwise outer ring, to the right of a hole's).
 */
export function scanCoasts(scan: GapScan, polygons: LandPolygon[], progress: Progress): void {
  polygons.forEach((rings, p) => {
    rings.forEach((ring, r) => {
      const { xs, ys } = ring;
      const n = xs.length;
      // Land lies to the left of each edge when this is +1 (ring interior on the left, and land inside).
      const side = (ringCentroid(ring).area2 > 0 ? 1 : -1) * (r === 0 ? 1 : -1);
      const normal = (k: number, i: number): [number, number] => {
        const cos = Math.cos((((ys[k] + ys[i]) / 2) * Math.PI) / 180);
        const dx = (xs[i] - xs[k]) * cos;
        const dy = ys[i] - ys[k];
        const length = Math.hypot(dx, dy) || 1;
        return [(-dy / length) * side, (dx / length) * side];
      };
      const nudged = (x: number, y: number, nx: number, ny: number): void => {
        const length = Math.hypot(nx, ny) || 1;
        const d = COAST_NUDGE_M / METRES_PER_DEGREE / length;
        scan.test(y + ny * d, x + (nx * d) / Math.cos((y * Math.PI) / 180), 'coast', true);
      };
      for (let i = 0, k = n - 1; i < n; k = i++) {
        const [nx, ny] = normal(k, i);
        nudged((xs[k] + xs[i]) / 2, (ys[k] + ys[i]) / 2, nx, ny);
        const [mx, my] = normal(i, (i + 1) % n);
        nudged(xs[i], ys[i], nx + mx, ny + my);
      }
    });
    if (p % 500 === 0) progress(p, polygons.length);
  });
}

/**
 * Small islands: the centroid of every land polygon that holds its own centroid (the vertices of the
 * others are coast samples), and every GeoNames populated place.
 */
export function scanIslands(scan: GapScan, polygons: LandPolygon[], places: [number, number][]): void {
  for (const rings of polygons) {
    const { x, y } = ringCentroid(rings[0]);
    if (insidePolygon(rings, x, y)) scan.test(y, x, 'island', true);
  }
  for (const [lng, lat] of places) scan.test(lat, lng, 'place', true);
}

/**
 * The antimeridian: in every band north of 60° S whose block at −180° or at +180° is covered or a land
 * block, both of those blocks at the resolution above.
 */
export function scanAntimeridian(scan: GapScan, table: Coverage, land: BlockMask, progress: Progress): number {
  let bands = 0;
  for (let band = Math.floor(rowOf(ANTARCTIC_LATITUDE) / BLOCK_SIZE); band < BANDS; band++) {
    const n = table.columns[band];
    const last = blocksInBand(n) - 1;
    const wanted = (block: number): boolean => table.entryAt(band, block) !== NO_COVERAGE || land[band][block] === 1;
    if (!wanted(0) && !wanted(last)) continue;
    bands++;
    const eastColumns: number[] = [];
    for (let c = 0; c < BLOCK_SIZE; c = c < ANTIMERIDIAN_NEAR_COLUMNS - 1 ? c + 1 : c + ANTIMERIDIAN_COLUMN_STEP) eastColumns.push(c);
    const westColumns = eastColumns.map((c) => n - 1 - c).filter((c) => c >= last * BLOCK_SIZE);
    for (let r = band * BLOCK_SIZE + ANTIMERIDIAN_ROW_STEP / 2; r < (band + 1) * BLOCK_SIZE; r += ANTIMERIDIAN_ROW_STEP) {
      for (const c of [...eastColumns, ...westColumns]) {
        scan.testCell(r, c, 'antimeridian', false);
      }
    }
    if (band % 100 === 0) progress(band, BANDS);
  }
  return bands;
}

/**
 * Borders: along every edge of every country-coder feature, a sample every BORDER_STEP_M, moved
 * BORDER_OFFSET_M to either side. Samples in blocks no country covers are not candidates (they are
 * not on land, as far as this source knows).
 */
export function scanBorders(scan: GapScan, progress: Progress): number {
  const features = countryCoder.borders.features.filter((f) => f.geometry);
  let samples = 0;
  features.forEach((feature, f) => {
    const g = feature.geometry!;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const ring of polygons.flat()) {
      for (let i = 1; i < ring.length; i++) {
        const [x1, y1] = ring[i - 1];
        const [x2, y2] = ring[i];
        const cos = Math.cos((((y1 + y2) / 2) * Math.PI) / 180);
        const dx = (x2 - x1) * cos * METRES_PER_DEGREE;
        const dy = (y2 - y1) * METRES_PER_DEGREE;
        const length = Math.hypot(dx, dy);
        if (length === 0) continue;
        const oLat = ((dx / length) * BORDER_OFFSET_M) / METRES_PER_DEGREE;
        const oLng = ((-dy / length) * BORDER_OFFSET_M) / METRES_PER_DEGREE / cos;
        const steps = Math.max(1, Math.ceil(length / BORDER_STEP_M));
        for (let s = 0; s < steps; s++) {
          const t = (s + 0.5) / steps;
          const lat = y1 + t * (y2 - y1);
          const lng = x1 + t * (x2 - x1);
          if (lat < ANTARCTIC_LATITUDE) continue;
          scan.test(lat + oLat, lng + oLng, 'border', false);
          scan.test(lat - oLat, lng - oLng, 'border', false);
          samples += 2;
        }
      }
    }
    if (f % 20 === 0) progress(f, features.length);
  });
  return samples;
}

/** Inside mixed blocks: the centre cell of every SUBGRID_STEP × SUBGRID_STEP square of every mixed block. */
export function scanMixedBlocks(scan: GapScan, table: Coverage, progress: Progress): number {
  let blocks = 0;
  const half = SUBGRID_STEP / 2;
  for (let band = 0; band < BANDS; band++) {
    const n = table.columns[band];
    for (let block = 0; block < blocksInBand(n); block++) {
      const entry = table.entryAt(band, block);
      if (entry === NO_COVERAGE || isPureEntry(entry)) continue;
      blocks++;
      for (let r = half; r < BLOCK_SIZE; r += SUBGRID_STEP) {
        for (let c = block * BLOCK_SIZE + half; c < Math.min(n, (block + 1) * BLOCK_SIZE); c += SUBGRID_STEP) {
          scan.testCell(band * BLOCK_SIZE + r, c, 'mixed', false);
        }
      }
    }
    if (band % 100 === 0) progress(band, BANDS);
  }
  return blocks;
}
