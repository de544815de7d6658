/**
 * The 3 m grid as a map sees it: which row and column edges cross an area (for drawing), and which
 * cell lies next to a point (for keyboard steps) — the codec's grid math applied to the frozen column
 * counts, so the lines on the map are exactly the cells that the codes name.
 */
import { BLOCK_SIZE, bandOf, colCentre, colOf, colWest, rowCentre, rowOf, rowSouth } from './grid.ts';
import { neighbourCell } from './neighbours.ts';

/** A point in degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Zoom from which the grid shows; a cell is about 5 px wide there at the equator. */
export const GRID_MIN_ZOOM = 18;

/** More lines than this in one tile means a view the grid was not meant for; draw nothing. */
const MAX_LINES = 600;

export interface Bounds {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** The grid lines in an area: latitudes of row edges, and per band the longitudes of its column edges. */
export interface GridLines {
  rows: number[];
  bands: { south: number; north: number; lngs: number[] }[];
}

/** The row and column edges that cross `bounds`; `columnsOf(band)` is the band's column count. */
export function gridLines(bounds: Bounds, columnsOf: (band: number) => number): GridLines | null {
  const firstRow = rowOf(bounds.south);
  const lastRow = rowOf(bounds.north);
  if (lastRow - firstRow > MAX_LINES) return null;
  const rows: number[] = [];
  for (let row = firstRow; row <= lastRow + 1; row++) rows.push(rowSouth(row));

  const bands: GridLines['bands'] = [];
  for (let band = bandOf(firstRow); band <= bandOf(lastRow); band++) {
    const columns = columnsOf(band);
    const firstCol = colOf(bounds.west, columns);
    const lastCol = colOf(bounds.east, columns);
    if (lastCol - firstCol > MAX_LINES) return null;
    const lngs: number[] = [];
    for (let col = firstCol; col <= lastCol + 1; col++) lngs.push(colWest(col, columns));
    bands.push({
      south: Math.max(bounds.south, rowSouth(band * BLOCK_SIZE)),
      north: Math.min(bounds.north, rowSouth((band + 1) * BLOCK_SIZE)),
      lngs,
    });
  }
  return { rows, bands };
}

/**
 * The centre of the cell `east` and `north` cells (−1, 0 or 1) from the one holding `point`: its
 * neighbour as neighbours.ts defines it, so a step north lands on the cell whose code is the `n`
 * neighbour's. Past a pole the step stays on the cell.
 */
export function neighbourCentre(point: LatLng, east: number, north: number, columns: ArrayLike<number>): LatLng {
  const row = rowOf(point.lat);
  const here = { row, col: colOf(point.lng, columns[bandOf(row)]) };
  const { row: to, col } = neighbourCell(here, east, north, columns) ?? here;
  return { lat: rowCentre(to), lng: colCentre(col, columns[bandOf(to)]) };
}
