/**
 * Drawing offline tiles: 256 px PNG map tiles from bundled Natural Earth land (world-atlas), so that
 * the embed works with no tile server at all — in tests, in CI and in air-gapped demos. Land and sea
 * are plain to see at every zoom; each style has its own palette and pattern, so a glance tells which
 * style a map shows.
 *
 * Land is filled by an even-odd scanline over the polygons projected to Web Mercator once, at load; a
 * tile costs 5–15 ms. The service never draws in the thread that answers the API: only the tile worker
 * (tile-worker.ts) loads this module, and offline.ts hands it the tiles to draw.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { feature } from 'topojson-client';
import type { MultiPolygon } from 'geojson';
import type { Topology } from 'topojson-specification';
import type { StyleName } from '../embed/style-names.ts';
import { checkTile } from './tile-address.ts';

export const TILE_SIZE = 256;

/** Below this zoom the 1:50 m outline is detailed enough; from it on, the 1:10 m one is worth its load time. */
const DETAILED_FROM_ZOOM = 6;

/** Web Mercator stops here; the poles are off the map. */
const MAX_LATITUDE = 85.0511287798066;

/** One polygon ring in world units: x and y from 0 to 1 across the Mercator square (x unwrapped, may leave it). */
interface Ring {
  xs: Float64Array;
  ys: Float64Array;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

type Rgb = readonly [number, number, number];

/** How one style paints. */
interface Palette {
  sea: Rgb;
  land: Rgb;
  coast: Rgb;
  /** Lines along the graticule, on land and at sea. */
  line: { land: Rgb; sea: Rgb; width: number; dash?: number };
  /** Strength of a blotchy texture, 0 for flat colours. */
  texture: number;
  /** Traffic style: graticule lines on land take the colours of a traffic map, by segment. */
  traffic?: readonly Rgb[];
}

const PALETTES: Record<StyleName, Palette> = {
  streets: {
    sea: [170, 211, 223],
    land: [242, 239, 233],
    coast: [120, 160, 180],
    line: { land: [222, 214, 204], sea: [150, 195, 210], width: 1 },
    texture: 0,
  },
  satellite: {
    sea: [14, 43, 69],
    land: [70, 94, 48],
    coast: [196, 180, 128],
    line: { land: [70, 94, 48], sea: [14, 43, 69], width: 0 },
    texture: 26,
  },
  traffic: {
    sea: [212, 221, 230],
    land: [246, 246, 244],
    coast: [150, 165, 180],
    line: { land: [255, 255, 255], sea: [196, 208, 220], width: 2 },
    texture: 0,
    traffic: [
      [76, 175, 80],
      [255, 152, 0],
      [229, 57, 53],
    ],
  },
  biking: {
    sea: [179, 212, 234],
    land: [232, 241, 218],
    coast: [90, 140, 190],
    line: { land: [130, 60, 160], sea: [150, 190, 220], width: 2, dash: 6 },
    texture: 0,
  },
};

const require = createRequire(import.meta.url);
const landCache = new Map<string, Ring[]>();

/** The land rings of a world-atlas file, projected and unwrapped; read once per file. */
function land(file: 'land-50m.json' | 'land-10m.json'): Ring[] {
  let rings = landCache.get(file);
  if (!rings) {
    const topology = JSON.parse(readFileSync(require.resolve(`world-atlas/${file}`), 'utf8')) as Topology;
    const geometry = feature(topology, topology.objects.land) as unknown as { features: { geometry: MultiPolygon }[] };
    rings = geometry.features.flatMap((f) => f.geometry.coordinates.flat().map(projectRing));
    landCache.set(file, rings);
  }
  return rings;
}

const mercatorX = (lng: number) => (lng + 180) / 360;
function mercatorY(lat: number): number {
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2;
}

/**
 * Natural Earth rings cross the antimeridian by jumping from 180 to −180. Unwrapping the longitudes
 * makes each ring continuous (it may then reach past ±180, and the tile draws it shifted by a world
 * too); a ring that circles a pole (Antarctica) is closed along that pole.
 */
function projectRing(points: number[][]): Ring {
  const lngs = [points[0][0]];
  const lats = [points[0][1]];
  for (let i = 1; i < points.length; i++) {
    const step = points[i][0] - points[i - 1][0];
    lngs.push(lngs[i - 1] + step - 360 * Math.round(step / 360));
    lats.push(points[i][1]);
  }
  const turn = lngs[lngs.length - 1] - lngs[0];
  if (Math.abs(turn) > 180) {
    const pole = lats.reduce((a, b) => a + b, 0) < 0 ? -90 : 90;
    lngs.push(lngs[lngs.length - 1], lngs[0]);
    lats.push(pole, pole);
  }
  const xs = Float64Array.from(lngs, mercatorX);
  const ys = Float64Array.from(lats, mercatorY);
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    minX = Math.min(minX, xs[i]);
    maxX = Math.max(maxX, xs[i]);
    minY = Math.min(minY, ys[i]);
    maxY = Math.max(maxY, ys[i]);
  }
  return { xs, ys, minX, maxX, minY, maxY };
}

/** Which pixels of tile (z, x, y) are land: 1 for land, row by row. */
export function landMask(z: number, x: number, y: number): Uint8Array {
  const mask = new Uint8Array(TILE_SIZE * TILE_SIZE);
  const scale = 2 ** z;
  const x0 = x / scale;
  const x1 = (x + 1) / scale;
  const y0 = y / scale;
  const y1 = (y + 1) / scale;
  const px = TILE_SIZE * scale;
  const crossings: number[][] = Array.from({ length: TILE_SIZE }, () => []);

  for (const ring of land(z < DETAILED_FROM_ZOOM ? 'land-50m.json' : 'land-10m.json')) {
    if (ring.maxY < y0 || ring.minY > y1) continue;
    for (const shift of [-1, 0, 1]) {
      if (ring.maxX + shift < x0 || ring.minX + shift > x1) continue;
      const { xs, ys } = ring;
      for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) {
        const ya = (ys[j] - y0) * px;
        const yb = (ys[i] - y0) * px;
        if (ya === yb) continue;
        // Rows whose pixel centre (r + 0.5) lies in [min, max) of the edge.
        const first = Math.max(0, Math.ceil(Math.min(ya, yb) - 0.5));
        const last = Math.min(TILE_SIZE - 1, Math.ceil(Math.max(ya, yb) - 0.5) - 1);
        if (first > last) continue;
        const xa = (xs[j] + shift - x0) * px;
        const slope = ((xs[i] + shift - x0) * px - xa) / (yb - ya);
        for (let r = first; r <= last; r++) crossings[r].push(xa + (r + 0.5 - ya) * slope);
      }
    }
  }

  for (let r = 0; r < TILE_SIZE; r++) {
    const row = crossings[r].sort((a, b) => a - b);
    for (let k = 0; k + 1 < row.length; k += 2) {
      const from = Math.max(0, Math.ceil(row[k] - 0.5));
      const to = Math.min(TILE_SIZE, Math.ceil(row[k + 1] - 0.5));
      if (from < to) mask.fill(1, r * TILE_SIZE + from, r * TILE_SIZE + to);
    }
  }
  return mask;
}

/** A graticule step in degrees from 1-2-5 steps, about two lines per tile. */
function graticuleStep(z: number): number {
  const target = 360 / 2 ** z / 2;
  const power = 10 ** Math.floor(Math.log10(target));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= target) ?? 10 * power;
}

/** A repeatable value in [0, 1) for a world position, for the satellite texture. */
function noise(a: number, b: number): number {
  let h = Math.imul(a, 374761393) ^ Math.imul(b, 668265263);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Draws tile (z, x, y) of `style` and encodes it as PNG. */
export function renderTile(style: string, z: number, x: number, y: number): Buffer {
  checkTile(style, z, x, y);
  const palette = PALETTES[style];
  const mask = landMask(z, x, y);
  const size = TILE_SIZE;
  const worldPx = size * 2 ** z;

  // Graticule lines: where a pixel column's longitude (a row's latitude) enters the next step.
  const step = graticuleStep(z);
  const lngAt = (c: number) => ((x * size + c) / worldPx) * 360 - 180;
  const latAt = (r: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y * size + r)) / worldPx))) * 180) / Math.PI;
  const onLine = (value: (i: number) => number, i: number, width: number) => {
    for (let k = 0; k < width; k++) if (Math.floor(value(i - k) / step) !== Math.floor(value(i - k + 1) / step)) return true;
    return false;
  };
  const columnLine = Array.from({ length: size }, (_, c) => palette.line.width > 0 && onLine(lngAt, c, palette.line.width));
  const rowLine = Array.from({ length: size }, (_, r) => palette.line.width > 0 && onLine(latAt, r, palette.line.width));

  const png = new PNG({ width: size, height: size });
  const data = png.data;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const i = r * size + c;
      const isLand = mask[i] === 1;
      let colour: Rgb = isLand ? palette.land : palette.sea;
      const coast =
        (c > 0 && mask[i - 1] !== mask[i]) || (r > 0 && mask[i - size] !== mask[i]);
      const gx = x * size + c;
      const gy = y * size + r;
      if (coast) colour = palette.coast;
      else if (columnLine[c] || rowLine[r]) {
        const dashed = palette.line.dash && Math.floor((columnLine[c] ? gy : gx) / palette.line.dash) % 2 === 1;
        if (!dashed) {
          colour = isLand ? palette.line.land : palette.line.sea;
          if (isLand && palette.traffic) {
            const segment = Math.floor((columnLine[c] ? gy : gx) / 48);
            colour = palette.traffic[Math.floor(noise(segment, columnLine[c] ? gx : gy) * palette.traffic.length)];
          }
        }
      }
      let shade = 0;
      if (palette.texture) shade = (noise(gx >> 2, gy >> 2) - 0.5) * palette.texture + (noise(gx >> 4, gy >> 4) - 0.5) * palette.texture;
      const o = i * 4;
      data[o] = clamp(colour[0] + shade);
      data[o + 1] = clamp(colour[1] + shade);
      data[o + 2] = clamp(colour[2] + shade * 0.6);
      data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png, { colorType: 2 });
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
