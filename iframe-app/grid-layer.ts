/**
 * The 3 m grid layer, drawn from zoom 18 up (below that the lines would merge into a grey wash):
 * canvas tiles with the lines of grid-lines.ts, from the frozen column counts the service publishes
 * in `grid.json`.
 */
import * as L from 'leaflet';
import { BANDS, BLOCK_SIZE } from '../src/code/grid.ts';
import type { GridData } from '../src/embed/protocol.ts';
import { GRID_MIN_ZOOM, gridLines } from '../src/code/grid-lines.ts';

/** Line colours that read on each kind of base map. */
export type GridTone = 'light' | 'dark';
const STROKE: Record<GridTone, string> = { light: 'rgba(60, 64, 67, 0.35)', dark: 'rgba(255, 255, 255, 0.45)' };

export interface GridLayer extends L.GridLayer {
  setTone(tone: GridTone): void;
}

/** The frozen column counts, fetched once when first needed (the grid or a keyboard cell step). */
export interface GridColumns {
  get(): Promise<number[]>;
}

export function gridColumns(load: () => Promise<GridData>): GridColumns {
  let pending: Promise<number[]> | undefined;
  return {
    // A failed fetch is forgotten, so the next tile asks again rather than hiding the grid for good.
    get: () =>
      (pending ??= load()
        .then((data) => {
          if (data.columns.length !== BANDS || data.rowsPerBand !== BLOCK_SIZE) throw new Error('grid.json does not match format v1.');
          return data.columns;
        })
        .catch((error: unknown) => {
          pending = undefined;
          throw error;
        })),
  };
}

/** The grid layer. */
export function createGridLayer(columns: GridColumns): GridLayer {
  let tone: GridTone = 'light';

  const Layer: new (options: L.GridLayerOptions) => GridLayer = L.GridLayer.extend({
    createTile(this: L.GridLayer, coords: L.Coords, done: L.DoneCallback): HTMLElement {
      const canvas = document.createElement('canvas');
      const size = this.getTileSize();
      const ratio = window.devicePixelRatio || 1;
      canvas.width = size.x * ratio;
      canvas.height = size.y * ratio;
      columns
        .get()
        .then((counts) => {
          draw(canvas, coords, size, ratio, counts, this);
          done(undefined, canvas);
        })
        .catch((error: Error) => done(error, canvas));
      return canvas;
    },
    setTone(this: L.GridLayer, next: GridTone) {
      tone = next;
      // Leaflet's redraw ignores minZoom: below it, it would make a screenful of empty tiles and fetch
      // grid.json for them at every start and style change. Tiles drawn later read the tone then.
      const map = (this as unknown as { _map?: L.Map })._map;
      if (map && map.getZoom() >= GRID_MIN_ZOOM) this.redraw();
    },
  });

  function draw(canvas: HTMLCanvasElement, coords: L.Coords, size: L.Point, ratio: number, counts: number[], layer: L.GridLayer) {
    const map = (layer as unknown as { _map: L.Map })._map;
    const origin = coords.scaleBy(size);
    const nw = map.unproject(origin, coords.z);
    const se = map.unproject(origin.add(size), coords.z);
    const lines = gridLines({ south: se.lat, north: nw.lat, west: nw.lng, east: se.lng }, (band) => counts[band]);
    const context = canvas.getContext('2d');
    if (!lines || !context) return;
    const x = (lng: number) => ((lng - nw.lng) / (se.lng - nw.lng)) * size.x;
    const y = (lat: number) => map.project([lat, nw.lng], coords.z).y - origin.y;
    context.scale(ratio, ratio);
    context.strokeStyle = STROKE[tone];
    context.lineWidth = 1 / ratio;
    context.beginPath();
    for (const lat of lines.rows) {
      const py = Math.round(y(lat) * ratio) / ratio;
      context.moveTo(0, py);
      context.lineTo(size.x, py);
    }
    for (const band of lines.bands) {
      const top = y(band.north);
      const bottom = y(band.south);
      for (const lng of band.lngs) {
        const px = Math.round(x(lng) * ratio) / ratio;
        context.moveTo(px, top);
        context.lineTo(px, bottom);
      }
    }
    context.stroke();
  }

  // Above every tile layer, below the outline of the chosen cell (which sits in the overlay pane).
  return new Layer({ minZoom: GRID_MIN_ZOOM, zIndex: 10, className: 'loc-grid' });
}
