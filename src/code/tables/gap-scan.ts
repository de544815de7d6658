/**
 * The gap test of one sample point, and what the scan learns per block (docs/code-format.md §10).
 *
 * A gap is a cell whose centre lies on land, or inside a block that some country's codes cover, but
 * in no country-coder feature: such a cell has no code today. A sample point stands for the cell that
 * holds it, and the cell's centre is what is tested, as encode tests it. Centres south of 60° S
 * (Antarctica) and in Bir Tawil (a feature without a code) are never gaps.
 *
 * A pure block has no gap: no feature edge crosses it (conservatively, by 1 cm) and its centre lies in
 * a country, so every point of it lies in that country's feature. Its points are counted, not tested.
 */
import { NO_COVERAGE, entryMixed, isPureEntry, type Coverage } from '../coverage.ts';
import { BLOCK_SIZE, bandOf, colCentre, colOf, colWest, rowCentre, rowOf, rowSouth } from '../grid.ts';
import { NO_FEATURE, type FeatureLookup } from './feature-lookup.ts';
import type { FeatureEdges } from './gap-geometry.ts';
import type { LandTest } from './gap-land.ts';
import { ANTARCTIC_LATITUDE } from './land.ts';
import type { BlockMask } from './raster.ts';

/** Where sample points come from (gap-sources.ts). */
export const SOURCES = ['coast', 'antimeridian', 'border', 'island', 'place', 'mixed'] as const;
export type Source = (typeof SOURCES)[number];

/** How far the scan looks for the nearest coded feature of a gap. */
export const SEARCH_M = 200_000;

/** Upper ends of the distance classes of GapScan.histogram, in metres. */
export const DISTANCE_LIMITS_M = [10, 100, 1_000, 5_500, 22_224, SEARCH_M];

/** Per source: points sampled, points in pure blocks, points tested, gaps found. */
export interface SourceCounts {
  sampled: number;
  pure: number;
  tested: number;
  gaps: number;
}

/** What the scan found in one block that holds gaps. */
export interface GapBlock {
  band: number;
  block: number;
  /** The centre of the first gap cell found. */
  lat: number;
  lng: number;
  /** The countries whose codes cover the block today (empty: not covered). */
  members: string[];
  /** Whether the block is a land block (Natural Earth land or a populated place touches it). */
  land: boolean;
  /** Gap points found, by source. */
  points: Record<Source, number>;
  /** Gap points on land: known so by their source, or in a land block and inside a land ring. */
  landPoints: number;
  /** Per territory code of the nearest feature, the gap points that have it nearest and their distances. */
  nearest: Map<string, { points: number; minM: number; maxM: number }>;
  /** Nearest-feature distances of the block's gap points, in metres. */
  minM: number;
  maxM: number;
  /** Gap points with no coded feature within SEARCH_M. */
  unreached: number;
}

export class GapScan {
  readonly counts = Object.fromEntries(SOURCES.map((s) => [s, { sampled: 0, pure: 0, tested: 0, gaps: 0 }])) as Record<Source, SourceCounts>;
  readonly blocks = new Map<number, GapBlock>();
  /** Gap points by distance to the nearest coded feature (DISTANCE_LIMITS_M, then unreached): on land, not. */
  readonly histogram = [0, 1].map(() => new Array<number>(DISTANCE_LIMITS_M.length + 1).fill(0));

  constructor(
    private readonly table: Coverage,
    private readonly lookup: FeatureLookup,
    private readonly edges: FeatureEdges,
    private readonly land: BlockMask,
    private readonly landTest: LandTest,
  ) {}

  private readonly landTests = new Map<number, (lat: number, lng: number) => boolean>();

  /**
   * Tests the cell holding (`lat`, `lng`); `onLand` says that the sample is known to lie on land (else
   * the land test of gap-land.ts decides), which makes it a candidate even in a block no country
   * covers. Returns whether the cell is a gap.
   */
  test(lat: number, lng: number, source: Source, onLand: boolean): boolean {
    const row = rowOf(Math.max(-90, Math.min(90, lat)));
    return this.testCell(row, colOf(wrap(lng), this.table.columns[bandOf(row)]), source, onLand);
  }

  /** As `test`, for the cell at `row`, `col`. */
  testCell(row: number, col: number, source: Source, onLand: boolean): boolean {
    const counts = this.counts[source];
    counts.sampled++;
    const band = bandOf(row);
    const columns = this.table.columns[band];
    const block = Math.floor(col / BLOCK_SIZE);
    const entry = this.table.entryAt(band, block);
    if (isPureEntry(entry)) {
      counts.pure++;
      return false;
    }
    const lat = rowCentre(row);
    if (lat < ANTARCTIC_LATITUDE) return false;
    const lng = colCentre(col, columns);
    // A sample not known to be on land may still be: the land test decides, in land blocks only.
    const land = (): boolean => onLand || (this.land[band][block] === 1 && this.landIn(band, block)(lat, lng));
    if (entry === NO_COVERAGE && !land()) return false;
    counts.tested++;
    if (this.lookup.at(band, block, lat, lng) !== NO_FEATURE) return false;
    counts.gaps++;
    this.record(band, block, entry, lat, lng, source, land());
    return true;
  }

  /** The land test of a block, built on first use. */
  private landIn(band: number, block: number): (lat: number, lng: number) => boolean {
    const key = blockKey(band, block);
    let test = this.landTests.get(key);
    if (!test) {
      const n = this.table.columns[band];
      test = this.landTest.forBlock(
        rowSouth(band * BLOCK_SIZE),
        rowSouth((band + 1) * BLOCK_SIZE),
        colWest(block * BLOCK_SIZE, n),
        colWest(Math.min(n, (block + 1) * BLOCK_SIZE), n),
      );
      this.landTests.set(key, test);
    }
    return test;
  }

  private record(band: number, block: number, entry: number, lat: number, lng: number, source: Source, onLand: boolean): void {
    const key = blockKey(band, block);
    let found = this.blocks.get(key);
    if (!found) {
      const members =
        entry === NO_COVERAGE ? [] : this.table.classOf(this.table.mixedRun[entryMixed(entry)]).members.map((c) => this.table.countries[c]);
      found = {
        band,
        block,
        lat,
        lng,
        members,
        land: this.land[band][block] === 1,
        points: Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<Source, number>,
        landPoints: 0,
        nearest: new Map(),
        minM: Infinity,
        maxM: -Infinity,
        unreached: 0,
      };
      this.blocks.set(key, found);
    }
    found.points[source]++;
    if (onLand) found.landPoints++;
    const near = this.edges.nearest(lat, lng, SEARCH_M);
    if (!near) {
      found.unreached++;
      this.histogram[onLand ? 0 : 1][DISTANCE_LIMITS_M.length]++;
      return;
    }
    const byCode = found.nearest.get(near.code) ?? found.nearest.set(near.code, { points: 0, minM: Infinity, maxM: -Infinity }).get(near.code)!;
    byCode.points++;
    byCode.minM = Math.min(byCode.minM, near.distanceM);
    byCode.maxM = Math.max(byCode.maxM, near.distanceM);
    this.histogram[onLand ? 0 : 1][DISTANCE_LIMITS_M.findIndex((limit) => near.distanceM <= limit)]++;
    found.minM = Math.min(found.minM, near.distanceM);
    found.maxM = Math.max(found.maxM, near.distanceM);
  }
}

/** A block's key in GapScan.blocks. */
export const blockKey = (band: number, block: number): number => band * 16384 + block;

/** A longitude folded into [−180, 180]: samples of unwrapped rings may lie beyond. */
function wrap(lng: number): number {
  return lng >= -180 && lng <= 180 ? lng : lng - 360 * Math.floor((lng + 180) / 360);
}
