/**
 * Where a point is on the frame's map, computed the way Leaflet draws it (Web Mercator, EPSG:3857,
 * 256 px tiles): the test knows the map's centre, zoom and size, so it can click a chosen point and
 * know which point it clicked without reaching into the frame's Leaflet map (which the frame keeps
 * private). Leaflet rounds the map's pixel origin, so a click lands within half a pixel of the
 * computed point — about 0.1 m at zoom 19, far inside a 3 m cell when the target is a cell centre.
 */
import { encode, type LocatedCell } from '../src/code/index.ts';
import type { LatLng } from '../src/embed/protocol.ts';
import type { LocCell } from '../src/embed/public-types.ts';

const TILE_SIZE = 256;

interface Pixel {
  x: number;
  y: number;
}

/** World pixel coordinates of a point at a zoom. */
function project({ lat, lng }: LatLng, zoom: number): Pixel {
  const scale = TILE_SIZE * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return { x: (scale * (lng + 180)) / 360, y: scale * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) };
}

function unproject({ x, y }: Pixel, zoom: number): LatLng {
  const scale = TILE_SIZE * 2 ** zoom;
  const lng = (x / scale) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / scale))) * 180) / Math.PI;
  return { lat, lng };
}

/** The view of a map: its centre, zoom and size in CSS pixels. */
export interface View {
  center: LatLng;
  zoom: number;
  width: number;
  height: number;
}

/** Where `point` is inside the map element, in CSS pixels from its top-left corner. */
export function pixelOf(view: View, point: LatLng): Pixel {
  const centre = project(view.center, view.zoom);
  const target = project(point, view.zoom);
  return { x: view.width / 2 + target.x - centre.x, y: view.height / 2 + target.y - centre.y };
}

/** The point at a pixel of the map element. */
export function pointAt(view: View, pixel: Pixel): LatLng {
  const centre = project(view.center, view.zoom);
  return unproject({ x: centre.x + pixel.x - view.width / 2, y: centre.y + pixel.y - view.height / 2 }, view.zoom);
}

/** The cell `east` columns east and `north` rows north of `cell`, as the codec locates it. */
export function cellBeside(cell: LocatedCell, east: number, north: number): LocatedCell {
  const { north: n, south: s, east: e, west: w } = cell.cell;
  return encode(cell.latitude + north * (n - s), cell.longitude + east * (e - w));
}

/** Whether a point is in a cell (the south and west edges belong to it). */
export function contains(cell: LocCell, { lat, lng }: LatLng): boolean {
  return cell.south <= lat && lat < cell.north && cell.west <= lng && lng < cell.east;
}
