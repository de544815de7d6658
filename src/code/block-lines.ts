/**
 * The block outlines as a map sees them below the 3 m grid's zoom: a block is 1296 × 1296 cells
 * (about 3.9 km), the part of a code its `BBBB` names, so its outline shows which cells share those
 * four characters — where single cells would be a grey wash. Same shape as the grid lines
 * (grid-lines.ts), so one drawing serves both.
 */
import { BANDS, BLOCK_SIZE, bandOf, blocksInBand, colOf, colWest, rowOf, rowSouth } from './grid.ts';
import type { Bounds, GridLines } from './grid-lines.ts';

/**
 * Zoom (of 256 px tiles) from which the block outlines show: a block is about 50 px wide there at the
 * equator; below it they would crowd into a hatching. The 3 m grid takes over at GRID_MIN_ZOOM.
 */
export const BLOCK_MIN_ZOOM = 11;

/** More lines than this in one area means a view the outlines were not meant for; draw nothing. */
const MAX_LINES = 600;

/** The edges of the blocks that cross `bounds`: band edges, and per band its block columns' edges. */
export function blockLines(bounds: Bounds, columnsOf: (band: number) => number): GridLines | null {
  const firstBand = bandOf(rowOf(bounds.south));
  const lastBand = bandOf(rowOf(bounds.north));
  if (lastBand - firstBand > MAX_LINES) return null;
  const rows: number[] = [];
  for (let band = firstBand; band <= Math.min(lastBand + 1, BANDS); band++) rows.push(rowSouth(band * BLOCK_SIZE));

  const bands: GridLines['bands'] = [];
  for (let band = firstBand; band <= lastBand; band++) {
    const columns = columnsOf(band);
    const firstBlock = Math.floor(colOf(bounds.west, columns) / BLOCK_SIZE);
    const lastBlock = Math.floor(colOf(bounds.east, columns) / BLOCK_SIZE);
    if (lastBlock - firstBlock > MAX_LINES) return null;
    const lngs: number[] = [];
    // The last block of a band is narrower: its east edge is the band's, 180°.
    for (let block = firstBlock; block <= Math.min(lastBlock + 1, blocksInBand(columns)); block++) lngs.push(colWest(Math.min(block * BLOCK_SIZE, columns), columns));
    bands.push({
      south: Math.max(bounds.south, rowSouth(band * BLOCK_SIZE)),
      north: Math.min(bounds.north, rowSouth((band + 1) * BLOCK_SIZE)),
      lngs,
    });
  }
  return { rows, bands };
}
