/**
 * One canvas tile of grid lines on a Leaflet map — the 3 m grid (grid-lines.ts) or the block outlines
 * (block-lines.ts), which share a shape — drawn alike by the frame's grid layer and loc-js/leaflet's.
 * Leaflet reaches this module as types alone: the map passed in does the projecting.
 */
import type { Coords, GridLayer, Map as LeafletMap, Point } from 'leaflet';
import type { Bounds, GridLines } from '../code/grid-lines.ts';

export interface GridTileStyle {
  /** The canvas's stroke colour. */
  stroke: string;
  /** Line width in device pixels: 1 is the thinnest line the screen draws. */
  width: number;
}

/** Lines to draw, and how. */
export interface StyledLines {
  lines: GridLines;
  style: GridTileStyle;
}

/**
 * Draws on `canvas` (sized `size` × `ratio` device pixels) the lines `linesOf` gives for the tile at
 * `coords`; draws nothing when it gives none.
 */
export function drawGridTile(canvas: HTMLCanvasElement, map: LeafletMap, coords: Coords, size: Point, ratio: number, linesOf: (bounds: Bounds) => StyledLines | null): void {
  const origin = coords.scaleBy(size);
  const nw = map.unproject(origin, coords.z);
  const se = map.unproject(origin.add(size), coords.z);
  const drawn = linesOf({ south: se.lat, north: nw.lat, west: nw.lng, east: se.lng });
  const context = canvas.getContext('2d');
  if (!drawn || !context) return;
  const { lines, style } = drawn;
  const x = (lng: number) => ((lng - nw.lng) / (se.lng - nw.lng)) * size.x;
  const y = (lat: number) => map.project([lat, nw.lng], coords.z).y - origin.y;
  // Whole device pixels, so that a 1 px line stays one crisp pixel rather than two grey ones.
  const snap = (value: number) => Math.round(value * ratio) / ratio;
  context.scale(ratio, ratio);
  context.strokeStyle = style.stroke;
  context.lineWidth = style.width / ratio;
  context.beginPath();
  for (const lat of lines.rows) {
    const py = snap(y(lat));
    context.moveTo(0, py);
    context.lineTo(size.x, py);
  }
  for (const band of lines.bands) {
    const top = y(band.north);
    const bottom = y(band.south);
    for (const lng of band.lngs) {
      const px = snap(x(lng));
      context.moveTo(px, top);
      context.lineTo(px, bottom);
    }
  }
  context.stroke();
}

/** A tile's canvas for `layer`, sized for the screen's pixel ratio, with its size in CSS pixels and that ratio. */
export function tileCanvas(layer: GridLayer): { canvas: HTMLCanvasElement; size: Point; ratio: number } {
  const canvas = document.createElement('canvas');
  const size = layer.getTileSize();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = size.x * ratio;
  canvas.height = size.y * ratio;
  return { canvas, size, ratio };
}
