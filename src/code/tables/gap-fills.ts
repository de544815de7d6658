/**
 * The fills of the erratum rule (docs/code-format.md §10), derived from a gap scan: for each block
 * where the scan found gaps within reach of a coded feature, the country those gaps take — one for the
 * block when its gaps all have the same nearest country, else one per fill square, the country of the
 * feature nearest the square's centre cell (the feature that holds it, when one does).
 */
import { FILL_SQUARE, NO_FILL, SQUARES, type BlockFill } from '../block-fills.ts';
import type { Coverage } from '../coverage.ts';
import { BLOCK_SIZE, CELL_SIZE_M, colCentre, rowCentre } from '../grid.ts';
import { NO_FEATURE, UNCODED_FEATURE, type FeatureLookup } from './feature-lookup.ts';
import type { FeatureEdges } from './gap-geometry.ts';
import { blockKey, type GapBlock } from './gap-scan.ts';

export { FILL_SQUARE };

/**
 * The farthest a gap takes the nearest feature's country: one block diagonal (≈ 5 498 m), the farthest
 * a point of a mixed block can be from the border that crosses it.
 */
export const MAX_FILL_M = BLOCK_SIZE * CELL_SIZE_M * Math.SQRT2;

/** Territory codes that give no location codes, even as a fill. */
const NO_CODES = new Set(['AQ']);

/** The fill countries of a block's gaps within `maxM`: those it needs, by the scan's samples. */
export function fillsOf(b: GapBlock, maxM: number): string[] {
  return [...b.nearest].filter(([code, near]) => !NO_CODES.has(code) && near.minM <= maxM).map(([code]) => code);
}

/**
 * The fills of the scan's gap blocks, in band order then block column. A block no country covers
 * cannot carry a fill (the table numbers only covered blocks), so a fill there is refused.
 */
export function deriveFills(blocks: Iterable<GapBlock>, table: Coverage, lookup: FeatureLookup, edges: FeatureEdges, maxM = MAX_FILL_M): BlockFill[] {
  const countryOf = (code: string): number => {
    const country = table.indexOfCountry(code);
    if (country < 0) throw new Error(`fill country ${code} has no codes`);
    return country;
  };
  const fills: BlockFill[] = [];
  for (const b of [...blocks].sort((x, y) => blockKey(x.band, x.block) - blockKey(y.band, y.block))) {
    const codes = fillsOf(b, maxM);
    if (codes.length === 0) continue;
    if (b.members.length === 0) throw new Error(`band ${b.band} block ${b.block} is covered by no country: it cannot take a fill`);
    if (codes.length === 1) {
      fills.push({ band: b.band, block: b.block, country: countryOf(codes[0]), squares: null });
      continue;
    }
    const squares = squareFills(b, table, lookup, edges, maxM, countryOf);
    const taken = [...new Set(squares)];
    // Squares that all take one country say no more than one fill for the block; squares that take none, nothing.
    if (taken.length > 1) fills.push({ band: b.band, block: b.block, country: NO_FILL, squares });
    else if (taken[0] !== NO_FILL) fills.push({ band: b.band, block: b.block, country: taken[0], squares: null });
  }
  return fills;
}

/** Per square of block `b`, the country of the coded feature nearest its centre cell within `maxM`, or NO_FILL. */
function squareFills(b: GapBlock, table: Coverage, lookup: FeatureLookup, edges: FeatureEdges, maxM: number, countryOf: (code: string) => number): Int16Array {
  const columns = table.columns[b.band];
  const half = FILL_SQUARE / 2;
  const squares = new Int16Array(SQUARES).fill(NO_FILL);
  let i = 0;
  for (let r = half; r < BLOCK_SIZE; r += FILL_SQUARE) {
    const lat = rowCentre(b.band * BLOCK_SIZE + r);
    for (let c = half; c < BLOCK_SIZE; c += FILL_SQUARE, i++) {
      const col = b.block * BLOCK_SIZE + c - half;
      // A square past the band's last column holds no cell: it repeats its neighbour, which costs no run.
      if (col >= columns) {
        squares[i] = squares[i - 1];
        continue;
      }
      const lng = colCentre(Math.min(col + half, columns - 1), columns);
      const feature = lookup.at(b.band, b.block, lat, lng);
      let code: string | null;
      if (feature === UNCODED_FEATURE) code = null;
      else if (feature !== NO_FEATURE) code = lookup.codes[feature];
      else code = edges.nearest(lat, lng, maxM)?.code ?? null;
      squares[i] = code === null || NO_CODES.has(code) ? NO_FILL : countryOf(code);
    }
  }
  return squares;
}
