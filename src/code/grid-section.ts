/**
 * The grid inside a box: the cells a box overlaps, the row and column edges that cross it, and its
 * size — on the codec's own edges (grid.ts), so every cell is exactly the cell its code names.
 *
 * A box is `west`, `south`, `east`, `north` in degrees, with south < north; `west` greater than `east`
 * is a box across the antimeridian (GeoJSON's convention, RFC 7946 §5.2). It overlaps a cell when they
 * share more than an edge, so a box drawn on cell edges holds exactly the cells inside them. The
 * grid's column counts, band by band, are given (the shipped table's, or a revision's): this module
 * reads no table.
 */
import { BLOCK_SIZE, EARTH_RADIUS_M, bandOf, colOf, colWest, rowOf, rowSouth } from './grid.ts';

/** Degrees; south < north, and west ≠ east (west > east crosses the antimeridian). */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Columns `first` … `last` of a band, west to east. */
export interface ColumnSpan {
  first: number;
  last: number;
}

/** The rows and, per band, the columns a box overlaps. */
export interface BoxCells {
  firstRow: number;
  lastRow: number;
  bands: { band: number; columns: number; firstRow: number; lastRow: number; spans: ColumnSpan[] }[];
}

/** A column edge's stretch of one band: its longitudes, from `south` to `north`. */
export interface BandEdges {
  band: number;
  columns: number;
  south: number;
  north: number;
  lngs: number[];
}

/** The grid lines inside a box, its edges included. */
export interface BoxLines {
  /** Latitudes of the row edges, south to north. */
  rows: number[];
  /** The box's longitudes the row edges run across: two stretches across the antimeridian. */
  stretches: [number, number][];
  bands: BandEdges[];
}

/**
 * The box's longitudes as stretches that do not cross the antimeridian, west to east along the box.
 * A box from 180 starts at −180, and one to −180 ends at 180: the same meridian.
 */
export function lngStretches({ west, east }: Box): [number, number][] {
  const w = west === 180 ? -180 : west;
  const e = east === -180 ? 180 : east;
  return w < e ? [[w, e]] : [[w, 180], [-180, e]];
}

/** The columns of a band of `columns` that [a, b] overlaps (a < b). */
function spanOf(a: number, b: number, columns: number): ColumnSpan {
  const first = colOf(a, columns);
  if (b === 180) return { first, last: columns - 1 };
  const last = colOf(b, columns);
  return { first, last: colWest(last, columns) === b ? last - 1 : last };
}

/** The column spans of a band that the box overlaps; one span of every column when the box goes round. */
function spansOf(box: Box, columns: number): ColumnSpan[] {
  const spans = lngStretches(box).map(([a, b]) => spanOf(a, b, columns));
  if (spans.length === 2 && spans[1].last >= spans[0].first - 1) return [{ first: 0, last: columns - 1 }];
  return spans;
}

/** The rows the box overlaps. */
function rowsOf({ south, north }: Box): { firstRow: number; lastRow: number } {
  const firstRow = rowOf(south);
  const last = rowOf(north);
  return { firstRow, lastRow: rowSouth(last) === north ? last - 1 : last };
}

/** The cells `box` overlaps, band by band, on a grid of `columnsOf` columns per band. */
export function boxCells(box: Box, columnsOf: ArrayLike<number>): BoxCells {
  const { firstRow, lastRow } = rowsOf(box);
  const bands: BoxCells['bands'] = [];
  for (let band = bandOf(firstRow); band <= bandOf(lastRow); band++) {
    const columns = columnsOf[band];
    bands.push({
      band,
      columns,
      firstRow: Math.max(firstRow, band * BLOCK_SIZE),
      lastRow: Math.min(lastRow, (band + 1) * BLOCK_SIZE - 1),
      spans: spansOf(box, columns),
    });
  }
  return { firstRow, lastRow, bands };
}

/** How many cells `cells` holds. */
export function cellCount(cells: BoxCells): number {
  let count = 0;
  for (const { firstRow, lastRow, spans } of cells.bands) {
    for (const { first, last } of spans) count += (lastRow - firstRow + 1) * (last - first + 1);
  }
  return count;
}

/**
 * The row and column edges inside `box`, its own edges included. Across the antimeridian the meridian
 * ±180 is one edge, written once, as 180.
 */
export function boxLines(box: Box, columnsOf: ArrayLike<number>): BoxLines {
  const cells = boxCells(box, columnsOf);
  const stretches = lngStretches(box);
  const rows: number[] = [];
  for (let row = cells.firstRow; row <= cells.lastRow + 1; row++) {
    const lat = rowSouth(row);
    if (lat >= box.south && lat <= box.north) rows.push(lat);
  }
  const bands = cells.bands.map(({ band, columns, spans }): BandEdges => {
    const lngs: number[] = [];
    for (const { first, last } of spans) {
      for (let col = first; col <= last + 1; col++) {
        const lng = colWest(col, columns);
        const inside = stretches.some(([a, b]) => lng >= a && lng <= b);
        if (inside && !(lng === -180 && stretches.length === 2)) lngs.push(lng);
      }
    }
    return {
      band,
      columns,
      south: Math.max(box.south, rowSouth(band * BLOCK_SIZE)),
      north: Math.min(box.north, rowSouth((band + 1) * BLOCK_SIZE)),
      lngs,
    };
  });
  return { rows, stretches, bands };
}

const RAD = Math.PI / 180;

/**
 * The box's diagonal in metres: the haversine distance from its south-west corner to its north-east
 * one on the sphere of radius R (both diagonals of a box on a sphere are equally long). A box wider
 * than 180° is measured as 180° wide, its widest: the shorter way round would make it small.
 */
export function diagonalM(box: Box): number {
  const width = Math.min(180, lngStretches(box).reduce((sum, [a, b]) => sum + b - a, 0));
  const dLat = (box.north - box.south) * RAD;
  const s = Math.sin(dLat / 2);
  const t = Math.sin((width * RAD) / 2);
  const h = s * s + Math.cos(box.south * RAD) * Math.cos(box.north * RAD) * t * t;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, h)));
}
