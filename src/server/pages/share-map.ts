/**
 * The share page's map, laid out on the server: which tiles of the service's `streets` layers to show
 * and where, and where the cell's outline goes — so the page needs no script and no frame, and loads
 * images only from the configured tile servers (the service itself in offline mode).
 *
 * Positions are Web Mercator (EPSG:3857) pixels at MAP_ZOOM, 256 px tiles, the way Leaflet draws the
 * embed's map, relative to an origin at the cell's centre (rounded to a whole pixel, so tiles sit on
 * whole pixels and never show seams). The page puts that origin at the middle of the map box with CSS,
 * whatever the box's width.
 */
import type { CellBounds } from '../../code/index.ts';
import type { TileLayerConfig } from '../../embed/frame-contract.ts';
import { PAGE_MAX_WIDTH_PX, PAGE_PADDING_X_PX } from './html.ts';

export const TILE_SIZE = 256;

/**
 * The zoom the map is shown at: a 3 m cell is 10 px across at the equator (15 px in Paris, more
 * further north), with a few hundred metres of streets around it. OpenStreetMap's tiles stop at 19.
 */
export const MAP_ZOOM = 19;

/**
 * The map box: as wide as the page's column (html.ts), so at most this, and a fixed height; tiles are
 * laid out to fill both.
 */
export const MAP_MAX_WIDTH_PX = PAGE_MAX_WIDTH_PX - 2 * PAGE_PADDING_X_PX;
export const MAP_HEIGHT_PX = 300;

/** Web Mercator's edge: tiles cover latitudes up to this and no further. */
export const MAX_MERCATOR_LATITUDE = 85.0511287798066;

export interface MapTile {
  url: string;
  /** Top-left corner and side, CSS pixels from the origin. */
  left: number;
  top: number;
  size: number;
  referrerPolicy: TileLayerConfig['referrerPolicy'];
  /**
   * How far the box must reach each way from its middle for the tile to show, CSS pixels: a box of
   * width w shows it when w / 2 > reach. Negative for the tiles that the middle itself crosses.
   */
  reach: number;
  /** Overlay layers are drawn translucent. */
  opacity?: number;
}

export interface MapLayout {
  zoom: number;
  /** Every layer's tiles, bottom layer first. */
  tiles: MapTile[];
  /** The cell's outline, CSS pixels from the origin (two decimals). */
  cell: { left: number; top: number; width: number; height: number };
}

/** World pixel coordinates at `zoom`. */
function project(lat: number, lng: number, zoom: number): { x: number; y: number } {
  const world = TILE_SIZE * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  return { x: ((lng + 180) / 360) * world, y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * world };
}

const css = (value: number) => Math.round(value * 100) / 100;

/**
 * The map of a cell, or null when the cell reaches past Web Mercator's edge (±85.05°), where no tile
 * server has tiles: the page then says so rather than drawing a map of somewhere else. No country the
 * codes cover reaches that far today (Greenland stops short of 84°N), so this is a guard, not a case.
 */
export function mapLayout(bounds: CellBounds, layers: readonly TileLayerConfig[]): MapLayout | null {
  if (bounds.north > MAX_MERCATOR_LATITUDE || bounds.south < -MAX_MERCATOR_LATITUDE) return null;
  const nw = project(bounds.north, bounds.west, MAP_ZOOM);
  const se = project(bounds.south, bounds.east, MAP_ZOOM);
  const origin = { x: Math.round((nw.x + se.x) / 2), y: Math.round((nw.y + se.y) / 2) };
  const tiles: MapTile[] = [];
  for (const layer of layers) {
    // Above its native zoom a provider has no tiles: take its highest and draw them larger, as Leaflet does.
    const tileZoom = Math.min(MAP_ZOOM, layer.maxNativeZoom);
    const size = TILE_SIZE * 2 ** (MAP_ZOOM - tileZoom);
    const count = 2 ** tileZoom;
    const [x0, x1] = span(origin.x, MAP_MAX_WIDTH_PX, size);
    const [y0, y1] = span(origin.y, MAP_HEIGHT_PX, size);
    for (let y = y0; y <= y1; y++) {
      // Beyond the top or bottom of the world there is nothing to show (the box's background shows).
      if (y < 0 || y >= count) continue;
      for (let x = x0; x <= x1; x++) {
        // Across the antimeridian the world repeats: the tile east of the last column is column 0.
        const wrapped = ((x % count) + count) % count;
        const left = x * size - origin.x;
        tiles.push({
          url: tileUrl(layer, tileZoom, wrapped, y),
          left,
          top: y * size - origin.y,
          size,
          referrerPolicy: layer.referrerPolicy,
          reach: Math.max(left, -(left + size)),
          ...(layer.overlay ? { opacity: layer.overlay.opacity } : {}),
        });
      }
    }
  }
  return {
    zoom: MAP_ZOOM,
    tiles,
    cell: { left: css(nw.x - origin.x), top: css(nw.y - origin.y), width: css(se.x - nw.x), height: css(se.y - nw.y) },
  };
}

/** The first and last tile index a box of `length` pixels centred on `centre` touches. */
function span(centre: number, length: number, size: number): [number, number] {
  return [Math.floor((centre - length / 2) / size), Math.ceil((centre + length / 2) / size) - 1];
}

/**
 * A tile's URL from its layer's template, with Leaflet's placeholders so the share page asks for the
 * very tiles the embed's frame does: `{s}` chosen the way Leaflet chooses it, `{-y}` counted from the
 * bottom, and `{r}` empty — a static page cannot know the screen's density, and a plain tile is valid
 * on every screen.
 */
export function tileUrl(layer: TileLayerConfig, z: number, x: number, y: number): string {
  const subdomains = layer.subdomains ?? 'abc';
  const values: Record<string, string> = {
    z: String(z),
    x: String(x),
    y: String(y),
    '-y': String(2 ** z - 1 - y),
    s: subdomains[Math.abs(x + y) % subdomains.length],
    r: '',
  };
  return layer.url.replace(/\{ *([\w_-]+) *\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}
