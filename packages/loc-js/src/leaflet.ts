/**
 * loc-js/leaflet — loc's grid on your own Leaflet map: the 3 m cells from zoom 18, the outlines of
 * their blocks from zoom 11, a highlighted cell, and the cell and code of a clicked point. Leaflet is
 * the page's (an optional peer of loc-js, imported, never bundled); the grid comes from loc-js/grid,
 * the codes from your `codeAt` — the offline codec, or the service.
 */
import * as L from 'leaflet';
import { drawGridTile, tileCanvas } from '../../../src/embed/grid-tile.ts';
import { cellFlow, type LocCellEvent, type LocCellOptions } from './cell-clicks.ts';
import { BLOCK_MIN_ZOOM, linesAt, type CellBounds, type LocGrid } from './grid.ts';

export type { LocCellEvent, LocCellOptions };

export interface LocGridLayerOptions extends LocCellOptions {
  /** Colour of the cell lines: a grey that reads on a light base map by default. */
  color?: string;
  /** Colour of the block outlines. */
  blockColor?: string;
  /** How the highlighted cell is drawn (an `L.Rectangle`'s path options). */
  highlightStyle?: L.PathOptions;
  /** The grid's z-index among the map's tile layers: above the base map by default. */
  zIndex?: number;
}

/** The layer: an `L.GridLayer` that also fires `loc:cell` (a `LocCellEvent`) on each click. */
export interface LocGridLayer extends L.GridLayer {
  /** Outlines a cell (its bounds, or a code through `cellOfCode`), or none; resolves with the cell shown. */
  highlight(target: CellBounds | string | null): Promise<CellBounds | null>;
}

const DEFAULTS = { color: 'rgba(60, 64, 67, 0.35)', blockColor: 'rgba(60, 64, 67, 0.6)', zIndex: 10 };
const HIGHLIGHT: L.PathOptions = { color: '#1a73e8', weight: 2, fillOpacity: 0.15 };

/** loc's grid as a Leaflet layer: `locGridLayer({ grid, codeAt }).addTo(map)`. */
export function locGridLayer(options: LocGridLayerOptions): LocGridLayer {
  const settings = { ...DEFAULTS, ...options };
  const cells = { stroke: settings.color, width: 1 };
  const blocks = { stroke: settings.blockColor, width: 1 };
  let map: L.Map | undefined;
  let outline: L.Rectangle | null = null;
  let layer: LocGridLayer;
  const show = (cell: CellBounds | null, offset: number) => {
    outline?.remove();
    outline = cell && L.rectangle([[cell.south, cell.west + offset], [cell.north, cell.east + offset]], { ...HIGHLIGHT, ...options.highlightStyle, interactive: false });
    if (map) outline?.addTo(map);
  };
  const flow = cellFlow(options, show, (event) => layer.fire('loc:cell', event));
  const onClick = (event: L.LeafletMouseEvent) => void flow.click(event.latlng.lat, event.latlng.lng);

  const Layer: new (options: L.GridLayerOptions) => LocGridLayer = L.GridLayer.extend({
    createTile(this: L.GridLayer, coords: L.Coords, done: L.DoneCallback): HTMLElement {
      const { canvas, size, ratio } = tileCanvas(this);
      Promise.resolve(options.grid).then(
        (grid: LocGrid) => {
          drawGridTile(canvas, map!, coords, size, ratio, (bounds) => {
            const view = linesAt(grid, bounds, coords.z);
            return view && { lines: view.lines, style: view.kind === 'cells' ? cells : blocks };
          });
          done(undefined, canvas);
        },
        (error: Error) => done(error, canvas),
      );
      return canvas;
    },
    onAdd(this: L.GridLayer, added: L.Map) {
      map = added;
      L.GridLayer.prototype.onAdd.call(this, added);
      added.on('click', onClick);
      outline?.addTo(added);
      return this;
    },
    onRemove(this: L.GridLayer, removed: L.Map) {
      removed.off('click', onClick);
      outline?.remove();
      map = undefined;
      L.GridLayer.prototype.onRemove.call(this, removed);
      return this;
    },
    highlight: (target: CellBounds | string | null) => flow.highlight(target),
  });
  layer = new Layer({ minZoom: BLOCK_MIN_ZOOM, zIndex: settings.zIndex, className: 'loc-grid' });
  return layer;
}
