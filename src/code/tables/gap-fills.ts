/**
 * The finer half of the proposed erratum rule (docs/code-format.md §10): in a block where the nearest
 * features of two or more countries meet, each square of FILL_SQUARE × FILL_SQUARE cells takes the
 * country of the coded feature nearest its centre cell. This module counts what that costs: squares,
 * and runs of equal fills in row-major order (squares inside a feature need no fill and extend a run).
 */
import type { Coverage } from '../coverage.ts';
import { BLOCK_SIZE, colCentre, rowCentre } from '../grid.ts';
import { NO_FEATURE, type FeatureLookup } from './feature-lookup.ts';
import type { FeatureEdges } from './gap-geometry.ts';
import type { GapBlock } from './gap-scan.ts';

/** Cells along a side of a fill square (108 m): 36 squares per block side. */
export const FILL_SQUARE = 36;

/** Territory codes that give no location codes, even as a fill. */
const NO_CODES = new Set(['AQ']);

/** The fill countries of a block's gaps within `maxM`: those it needs, by the scan's samples. */
export function fillsOf(b: GapBlock, maxM: number): string[] {
  return [...b.nearest].filter(([code, near]) => !NO_CODES.has(code) && near.minM <= maxM).map(([code]) => code);
}

export interface SplitFigures {
  /** Blocks with two or more fill countries. */
  blocks: number;
  /** Their squares in no feature, which take a fill. */
  squares: number;
  /** Runs of equal fills over their squares, row by row. */
  runs: number;
  /** Of those blocks, the ones whose squares do take two or more countries. */
  split: number;
}

export function splitFills(blocks: Iterable<GapBlock>, table: Coverage, lookup: FeatureLookup, edges: FeatureEdges, maxM: number): SplitFigures {
  const figures: SplitFigures = { blocks: 0, squares: 0, runs: 0, split: 0 };
  const half = FILL_SQUARE / 2;
  for (const b of blocks) {
    if (fillsOf(b, maxM).length < 2) continue;
    figures.blocks++;
    const n = table.columns[b.band];
    const seen = new Set<string>();
    let current: string | undefined;
    for (let r = half; r < BLOCK_SIZE; r += FILL_SQUARE) {
      const lat = rowCentre(b.band * BLOCK_SIZE + r);
      for (let c = b.block * BLOCK_SIZE + half; c < Math.min(n, (b.block + 1) * BLOCK_SIZE) + half; c += FILL_SQUARE) {
        const lng = colCentre(Math.min(c, n - 1), n);
        if (lookup.at(b.band, b.block, lat, lng) !== NO_FEATURE) continue;
        const near = edges.nearest(lat, lng, maxM);
        const fill = near && !NO_CODES.has(near.code) ? near.code : '';
        figures.squares++;
        seen.add(fill);
        if (fill !== current) {
          figures.runs++;
          current = fill;
        }
      }
    }
    if ([...seen].filter(Boolean).length > 1) figures.split++;
  }
  return figures;
}
