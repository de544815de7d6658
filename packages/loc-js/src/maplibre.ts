/**
 * loc-js/maplibre — loc's grid on your own MapLibre GL map: a GeoJSON source of the lines in view
 * (the 3 m cells from zoom 17, the block outlines from zoom 10: MapLibre's zoom is one less than
 * Leaflet's for the same scale), refreshed when the map stops moving; a fill and line layer for a
 * highlighted cell; and the cell and code of a clicked point. MapLibre is the page's: this module
 * reads its types alone and calls the map it is given.
 */
import type { GeoJSONSource, Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import { cellFlow, wrapLng, type LocCellEvent, type LocCellOptions } from './cell-clicks.ts';
import { linesAt, type Bounds, type CellBounds, type LocGrid, type ViewLines } from './grid.ts';

export type { LocCellEvent, LocCellOptions };

export interface LocGridOptions extends LocCellOptions {
  /** Prefix of the sources' and layers' ids: `loc-grid` by default. */
  id?: string;
  /** Colour of the cell lines. */
  color?: string;
  /** Colour of the block outlines. */
  blockColor?: string;
  /** Colour of the highlighted cell's outline and fill. */
  highlightColor?: string;
  /** The layers go below this layer of your style; on top by default. */
  beforeId?: string;
}

export interface LocGridHandle {
  /** The sources' and layers' ids: `${id}-lines`, `${id}-cell`, `${id}-cell-fill`, `${id}-cell-line`. */
  ids: { lines: string; cell: string; cellFill: string; cellLine: string };
  /** Outlines a cell (its bounds, or a code through `cellOfCode`), or none; resolves with the cell shown. */
  highlight(target: CellBounds | string | null): Promise<CellBounds | null>;
  /** The lines shown now (after the last move), as the source holds them. */
  data(): GeoJSON.FeatureCollection;
  /** Takes the sources, layers and listeners off the map. */
  remove(): void;
}

type Line = [number, number][];
const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };
/** Web Mercator's edge: a view's bounds may reach past it. */
const MERCATOR_LAT = 85.0511287798;

/** The view's lines as GeoJSON, one MultiLineString per kind, shifted `offset` degrees to a world copy. */
function toFeatures(view: ViewLines, bounds: Bounds, offset: number): GeoJSON.Feature {
  const lines: Line[] = view.lines.rows.map((lat) => [[bounds.west + offset, lat], [bounds.east + offset, lat]]);
  for (const band of view.lines.bands) for (const lng of band.lngs) lines.push([[lng + offset, band.south], [lng + offset, band.north]]);
  return { type: 'Feature', properties: { kind: view.kind }, geometry: { type: 'MultiLineString', coordinates: lines } };
}

/** The lines in the map's view: each world copy it shows cut at the antimeridian. */
export function viewFeatures(grid: LocGrid, map: Pick<MapLibreMap, 'getBounds' | 'getZoom'>): GeoJSON.FeatureCollection {
  const view = map.getBounds();
  const south = Math.max(view.getSouth(), -MERCATOR_LAT);
  const north = Math.min(view.getNorth(), MERCATOR_LAT);
  const { lng: west, offset } = wrapLng(view.getWest());
  const east = view.getEast() - offset;
  // Leaflet-style zoom: MapLibre's tiles are 512 px.
  const zoom = map.getZoom() + 1;
  const pieces: [Bounds, number][] = [[{ south, north, west, east: Math.min(east, 180) }, offset]];
  if (east > 180) pieces.push([{ south, north, west: -180, east: Math.min(east - 360, 180) }, offset + 360]);
  const features: GeoJSON.Feature[] = [];
  for (const [bounds, shift] of pieces) {
    const lines = linesAt(grid, bounds, zoom);
    // A view wider than the lines were meant for shows none at all, not half of them.
    if (!lines) return EMPTY;
    features.push(toFeatures(lines, bounds, shift));
  }
  return { type: 'FeatureCollection', features };
}

function cellFeature(cell: CellBounds | null, offset: number): GeoJSON.FeatureCollection {
  if (!cell) return EMPTY;
  const [w, e] = [cell.west + offset, cell.east + offset];
  const ring = [[w, cell.south], [e, cell.south], [e, cell.north], [w, cell.north], [w, cell.south]];
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }] };
}

/** Adds loc's grid to `map` (now, or once its style has loaded): `addLocGrid(map, { grid, codeAt })`. */
export function addLocGrid(map: MapLibreMap, options: LocGridOptions): LocGridHandle {
  const id = options.id ?? 'loc-grid';
  const ids = { lines: `${id}-lines`, cell: `${id}-cell`, cellFill: `${id}-cell-fill`, cellLine: `${id}-cell-line` };
  const highlightColor = options.highlightColor ?? '#1a73e8';
  let grid: LocGrid | undefined;
  let shown = EMPTY;
  let lines = EMPTY;
  let added = false;
  let removed = false;
  const source = (name: string) => map.getSource<GeoJSONSource>(name);

  const update = () => {
    if (!grid || !added) return;
    lines = viewFeatures(grid, map);
    void source(ids.lines)?.setData(lines);
  };
  const flow = cellFlow(options, (cell, offset) => {
    shown = cellFeature(cell, offset);
    if (added) void source(ids.cell)?.setData(shown);
  }, () => {});
  const onClick = (event: MapMouseEvent) => void flow.click(event.lngLat.lat, event.lngLat.lng);

  const setup = () => {
    if (removed) return;
    map.addSource(ids.lines, { type: 'geojson', data: EMPTY });
    map.addSource(ids.cell, { type: 'geojson', data: shown });
    const kindColor = ['match', ['get', 'kind'], 'blocks', options.blockColor ?? 'rgba(60, 64, 67, 0.6)', options.color ?? 'rgba(60, 64, 67, 0.35)'];
    map.addLayer({ id: ids.lines, type: 'line', source: ids.lines, paint: { 'line-color': kindColor as never, 'line-width': 1 } }, options.beforeId);
    map.addLayer({ id: ids.cellFill, type: 'fill', source: ids.cell, paint: { 'fill-color': highlightColor, 'fill-opacity': 0.15 } }, options.beforeId);
    map.addLayer({ id: ids.cellLine, type: 'line', source: ids.cell, paint: { 'line-color': highlightColor, 'line-width': 2 } }, options.beforeId);
    added = true;
    map.on('moveend', update);
    map.on('click', onClick);
    update();
  };
  // A grid that failed to load is the map's error, as a tile's is (MapLibre logs it when nobody listens).
  Promise.resolve(options.grid).then(
    (loaded) => {
      grid = loaded;
      update();
    },
    (error: unknown) => void map.fire('error', { error }),
  );
  if (map.isStyleLoaded()) setup();
  else map.once('load', setup);

  return {
    ids,
    highlight: (target) => flow.highlight(target),
    data: () => lines,
    remove() {
      removed = true;
      map.off('load', setup);
      if (!added) return;
      added = false;
      map.off('moveend', update);
      map.off('click', onClick);
      for (const layer of [ids.cellLine, ids.cellFill, ids.lines]) if (map.getLayer(layer)) map.removeLayer(layer);
      for (const name of [ids.cell, ids.lines]) if (map.getSource(name)) map.removeSource(name);
    },
  };
}
