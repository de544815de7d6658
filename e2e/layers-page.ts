/**
 * The browser suite's page with maps of its own: a Leaflet map and a MapLibre GL map on the service's
 * offline tiles, each with loc's grid from the built loc-js/leaflet and loc-js/maplibre, the grid from
 * loc-js/grid's loadGrid, and codes from the service through the page's own server (`/code`), as an
 * integrator that keeps its key on its server does — or, for the Leaflet map, the grid and codes from
 * loc-js/codec, offline once its table is loaded. layers.spec.ts bundles it with esbuild (MapLibre
 * left to the page's import map) and drives it through `window.layersPage`.
 */
import * as L from 'leaflet';
import { Map as MapLibreMap, type GeoJSONSource } from 'maplibre-gl';
import { loadCodec } from 'loc-js/codec';
import { loadGrid, type CellBounds } from 'loc-js/grid';
import { locGridLayer, type LocCellEvent, type LocGridLayer } from 'loc-js/leaflet';
import { addLocGrid, type LocGridHandle } from 'loc-js/maplibre';

export interface LatLng {
  lat: number;
  lng: number;
}

/** Where the lines drawn on the Leaflet grid's tiles are, in CSS pixels of the map's box. */
export interface DrawnLines {
  xs: number[];
  ys: number[];
}

export interface LayersPage {
  events: LocCellEvent[];
  /** Mounts the Leaflet map with the grid and codes from the service, or from loc-js/codec offline. */
  leaflet(service: string, center: LatLng, zoom: number, codes?: 'service' | 'codec'): Promise<void>;
  /** Moves the Leaflet map, and resolves once the grid's tiles of the new view are drawn. */
  leafletView(center: LatLng, zoom: number): Promise<void>;
  leafletLines(): DrawnLines;
  /** The bounds of the highlighted cell's rectangle on the Leaflet map; null when none is there. */
  leafletHighlight(): CellBounds | null;
  highlight(target: CellBounds | string | null): Promise<CellBounds | null>;
  /** Mounts the MapLibre map in a box of `size` (software WebGL's time grows with its pixels). */
  maplibre(service: string, center: LatLng, zoom: number, size: { width: number; height: number }): Promise<void>;
  maplibreView(center: LatLng, zoom: number): Promise<void>;
  maplibreData(): GeoJSON.FeatureCollection;
  /** How many of loc's lines the map has drawn where the view shows them. */
  maplibreRendered(): number;
  maplibreCell(): Promise<GeoJSON.GeoJSON>;
  /** Shows or hides loc's line layer, and resolves once the map has drawn the change. */
  maplibreLines(visible: boolean): Promise<void>;
}

declare global {
  interface Window {
    layersPage: LayersPage;
  }
}

const container = document.getElementById('map')!;
let map: L.Map | undefined;
let layer: LocGridLayer | undefined;
let gl: MapLibreMap | undefined;
let handle: LocGridHandle | undefined;

/** The code of a point, from the service, asked by the page's server. */
async function codeAt(lat: number, lng: number): Promise<string> {
  const response = await fetch(`/code?lat=${lat}&lng=${lng}`);
  const body = (await response.json()) as { loc_code?: string; code?: string; message?: string };
  if (!response.ok) throw Object.assign(new Error(body.message), { code: body.code });
  return body.loc_code!;
}

const tilesDrawn = () => new Promise<void>((done) => layer!.once('load', () => done()));
const idle = (target: MapLibreMap) => new Promise<void>((done) => target.once('idle', () => done()));

/** Columns (or rows) of a canvas that are painted over at least half its height (or width). */
function paintedLines(canvas: HTMLCanvasElement): { xs: number[]; ys: number[] } {
  const { width, height } = canvas;
  const data = canvas.getContext('2d')!.getImageData(0, 0, width, height).data;
  const alpha = (x: number, y: number) => data[(y * width + x) * 4 + 3] > 0;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let x = 0; x < width; x++) if (Array.from({ length: height }, (_, y) => alpha(x, y)).filter(Boolean).length > height / 2) xs.push(x);
  for (let y = 0; y < height; y++) if (Array.from({ length: width }, (_, x) => alpha(x, y)).filter(Boolean).length > width / 2) ys.push(y);
  return { xs, ys };
}

window.layersPage = {
  events: [],
  async leaflet(service, center, zoom, codes = 'service') {
    map = L.map(container, { center, zoom, zoomAnimation: false, fadeAnimation: false, maxZoom: 20 });
    L.tileLayer(`${service}/tiles/streets/{z}/{x}/{y}.png`, { maxZoom: 20 }).addTo(map);
    if (codes === 'codec') {
      const codec = await loadCodec({ baseUrl: service });
      layer = locGridLayer({ grid: codec.grid, codeAt: (lat, lng) => codec.encode(lat, lng).loc_code, cellOfCode: (code) => codec.decode(code).cell });
    } else {
      layer = locGridLayer({ grid: loadGrid({ baseUrl: service }), codeAt, cellOfCode: async (code) => (await (await fetch(`/cell?code=${code}`)).json()) as CellBounds });
    }
    layer.on('loc:cell', (event) => void window.layersPage.events.push(event as unknown as LocCellEvent));
    const drawn = tilesDrawn();
    layer.addTo(map);
    await drawn;
  },
  async leafletView(center, zoom) {
    const drawn = tilesDrawn();
    map!.setView(center, zoom, { animate: false });
    await drawn;
  },
  leafletLines() {
    const box = container.getBoundingClientRect();
    const xs = new Set<number>();
    const ys = new Set<number>();
    for (const canvas of container.querySelectorAll<HTMLCanvasElement>('.loc-grid canvas.leaflet-tile-loaded')) {
      const rect = canvas.getBoundingClientRect();
      const ratio = canvas.width / rect.width;
      const lines = paintedLines(canvas);
      for (const x of lines.xs) if (rect.left + x / ratio >= box.left && rect.left + x / ratio < box.right) xs.add(rect.left - box.left + x / ratio);
      for (const y of lines.ys) if (rect.top + y / ratio >= box.top && rect.top + y / ratio < box.bottom) ys.add(rect.top - box.top + y / ratio);
    }
    return { xs: [...xs].sort((a, b) => a - b), ys: [...ys].sort((a, b) => a - b) };
  },
  leafletHighlight() {
    let found: CellBounds | null = null;
    map!.eachLayer((shown) => {
      if (!(shown instanceof L.Rectangle)) return;
      const bounds = shown.getBounds();
      found = { north: bounds.getNorth(), south: bounds.getSouth(), east: bounds.getEast(), west: bounds.getWest() };
    });
    return found;
  },
  highlight: (target) => (layer ?? handle)!.highlight(target),
  async maplibre(service, center, zoom, size) {
    container.style.width = `${size.width}px`;
    container.style.height = `${size.height}px`;
    gl = new MapLibreMap({
      container,
      center: [center.lng, center.lat],
      zoom,
      fadeDuration: 0,
      attributionControl: false,
      style: {
        version: 8,
        sources: { base: { type: 'raster', tiles: [`${service}/tiles/streets/{z}/{x}/{y}.png`], tileSize: 256, maxzoom: 20 } },
        layers: [{ id: 'base', type: 'raster', source: 'base' }],
      },
    });
    handle = addLocGrid(gl, { grid: loadGrid({ baseUrl: service }), codeAt, onCell: (event) => void window.layersPage.events.push(event) });
    await idle(gl);
  },
  async maplibreView(center, zoom) {
    const done = idle(gl!);
    gl!.jumpTo({ center: [center.lng, center.lat], zoom });
    // The source's new lines are set at moveend, within jumpTo: the map is idle once they are drawn.
    await done;
  },
  maplibreData: () => handle!.data(),
  maplibreRendered: () => gl!.queryRenderedFeatures({ layers: [handle!.ids.lines] }).length,
  maplibreCell: () => gl!.getSource<GeoJSONSource>(handle!.ids.cell)!.getData(),
  async maplibreLines(visible) {
    const done = idle(gl!);
    gl!.setLayoutProperty(handle!.ids.lines, 'visibility', visible ? 'visible' : 'none');
    await done;
  },
};
