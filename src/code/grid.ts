/**
 * The sphere grid of format v1 (docs/code-format.md §2).
 *
 * Rows of equal latitude height cover the sphere from the south pole up; rows are grouped in bands of
 * 1296, and each band has its own number of equal-width columns, frozen in the table file, so that a
 * cell stays about 3 m wide at every latitude. Everything here is integer arithmetic plus one
 * correctly rounded multiply-and-divide per edge, so any IEEE 754 implementation gets the same bounds.
 */

/** Sphere radius (the IUGG mean Earth radius), used only to derive band widths and distances. */
export const EARTH_RADIUS_M = 6_371_008.8;

/** Nominal cell edge in metres. */
export const CELL_SIZE_M = 3;

/** Cells along each side of a block: 36², the range of two base-36 digits. */
export const BLOCK_SIZE = 36 * 36;

/**
 * Bands from pole to pole; a band is one row of blocks (≈ 3.9 km). The fewest whole bands whose rows
 * are at most 3 m tall: half a meridian, π·R ≈ 20 015 114 m, is 6 671 705 rows of 3 m (rounded up), and
 * ⌈6 671 705 / 1296⌉ = 5148. A frozen constant of the format, written out rather than computed:
 * floating-point π must not decide it.
 */
export const BANDS = 5148;

/** Rows from pole to pole (6 671 808), each 180° / ROWS ≈ 3.000 m tall. */
export const ROWS = BANDS * BLOCK_SIZE;

/** Latitude of the southern edge of `row` (0 … ROWS; ROWS gives the north pole). */
export function rowSouth(row: number): number {
  return (row * 180) / ROWS - 90;
}

/** Longitude of the western edge of `col` in a band of `columns` columns (col = columns gives 180). */
export function colWest(col: number, columns: number): number {
  return (col * 360) / columns - 180;
}

/**
 * The row holding `lat`: the one with rowSouth(row) ≤ lat < rowSouth(row + 1). The first guess can be
 * one off where rounding disagrees with the edge formula, and the edges are what the format defines.
 * Latitude 90 falls in the last row.
 */
export function rowOf(lat: number): number {
  if (lat >= 90) return ROWS - 1;
  let row = Math.min(ROWS - 1, Math.max(0, Math.floor(((lat + 90) * ROWS) / 180)));
  while (row > 0 && rowSouth(row) > lat) row--;
  while (row < ROWS - 1 && rowSouth(row + 1) <= lat) row++;
  return row;
}

/** The column holding `lng` in a band of `columns` columns; longitude 180 is −180. */
export function colOf(lng: number, columns: number): number {
  const x = lng >= 180 ? -180 : lng;
  let col = Math.min(columns - 1, Math.max(0, Math.floor(((x + 180) * columns) / 360)));
  while (col > 0 && colWest(col, columns) > x) col--;
  while (col < columns - 1 && colWest(col + 1, columns) <= x) col++;
  return col;
}

/** Centre latitude of `row`. */
export function rowCentre(row: number): number {
  return ((2 * row + 1) * 90) / ROWS - 90;
}

/** Centre longitude of `col` in a band of `columns` columns. */
export function colCentre(col: number, columns: number): number {
  return ((2 * col + 1) * 180) / columns - 180;
}

/** The band (row of blocks) that holds `row`. */
export function bandOf(row: number): number {
  return Math.floor(row / BLOCK_SIZE);
}

/** Bounds of one cell, in degrees. South and west edges belong to the cell, north and east do not. */
export interface CellBounds {
  north: number;
  south: number;
  east: number;
  west: number;
}

/** Bounds of the cell at `row`, `col` in a band of `columns` columns. */
export function cellBounds(row: number, col: number, columns: number): CellBounds {
  return {
    north: rowSouth(row + 1),
    south: rowSouth(row),
    east: colWest(col + 1, columns),
    west: colWest(col, columns),
  };
}

/**
 * Bounds of the cell holding (`lat`, `lng`), from every band's column count (`columns[band]`); the
 * caller has checked that the point is on Earth.
 */
export function cellOf(lat: number, lng: number, columns: ArrayLike<number>): CellBounds {
  const row = rowOf(lat);
  const count = columns[bandOf(row)];
  return cellBounds(row, colOf(lng, count), count);
}

/**
 * The column count of a band as the format defines it: the band's edge nearer the equator divided
 * into widths of at most 3 m. Only the table generator calls this — Math.cos may differ in the last
 * bit between engines, so the runtime reads the frozen counts from the table instead.
 */
export function designBandColumns(band: number): number {
  const edge = band < BANDS / 2 ? rowSouth((band + 1) * BLOCK_SIZE) : rowSouth(band * BLOCK_SIZE);
  const circumference = 2 * Math.PI * EARTH_RADIUS_M * Math.cos((edge * Math.PI) / 180);
  return Math.max(1, Math.ceil(circumference / CELL_SIZE_M));
}

/** Blocks in a band of `columns` columns; the last one is narrower when 1296 does not divide it. */
export function blocksInBand(columns: number): number {
  return Math.ceil(columns / BLOCK_SIZE);
}
