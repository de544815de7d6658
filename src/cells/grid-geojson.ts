/**
 * The grid of a box as GeoJSON (RFC 7946), for servers and apps that draw cells without loc's
 * JavaScript: each cell a Polygon with its code as the service hands it out, or the grid lines as
 * MultiLineStrings. Coordinates are the codec's edges unrounded, so a polygon is exactly the `cell`
 * that resolve and lookup answer for its code. The box is bounded by what each answer costs: cells by
 * their number, lines (two points each) by the box's diagonal.
 */
import { cellCode } from '../code/codec.ts';
import { coverage } from '../code/shipped-table.ts';
import { boxCells, boxLines, cellCount, diagonalM, type Box } from '../code/grid-section.ts';
import { cellBounds } from '../code/grid.ts';
import { LocError, describeValue } from '../errors.ts';
import type { Served } from './locate.ts';

/** Most cells one `kind=cells` answer holds (about 300 m × 300 m). */
export const GRID_CELLS_MAX = 10_000;

/** Longest diagonal of a box whose lines one `kind=lines` answer draws, metres. */
export const GRID_DIAGONAL_MAX_M = 4_000;

export type GridKind = 'lines' | 'cells';

type Position = [number, number];

export interface CellFeature {
  type: 'Feature';
  geometry: { type: 'Polygon'; coordinates: Position[][] };
  properties: { loc_code: string | null; country_code: string | null };
}

export interface LineFeature {
  type: 'Feature';
  geometry: { type: 'MultiLineString'; coordinates: Position[][] };
  properties: { edges: 'rows' } | { edges: 'columns'; band: number; columns: number };
}

export interface GridCollection<F> {
  type: 'FeatureCollection';
  /** The box as read, `[west, south, east, north]`. */
  bbox: [number, number, number, number];
  features: F[];
}

const DEGREES = '[+-]?\\d+(?:\\.\\d+)?';
const BBOX = new RegExp(`^\\s*(${DEGREES})\\s*,\\s*(${DEGREES})\\s*,\\s*(${DEGREES})\\s*,\\s*(${DEGREES})\\s*$`);

/**
 * `bbox` as sent, `west,south,east,north` in decimal degrees; 422 `validation_error` naming `bbox` for
 * anything else, a south not below the north, or a box of no width (west equal to east, or 180 to -180).
 */
export function parseBbox(text: string): Box {
  const m = BBOX.exec(text);
  const [west, south, east, north] = m ? m.slice(1).map(Number) : [NaN, NaN, NaN, NaN];
  if (!(Math.abs(west) <= 180 && Math.abs(east) <= 180 && Math.abs(south) <= 90 && Math.abs(north) <= 90)) {
    throw new LocError(
      'validation_error',
      `bbox must be "west,south,east,north" in decimal degrees, longitudes -180 to 180 and latitudes -90 to 90; received ${describeValue(text)}.`,
      'bbox',
    );
  }
  if (!(south < north)) throw new LocError('validation_error', `bbox must have its south below its north, received south ${south} and north ${north}.`, 'bbox');
  if (west === east || (west === 180 && east === -180)) {
    throw new LocError(
      'validation_error',
      `bbox must have a width: west ${west} and east ${east} are the same meridian (west greater than east is a box across the antimeridian; for every longitude send -180 and 180).`,
      'bbox',
    );
  }
  return { west, south, east, north };
}

const bboxOf = (box: Box): GridCollection<never>['bbox'] => [box.west, box.south, box.east, box.north];

/**
 * Each cell `box` overlaps, south to north, then west to east along the box, with its code — null
 * where no country's codes cover it or the service does not hand out its country's. 422 `validation_error`
 * naming `bbox` beyond GRID_CELLS_MAX.
 */
export function cellsGeoJson(config: Pick<Served, 'supportedCountries'>, box: Box): GridCollection<CellFeature> {
  const cells = boxCells(box, coverage().columns);
  const count = cellCount(cells);
  if (count > GRID_CELLS_MAX) {
    throw new LocError(
      'validation_error',
      `bbox holds ${count} cells; kind=cells answers at most ${GRID_CELLS_MAX}: ask for a smaller box, or for kind=lines.`,
      'bbox',
    );
  }
  const features: CellFeature[] = [];
  for (const { columns, firstRow, lastRow, spans } of cells.bands) {
    for (let row = firstRow; row <= lastRow; row++) {
      for (const { first, last } of spans) {
        for (let col = first; col <= last; col++) features.push(cellFeature(config, row, col, columns));
      }
    }
  }
  return { type: 'FeatureCollection', bbox: bboxOf(box), features };
}

function cellFeature(config: Pick<Served, 'supportedCountries'>, row: number, col: number, columns: number): CellFeature {
  const { west, south, east, north } = cellBounds(row, col, columns);
  const located = cellCode(row, col);
  const served = located !== null && (config.supportedCountries?.has(located.country_code) ?? true);
  return {
    type: 'Feature',
    // The outer ring counter-clockwise, as RFC 7946 §3.1.6 asks.
    geometry: { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] },
    properties: served ? { loc_code: located.loc_code, country_code: located.country_code } : { loc_code: null, country_code: null },
  };
}

/**
 * The grid lines inside `box`: the row edges across it, then each band's column edges (a band has
 * columns of its own width). 422 `validation_error` naming `bbox` beyond GRID_DIAGONAL_MAX_M.
 */
export function linesGeoJson(box: Box): GridCollection<LineFeature> {
  const diagonal = diagonalM(box);
  if (diagonal > GRID_DIAGONAL_MAX_M) {
    throw new LocError(
      'validation_error',
      `bbox has a diagonal of ${Math.ceil(diagonal)} m; kind=lines answers boxes of at most ${GRID_DIAGONAL_MAX_M} m corner to corner: ask for a smaller box.`,
      'bbox',
    );
  }
  const lines = boxLines(box, coverage().columns);
  const features: LineFeature[] = [{
    type: 'Feature',
    // RFC 7946 §3.1.9: a line across the antimeridian is cut in two there.
    geometry: { type: 'MultiLineString', coordinates: lines.rows.flatMap((lat) => lines.stretches.map(([a, b]): Position[] => [[a, lat], [b, lat]])) },
    properties: { edges: 'rows' },
  }];
  for (const { band, columns, south, north, lngs } of lines.bands) {
    features.push({
      type: 'Feature',
      geometry: { type: 'MultiLineString', coordinates: lngs.map((lng): Position[] => [[lng, south], [lng, north]]) },
      properties: { edges: 'columns', band, columns },
    });
  }
  return { type: 'FeatureCollection', bbox: bboxOf(box), features };
}
