/**
 * A tile's address — style, zoom, column, row — and its check. Apart from the drawing (draw.ts), which
 * only the tile worker loads: the service checks an address before it spends anything on the tile.
 */
import { STYLE_NAMES, type StyleName } from '../embed/style-names.ts';

/** Highest zoom served, the map's own highest. */
export const MAX_TILE_ZOOM = 20;

/** Checks a tile address; throws a RangeError that shows what was expected and received. */
export function checkTile(style: string, z: number, x: number, y: number): asserts style is StyleName {
  if (!STYLE_NAMES.includes(style as StyleName)) {
    throw new RangeError(`The style must be one of ${STYLE_NAMES.join(', ')}; received ${JSON.stringify(style)}.`);
  }
  if (!Number.isInteger(z) || z < 0 || z > MAX_TILE_ZOOM) {
    throw new RangeError(`z must be an integer from 0 to ${MAX_TILE_ZOOM}; received ${z}.`);
  }
  const n = 2 ** z;
  if (!Number.isInteger(x) || x < 0 || x >= n || !Number.isInteger(y) || y < 0 || y >= n) {
    throw new RangeError(`x and y must be integers from 0 to ${n - 1} at zoom ${z}; received ${x}, ${y}.`);
  }
}
