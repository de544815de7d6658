/**
 * The 3 m grid layer, drawn from zoom 18 up (below that the lines would merge into a grey wash):
 * canvas tiles with the lines of grid-lines.ts, drawn as loc-js/leaflet draws them
 * (src/embed/grid-tile.ts), from the frozen column counts the service publishes in `grid.json`.
 */
import * as L from 'leaflet';
import type { GridData } from '../src/embed/protocol.ts';
import { GRID_MIN_ZOOM, gridLines } from '../src/code/grid-lines.ts';
import { gridDataColumns } from '../src/embed/grid-data.ts';
import { drawGridTile, tileCanvas } from '../src/embed/grid-tile.ts';

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
        .then(gridDataColumns)
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
      const { canvas, size, ratio } = tileCanvas(this);
      columns
        .get()
        .then((counts) => {
          const map = (this as unknown as { _map: L.Map })._map;
          drawGridTile(canvas, map, coords, size, ratio, (bounds) => {
            const lines = gridLines(bounds, (band) => counts[band]);
            return lines && { lines, style: { stroke: STROKE[tone], width: 1 } };
          });
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

  // Above every tile layer, below the outline of the chosen cell (which sits in the overlay pane).
  return new Layer({ minZoom: GRID_MIN_ZOOM, zIndex: 10, className: 'loc-grid' });
}
