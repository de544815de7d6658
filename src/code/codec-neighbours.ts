/**
 * The neighbours of a code by this process's codec (codec.ts, on the table beside it). The geometry
 * and the codes' rule live in neighbours.ts, which reads no table, so that a codec on a table fetched
 * by a browser gives the same answers through the same code.
 */
import { decode, encode } from './codec.ts';
import { coverage } from './coverage.ts';
import { neighboursWith, type Neighbours } from './neighbours.ts';

/** The codes of the eight neighbours of `code` (docs/code-format.md §7); null where a cell has none. */
export function neighbours(code: string): Neighbours {
  return neighboursWith({ encode, decode, columns: coverage().columns }, code);
}
