/**
 * The service's `grid.json` read as the frame and loc-js/grid both read it: the band column counts,
 * refused unless they are format v1's, since lines drawn from other counts would outline cells that
 * no code names.
 */
import { BANDS, BLOCK_SIZE } from '../code/grid.ts';
import type { GridData } from './frame-contract.ts';

/** The column counts of `data`; throws when it is not format v1's grid. */
export function gridDataColumns(data: GridData): number[] {
  const columns: unknown = data?.columns;
  if (data?.format !== 1 || data.rowsPerBand !== BLOCK_SIZE || !Array.isArray(columns) || columns.length !== BANDS || !columns.every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error('grid.json does not match format v1.');
  }
  return columns as number[];
}
