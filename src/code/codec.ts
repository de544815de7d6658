/**
 * The service's codec: the codec of format v1 (table-codec.ts) and a code's neighbours
 * (neighbours.ts) on the table the service ships (shipped-table.ts), read from disk on first use.
 */
import { coverage } from './shipped-table.ts';
import { neighboursWith, type Neighbours } from './neighbours.ts';
import { cellCodeIn, decodeIn, encodeIn, type LocatedCell } from './table-codec.ts';

export type { LocatedCell };

/** The code of the cell holding (`lat`, `lng`). Throws `validation_error` or `unsupported_location`. */
export function encode(lat: number, lng: number): LocatedCell {
  return encodeIn(coverage(), lat, lng);
}

/** The cell of a code. Throws `invalid_code` when malformed, `code_not_found` when no cell has it. */
export function decode(code: string): LocatedCell {
  return decodeIn(coverage(), code);
}

/** The code of the cell at `row`, `col`, or null where it has none: encode of its centre, without the throw. */
export function cellCode(row: number, col: number): LocatedCell | null {
  return cellCodeIn(coverage(), row, col);
}

/** The codes of the eight neighbours of `code` (docs/code-format.md §7); null where a cell has none. */
export function neighbours(code: string): Neighbours {
  return neighboursWith({ encode, decode, columns: coverage().columns }, code);
}
