/**
 * A cell's eight neighbours (docs/code-format.md §7, "Neighbours"): which cells they are, from the
 * grid alone, and their codes, from whichever codec the caller has — the service's, on the table
 * beside it, or the browser's, on a table it fetched. Nothing here reads a table, so both share it.
 */
import { LocError } from '../errors.ts';
import { ROWS, bandOf, colCentre, colOf, rowCentre, rowOf } from './grid.ts';

/** A cell of the grid by its row (from the south pole) and its column (from −180°) in its band. */
export interface GridCell {
  row: number;
  col: number;
}

/** The eight directions, clockwise from north: the order of a neighbours object's keys. */
export const NEIGHBOUR_DIRECTIONS = ['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw'] as const;

export type NeighbourDirection = (typeof NEIGHBOUR_DIRECTIONS)[number];

/** Steps [east, north] of each direction. */
const STEPS: Record<NeighbourDirection, readonly [number, number]> = {
  n: [0, 1],
  ne: [1, 1],
  e: [1, 0],
  se: [1, -1],
  s: [0, -1],
  sw: [-1, -1],
  w: [-1, 0],
  nw: [-1, 1],
};

/** Each neighbour's code, or null where that cell has none (the sea, no country, past a pole). */
export type Neighbours = Record<NeighbourDirection, string | null>;

/** What the neighbours need of a codec: its encode and decode, and the column count of each band. */
export interface NeighbourCodec {
  encode(lat: number, lng: number): { loc_code: string };
  decode(code: string): { latitude: number; longitude: number };
  readonly columns: ArrayLike<number>;
}

/**
 * The cell `east` columns and `north` rows (each −1, 0 or 1) from `cell`, or null past a pole. A step
 * north or south into another band lands on the cell of that band straight above or below the
 * centre; a step east or west is taken in the row reached, around the antimeridian.
 */
export function neighbourCell(cell: GridCell, east: number, north: number, columns: ArrayLike<number>): GridCell | null {
  const row = cell.row + north;
  if (row < 0 || row >= ROWS) return null;
  const from = bandOf(cell.row);
  const band = bandOf(row);
  const count = columns[band];
  const col = band === from ? cell.col : colOf(colCentre(cell.col, columns[from]), count);
  return { row, col: (col + east + count) % count };
}

/** The eight neighbour cells of (`row`, `col`); those past a pole are null. */
export function neighbourCells(row: number, col: number, columns: ArrayLike<number>): Record<NeighbourDirection, GridCell | null> {
  const cells = {} as Record<NeighbourDirection, GridCell | null>;
  for (const direction of NEIGHBOUR_DIRECTIONS) cells[direction] = neighbourCell({ row, col }, ...STEPS[direction], columns);
  return cells;
}

/**
 * The codes of the eight neighbours of `code`, by `codec`. A malformed code is `invalid_code`, a
 * well-formed one that names no cell `code_not_found`, as decode says.
 */
export function neighboursWith(codec: NeighbourCodec, code: string): Neighbours {
  const { latitude, longitude } = codec.decode(code);
  const { columns } = codec;
  const row = rowOf(latitude);
  const cells = neighbourCells(row, colOf(longitude, columns[bandOf(row)]), columns);
  const codes = {} as Neighbours;
  for (const direction of NEIGHBOUR_DIRECTIONS) codes[direction] = codeOf(codec, cells[direction]);
  return codes;
}

/** The code of `cell`, the code of its centre; null where the cell has none. */
function codeOf(codec: NeighbourCodec, cell: GridCell | null): string | null {
  if (cell === null) return null;
  try {
    return codec.encode(rowCentre(cell.row), colCentre(cell.col, codec.columns[bandOf(cell.row)])).loc_code;
  } catch (error) {
    if (error instanceof LocError && error.code === 'unsupported_location') return null;
    throw error;
  }
}
