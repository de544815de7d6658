/**
 * loc-js/grid — loc's grid without the service: the bounds of the cell of any point, and the cell
 * lines and block outlines inside any view, for drawing on a map. Everything follows from the band
 * column counts (5148 numbers, frozen per format version), read from the service's `grid.json` or
 * from the first bytes of the codec's table file; after that nothing asks the network.
 *
 * The math is the service's own (src/code/), bundled in by the build: the lines are exactly the cells
 * that the codes name.
 */
import { blockLines as blocksIn, BLOCK_MIN_ZOOM } from '../../../src/code/block-lines.ts';
import { BANDS, cellOf, type CellBounds } from '../../../src/code/grid.ts';
import { gridLines as cellsIn, GRID_MIN_ZOOM, type Bounds, type GridLines } from '../../../src/code/grid-lines.ts';
import { tableGrid } from '../../../src/code/table-grid.ts';
import { gridDataColumns } from '../../../src/embed/grid-data.ts';

export { BLOCK_MIN_ZOOM, GRID_MIN_ZOOM, type Bounds, type CellBounds, type GridLines };

/** The grid: the column count of each band, south to north (5148 bands of 1296 rows). */
export interface LocGrid {
  columns: ArrayLike<number>;
}

/** The lines to draw in a view, and which: the 3 m cells, or the outlines of their blocks. */
export interface ViewLines {
  kind: 'cells' | 'blocks';
  lines: GridLines;
}

/** An error with the service's `code`, as the API and the offline codec name it. */
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * The grid of a table file's bytes: the whole file (as loc-js/codec fetches it) or its first bytes up
 * to the end of the column counts (about 20 KB). Throws for another file, format or revision.
 */
export function gridFromTable(bytes: Uint8Array | ArrayBuffer): LocGrid {
  const grid = tableGrid(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  if (grid.columns.length !== BANDS) throw new Error(`table file: ${grid.columns.length} bands, where format 1 has ${BANDS}`);
  return { columns: grid.columns };
}

export interface LoadGridOptions {
  /** The loc service's public URL, e.g. `https://loc.example`. */
  baseUrl: string;
}

/** The grid from the service's `{baseUrl}/embed/grid.json` (CORS `*`, cached a day): one request. */
export async function loadGrid(options: LoadGridOptions): Promise<LocGrid> {
  const url = `${String(options.baseUrl).replace(/\/+$/, '')}/embed/grid.json`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`loadGrid: ${url} answered ${response.status}`);
  return { columns: gridDataColumns(await response.json()) };
}

/**
 * Bounds of the cell holding (`lat`, `lng`), whether or not a country's codes cover it. Throws an
 * Error with `code` 'validation_error' for a point that is not a latitude in [−90, 90] and a
 * longitude in [−180, 180].
 */
export function cellAt(grid: LocGrid, lat: number, lng: number): CellBounds {
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) throw coded('validation_error', `Expected lat in [-90, 90] and lng in [-180, 180], received ${lat}, ${lng}.`);
  return cellOf(lat, lng, grid.columns);
}

/** The row and column edges of the 3 m cells that cross `bounds`; null for an area of over 600 rows or columns. */
export function gridLines(grid: LocGrid, bounds: Bounds): GridLines | null {
  return cellsIn(bounds, (band) => grid.columns[band]);
}

/** The outlines of the blocks (1296 × 1296 cells, about 3.9 km) that cross `bounds`; null for an area of over 600 of them. */
export function blockLines(grid: LocGrid, bounds: Bounds): GridLines | null {
  return blocksIn(bounds, (band) => grid.columns[band]);
}

/**
 * What a map shows at `zoom` (of 256 px tiles, as Leaflet counts; MapLibre's zoom is one less for the
 * same scale): the cells from GRID_MIN_ZOOM (18), the block outlines from BLOCK_MIN_ZOOM (11), else nothing.
 */
export function linesAt(grid: LocGrid, bounds: Bounds, zoom: number): ViewLines | null {
  const kind = zoom >= GRID_MIN_ZOOM ? 'cells' : zoom >= BLOCK_MIN_ZOOM ? 'blocks' : null;
  const lines = kind === 'cells' ? gridLines(grid, bounds) : kind === 'blocks' ? blockLines(grid, bounds) : null;
  return kind && lines ? { kind, lines } : null;
}
