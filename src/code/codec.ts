/**
 * The codec of format v1: a point to the code of the 3 m cell that holds it, and a code back to its
 * cell (docs/code-format.md §7). The country is the one of the cell centre; inside a pure block the
 * table already knows it, elsewhere country-coder is asked.
 */
import { LocError, describeValue } from '../errors.ts';
import { territoryOf } from './country.ts';
import { coverage } from './coverage.ts';
import { formatCode, parseCode } from './format.ts';
import {
  BLOCK_SIZE,
  bandOf,
  cellBounds,
  colCentre,
  colOf,
  rowCentre,
  rowOf,
  type CellBounds,
} from './grid.ts';

/** A cell and its code. `latitude` and `longitude` are the cell centre, not the point encoded. */
export interface LocatedCell {
  loc_code: string;
  latitude: number;
  longitude: number;
  country_code: string;
  cell: CellBounds;
}

/** The code of the cell holding (`lat`, `lng`). Throws `validation_error` or `unsupported_location`. */
export function encode(lat: number, lng: number): LocatedCell {
  checkCoordinate('lat', lat, 90);
  checkCoordinate('lng', lng, 180);
  const table = coverage();
  const row = rowOf(lat);
  const band = bandOf(row);
  const columns = table.columns[band];
  const col = colOf(lng, columns);
  const block = Math.floor(col / BLOCK_SIZE);
  const run = table.runAt(band, block);
  const unsupported = (): LocError =>
    new LocError('unsupported_location', `No country's codes cover ${lat}, ${lng} (open sea, Antarctica, or no country).`);
  if (run < 0) throw unsupported();

  const cls = table.classOf(run);
  let country: number;
  if (cls.pure) {
    country = cls.members[0];
  } else {
    const code = territoryOf(rowCentre(row), colCentre(col, columns));
    country = code === null ? -1 : table.indexOfCountry(code);
  }
  const number = country < 0 ? -1 : table.blockNumber(run, country, block);
  if (number < 0) throw unsupported();
  return located(table.countries[country], number, row, col, columns);
}

/** The cell of a code. Throws `invalid_code` when malformed, `code_not_found` when no cell has it. */
export function decode(code: string): LocatedCell {
  const parts = parseCode(code);
  if (parts === null) {
    throw new LocError('invalid_code', `Expected a code like FR-1A2B-3C4D, received ${describeValue(code)}.`, 'code');
  }
  const table = coverage();
  const notFound = (): LocError =>
    new LocError('code_not_found', `No cell has the code ${parts.country}-…; it is well-formed but does not exist.`, 'code');
  const country = table.indexOfCountry(parts.country);
  if (country < 0) throw notFound();
  const where = table.locateBlock(country, parts.block);
  if (where === null) throw notFound();
  const columns = table.columns[where.band];
  const row = where.band * BLOCK_SIZE + parts.row;
  const col = where.block * BLOCK_SIZE + parts.col;
  if (col >= columns) throw notFound();
  if (!table.classOf(where.run).pure && territoryOf(rowCentre(row), colCentre(col, columns)) !== parts.country) {
    throw notFound();
  }
  return located(parts.country, parts.block, row, col, columns);
}

function located(country: string, block: number, row: number, col: number, columns: number): LocatedCell {
  return {
    loc_code: formatCode({ country, block, row: row % BLOCK_SIZE, col: col % BLOCK_SIZE }),
    latitude: rowCentre(row),
    longitude: colCentre(col, columns),
    country_code: country,
    cell: cellBounds(row, col, columns),
  };
}

function checkCoordinate(field: 'lat' | 'lng', value: unknown, limit: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < -limit || value > limit) {
    throw new LocError(
      'validation_error',
      `${field} must be a finite number from ${-limit} to ${limit}, received ${describeValue(value)}.`,
      field,
    );
  }
}
