/**
 * loc-service/code — the location-code engine, format v1: `encode`, `decode`, a code's `neighbours`,
 * the code's written form, and the grid helpers a map needs to draw cells.
 */
export { encode, decode, neighbours, type LocatedCell } from './codec.ts';
export { NEIGHBOUR_DIRECTIONS, type Neighbours, type NeighbourDirection } from './neighbours.ts';
export { isCodeFormat, parseCode, formatCode, type CodeParts } from './format.ts';
export { normalizeCode } from './spelling.ts';
export { findCodes, type FoundCode } from './find-codes.ts';
export { cellAt, bandColumns, supportedCountries, FORMAT_VERSION } from './cells.ts';
export {
  BANDS,
  BLOCK_SIZE,
  CELL_SIZE_M,
  EARTH_RADIUS_M,
  ROWS,
  cellBounds,
  colOf,
  rowOf,
  type CellBounds,
} from './grid.ts';
export { countryName, countryFlag } from './country.ts';
export { LocError, ERROR_CATALOGUE, type ErrorCode } from '../errors.ts';
