/**
 * The gap scan's blocks grouped into regions (blocks that touch, across the antimeridian too), each
 * summarised, and what the erratum rule makes of them (docs/code-format.md §10).
 */
import { addedBlocks, fillCountries, type BlockFill } from '../block-fills.ts';
import { entryMixed, type Coverage } from '../coverage.ts';
import { SOURCES, blockKey, type GapBlock, type Source } from './gap-scan.ts';
import type { BlockGrid } from './raster.ts';
import { fillsOf } from './gap-fills.ts';

/** Longitude margin by which a block's neighbours are sought: far below a cell, far above rounding. */
const TOUCH = 1e-6;

/** Groups blocks into regions of blocks that share an edge or a corner, largest first. */
export function groupRegions(blocks: Map<number, GapBlock>, grid: BlockGrid): GapBlock[][] {
  const parent = new Map<number, number>();
  const find = (key: number): number => {
    let root = key;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let k = key; k !== root; ) {
      const next = parent.get(k)!;
      parent.set(k, root);
      k = next;
    }
    return root;
  };
  for (const key of blocks.keys()) parent.set(key, key);
  for (const [key, { band, block }] of blocks) {
    const west = grid.blockCentreLng(band, block) - blockHalfWidth(grid, band, block);
    const east = grid.blockCentreLng(band, block) + blockHalfWidth(grid, band, block);
    for (let other = Math.max(0, band - 1); other <= Math.min(grid.blocks.length - 1, band + 1); other++) {
      grid.forEachLngRange(other, west - TOUCH, east + TOUCH, (first, last) => {
        for (let j = first; j <= last; j++) {
          const k = blockKey(other, j);
          if (blocks.has(k)) parent.set(find(k), find(key));
        }
      });
    }
  }
  const groups = new Map<number, GapBlock[]>();
  for (const [key, found] of blocks) {
    const root = find(key);
    (groups.get(root) ?? groups.set(root, []).get(root)!).push(found);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length || a[0].band - b[0].band || a[0].block - b[0].block);
}

function blockHalfWidth(grid: BlockGrid, band: number, block: number): number {
  const n = grid.columns[band];
  return (Math.min(n, (block + 1) * 1296) - block * 1296) * (180 / n);
}

/** One region's figures. */
export interface RegionSummary {
  blocks: number;
  /** Blocks covered today (all mixed: a pure block has no gap), blocks covered by no country. */
  covered: number;
  uncovered: number;
  landBlocks: number;
  points: Record<Source, number>;
  landPoints: number;
  /** Territory codes of the nearest features, most gap points first. */
  nearest: [string, number][];
  minM: number;
  maxM: number;
  unreached: number;
  south: number;
  north: number;
  /** West and east ends of the region's sample centres, unwrapped around the first block. */
  west: number;
  east: number;
}

export function summarise(region: GapBlock[]): RegionSummary {
  const points = Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<Source, number>;
  const nearest = new Map<string, number>();
  const s = { covered: 0, uncovered: 0, landBlocks: 0, landPoints: 0, minM: Infinity, maxM: -Infinity, unreached: 0 };
  const ref = region[0].lng;
  let [south, north, west, east] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const b of region) {
    if (b.members.length) s.covered++;
    else s.uncovered++;
    if (b.land) s.landBlocks++;
    s.landPoints += b.landPoints;
    s.unreached += b.unreached;
    s.minM = Math.min(s.minM, b.minM);
    s.maxM = Math.max(s.maxM, b.maxM);
    for (const source of SOURCES) points[source] += b.points[source];
    for (const [code, near] of b.nearest) nearest.set(code, (nearest.get(code) ?? 0) + near.points);
    const lng = b.lng + 360 * Math.round((ref - b.lng) / 360);
    [south, north, west, east] = [Math.min(south, b.lat), Math.max(north, b.lat), Math.min(west, lng), Math.max(east, lng)];
  }
  return { blocks: region.length, ...s, points, nearest: [...nearest].sort((a, b) => b[1] - a[1]), south, north, west, east };
}

/** What the erratum rule, with a maximum distance of `maxM`, makes of the scan's blocks: their fills. */
export interface RuleFigures {
  /** Fills of one country for the block, and fills by square. */
  singleFill: number;
  splitFill: number;
  /** Squares of the fills by square, and their runs of equal fills, row by row. */
  squares: number;
  squareRuns: number;
  /** Countries that fills give. */
  fillCountries: number;
  /** Fills whose countries all cover their block already. */
  coveredByFill: number;
  /** Blocks added to a country's coverage, per country: covered today, but not by that country. */
  added: Map<string, number>;
  /** Blocks whose gaps all stay without codes: nearest feature is Antarctica's, or beyond `maxM`. */
  none: number;
  /** Blocks with gap points beyond `maxM` of every coded feature, beside ones within. */
  partlyBeyond: number;
}

export function ruleFigures(blocks: Iterable<GapBlock>, fills: readonly BlockFill[], table: Coverage, maxM: number): RuleFigures {
  const figures: RuleFigures = { singleFill: 0, splitFill: 0, squares: 0, squareRuns: 0, fillCountries: 0, coveredByFill: 0, added: new Map(), none: 0, partlyBeyond: 0 };
  for (const b of blocks) {
    if (fillsOf(b, maxM).length === 0) figures.none++;
    else if (b.unreached > 0 || b.maxM > maxM) figures.partlyBeyond++;
  }
  const given = new Set<number>();
  for (const fill of fills) {
    for (const country of fillCountries(fill)) given.add(country);
    if (fill.squares === null) {
      figures.singleFill++;
      continue;
    }
    figures.splitFill++;
    figures.squares += fill.squares.length;
    fill.squares.forEach((country, i) => {
      if (i === 0 || country !== fill.squares![i - 1]) figures.squareRuns++;
    });
  }
  figures.fillCountries = given.size;
  const membersAt = (band: number, block: number): number[] => table.classOf(table.mixedRun[entryMixed(table.entryAt(band, block))]).members;
  const added = addedBlocks(fills, membersAt, new Array<number>(table.countries.length).fill(0));
  for (const { country } of added) figures.added.set(table.countries[country], (figures.added.get(table.countries[country]) ?? 0) + 1);
  figures.coveredByFill = fills.length - new Set(added.map(({ band, block }) => blockKey(band, block))).size;
  return figures;
}
