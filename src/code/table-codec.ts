/**
 * The codec of format v1 on a given table: a point to the code of the 3 m cell that holds it, and a
 * code back to its cell (docs/code-format.md §7). The service runs it on the table it ships
 * (codec.ts), loc-js/codec on the same bytes fetched by a browser, so both answer alike by
 * construction. The country is the one of the cell centre; inside a pure block the table already
 * knows it, in a mixed block the table's border polygons decide (§4), and where no polygon holds the
 * centre, the block's fill (§10).
 *
 * encode and decode are hot paths (`npm run bench` holds them against open-location-code): no closures,
 * no intermediate objects, array look-ups only.
 */
import { LocError, describeValue } from '../errors.ts';
import { NO_COVERAGE, entryCountry, entryMixed, entryNumber, isPureEntry, type Coverage } from './coverage.ts';
import { parseCode, writeCode } from './format.ts';
import { BLOCK_SIZE, ROWS, colCentre, colWest, rowCentre, rowSouth, type CellBounds } from './grid.ts';
import { MixedBlocks } from './mixed-blocks.ts';

const ROWS_PER_DEGREE = ROWS / 180;

/** A cell and its code. `latitude` and `longitude` are the cell centre, not the point encoded. */
export interface LocatedCell {
  loc_code: string;
  latitude: number;
  longitude: number;
  country_code: string;
  cell: CellBounds;
}

let mixedTable: Coverage | undefined;
let mixedBlocks: MixedBlocks | undefined;

/**
 * The mixed blocks of `table`, built on the first point that falls in one. One table at a time is
 * kept: a process has one (the service's, or the one loc-js/codec loaded), and a second only in tests.
 */
function mixed(table: Coverage): MixedBlocks {
  if (table !== mixedTable) {
    mixedBlocks = new MixedBlocks(table);
    mixedTable = table;
  }
  return mixedBlocks!;
}

/** The code of the cell holding (`lat`, `lng`) in `table`. Throws `validation_error` or `unsupported_location`. */
export function encodeIn(table: Coverage, lat: number, lng: number): LocatedCell {
  checkCoordinate('lat', lat, 90);
  checkCoordinate('lng', lng, 180);
  // rowOf and colOf fused with the cell bounds they compare against, so each edge is divided out
  // once: the first guess multiplies, the edge formulas of grid.ts decide.
  let row = Math.min(ROWS - 1, Math.floor((lat + 90) * ROWS_PER_DEGREE));
  let south = rowSouth(row);
  if (south > lat) south = rowSouth(--row);
  let north = rowSouth(row + 1);
  if (north <= lat && row < ROWS - 1) {
    south = north;
    north = rowSouth(++row + 1);
  }
  // 1296 (BLOCK_SIZE) is written out in the hot path: TurboFan turns a division by a literal into a
  // multiply, but divides by an imported constant with idiv, which sits on the path to the table read.
  const band = (row / 1296) | 0;
  const columns = table.columns[band];
  const x = lng === 180 ? -180 : lng;
  let col = Math.min(columns - 1, Math.floor((x + 180) * columns * (1 / 360)));
  let west = colWest(col, columns);
  if (west > x) west = colWest(--col, columns);
  let east = colWest(col + 1, columns);
  if (east <= x && col < columns - 1) {
    west = east;
    east = colWest(++col + 1, columns);
  }

  const block = (col / 1296) | 0;
  let entry = table.entryAt(band, block);
  if (!isPureEntry(entry) && entry !== NO_COVERAGE) {
    // A mixed block: the borders decide, and answer with a pure entry or NO_COVERAGE. >>> 0: the
    // record holds doubles, and a uint32 here, like the index's entries, keeps TurboFan from treating
    // every entry as a double (4 ns on the average encode, measured).
    entry = mixed(table).entryAt(entryMixed(entry), rowCentre(row), colCentre(col, columns), row, col) >>> 0;
  }
  // One return, written out here rather than in a helper: TurboFan did not always inline a helper
  // called from two places, and encode then took 68 ns instead of 57 in one process out of three.
  if (isPureEntry(entry)) {
    const country = entryCountry(entry);
    // The code is written last, into a result already built: across the call that writes it, V8 then
    // keeps one object instead of the row, the column and the cell's four edges (5 ns, alternated).
    const result: LocatedCell = {
      loc_code: '',
      latitude: rowCentre(row),
      longitude: colCentre(col, columns),
      country_code: table.countries[country],
      cell: { north, south, east, west },
    };
    result.loc_code = writeCode(table.countryChars[2 * country], table.countryChars[2 * country + 1], entryNumber(entry), row - band * 1296, col - block * 1296);
    return result;
  }
  throw new LocError('unsupported_location', `No country's codes cover ${lat}, ${lng} (open sea, Antarctica, or no country).`);
}

/** The cell of a code in `table`. Throws `invalid_code` when malformed, `code_not_found` when no cell has it. */
export function decodeIn(table: Coverage, code: string): LocatedCell {
  const parts = parseCode(code);
  if (parts === null) {
    throw new LocError('invalid_code', `Expected a code like FR-1A2B-3C4D, received ${describeValue(code)}.`, 'code');
  }
  const country = table.indexOfCountry(parts.country);
  const where = country < 0 ? null : table.locateBlock(country, parts.block);
  if (where !== null) {
    const columns = table.columns[where.band];
    const row = where.band * BLOCK_SIZE + parts.row;
    const col = where.block * BLOCK_SIZE + parts.col;
    if (col < columns && (table.runPure[where.run] === 1 || mixedCountry(table, row, col, columns, where.band, where.block) === country)) {
      return {
        loc_code: writeCode(parts.country.charCodeAt(0), parts.country.charCodeAt(1), parts.block, parts.row, parts.col),
        latitude: rowCentre(row),
        longitude: colCentre(col, columns),
        country_code: parts.country,
        cell: { north: rowSouth(row + 1), south: rowSouth(row), east: colWest(col + 1, columns), west: colWest(col, columns) },
      };
    }
  }
  throw new LocError('code_not_found', `No cell has the code ${describeValue(code)}; it is well-formed but does not exist.`, 'code');
}

/**
 * The code of the cell at `row`, `col` (its column in its band) in `table`, or null where no country's
 * codes cover it: encode's answer for the cell's centre without its throw, which costs a hundred times
 * the answer and would dominate a walk over the cells of a box at sea.
 */
export function cellCodeIn(table: Coverage, row: number, col: number): LocatedCell | null {
  const band = (row / BLOCK_SIZE) | 0;
  const columns = table.columns[band];
  const block = (col / BLOCK_SIZE) | 0;
  const entry = table.entryAt(band, block);
  if (entry === NO_COVERAGE || (!isPureEntry(entry) && mixedCountry(table, row, col, columns, band, block) < 0)) return null;
  return encodeIn(table, rowCentre(row), colCentre(col, columns));
}

/** Country index of a cell centre in a mixed block (one that borders cross), or −1 where none covers it. */
function mixedCountry(table: Coverage, row: number, col: number, columns: number, band: number, block: number): number {
  const entry = mixed(table).entryAt(entryMixed(table.entryAt(band, block)), rowCentre(row), colCentre(col, columns), row, col);
  return isPureEntry(entry) ? entryCountry(entry) : -1;
}

function checkCoordinate(field: 'lat' | 'lng', value: unknown, limit: number): void {
  if (typeof value !== 'number' || !(value >= -limit && value <= limit)) {
    throw new LocError(
      'validation_error',
      `${field} must be a finite number from ${-limit} to ${limit}, received ${describeValue(value)}.`,
      field,
    );
  }
}
