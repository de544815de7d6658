/**
 * Cells without codes: the bounds of the cell of any point, covered or not, and the frozen column
 * counts, for drawing the 3 m grid on a map.
 */
import { coverage } from './shipped-table.ts';
import { BANDS, cellOf, type CellBounds } from './grid.ts';
import { LocError, describeValue } from '../errors.ts';

/** The format version the engine reads and writes. */
export { FORMAT_VERSION } from './table-file.ts';

/** Bounds of the cell holding (`lat`, `lng`), whether or not any country's codes cover it. */
export function cellAt(lat: number, lng: number): CellBounds {
  if (!Number.isFinite(lat) || lat < -90 || lat > 90 || !Number.isFinite(lng) || lng < -180 || lng > 180) {
    throw new LocError('validation_error', `Expected lat in [-90, 90] and lng in [-180, 180], received ${describeValue(lat)}, ${describeValue(lng)}.`);
  }
  return cellOf(lat, lng, coverage().columns);
}

/** Columns of a band (0 = southernmost): the cell width there is 360° / columns. */
export function bandColumns(band: number): number {
  if (!Number.isInteger(band) || band < 0 || band >= BANDS) {
    throw new LocError('validation_error', `band must be an integer from 0 to ${BANDS - 1}, received ${describeValue(band)}.`, 'band');
  }
  return coverage().columns[band];
}

/** The countries that have codes, ascending. */
export function supportedCountries(): readonly string[] {
  return coverage().countries;
}
