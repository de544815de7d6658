/**
 * Distances from a point to country-coder's features, for the gap scan (scan-gaps.ts): how far a point
 * that no feature holds lies from the nearest feature that has a territory code, and which code that is.
 *
 * Distances are measured in a local equirectangular projection centred on the point: a degree of
 * latitude is R·π/180 metres, a degree of longitude that times cos(latitude of the point), with R the
 * format's sphere radius. Feature edges are straight lines in longitude and latitude, as country-coder's
 * point-in-polygon test treats them, so the projection keeps them straight. Within 10 km of the point
 * the error against the great-circle distance stays under 1 % below 75° of latitude.
 */
import * as countryCoder from '@rapideditor/country-coder';
import { EARTH_RADIUS_M } from '../grid.ts';
import { territoryOfFeature } from '../country.ts';

/** Metres per degree of latitude on the format's sphere. */
export const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;

/** The longitude `x` moved by a multiple of 360° into [−180, 180). */
export function wrapLng(x: number): number {
  return x - 360 * Math.floor((x + 180) / 360);
}

/**
 * Distance in metres from (`lat`, `lng`) to the segment (x1, y1)–(x2, y2), both ends moved by the same
 * multiple of 360° so that the first lies within 180° of the point (the segment itself is not bent).
 */
export function segmentDistanceM(lat: number, lng: number, x1: number, y1: number, x2: number, y2: number): number {
  const shift = 360 * Math.round((lng - x1) / 360);
  const k = Math.cos((lat * Math.PI) / 180);
  const ax = (x1 + shift - lng) * k;
  const ay = y1 - lat;
  const bx = (x2 + shift - lng) * k;
  const by = y2 - lat;
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
  return Math.hypot(ax + t * dx, ay + t * dy) * METRES_PER_DEGREE;
}

/** The nearest coded feature of a point: its territory code and the distance to its outline. */
export interface Nearest {
  code: string;
  distanceM: number;
}

/** Size, in degrees, of the buckets edges are filed in. */
const BUCKET = 0.5;
const LNG_BUCKETS = 360 / BUCKET;
const LAT_BUCKETS = 180 / BUCKET;
/** The first search radius; it doubles until a feature is found or `maxM` is passed. */
const FIRST_RADIUS_M = 2_000;

/**
 * The edges of every country-coder feature that has a territory code (Bir Tawil's, the one without,
 * is left out), filed by 0.5° buckets of longitude and latitude, each edge in every bucket its
 * bounding box meets. Antarctica's edges are in: a point nearest to it takes no code.
 */
export class FeatureEdges {
  readonly codes: string[] = [];
  /** x1, y1, x2, y2, code index per edge. */
  private readonly edges: number[] = [];
  private readonly buckets = new Map<number, number[]>();

  constructor() {
    const codeIndex = new Map<string, number>();
    for (const feature of countryCoder.borders.features) {
      const geometry = feature.geometry;
      if (!geometry) continue;
      const code = territoryOfFeature(feature.properties.id);
      if (code === null) continue;
      let index = codeIndex.get(code);
      if (index === undefined) codeIndex.set(code, (index = this.codes.push(code) - 1));
      const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
      for (const ring of polygons.flat()) {
        for (let i = 1; i < ring.length; i++) this.add(ring[i - 1][0], ring[i - 1][1], ring[i][0], ring[i][1], index);
      }
    }
  }

  private add(x1: number, y1: number, x2: number, y2: number, code: number): void {
    const edge = this.edges.push(x1, y1, x2, y2, code) / 5 - 1;
    for (let by = latBucket(Math.min(y1, y2)); by <= latBucket(Math.max(y1, y2)); by++) {
      for (let bx = Math.floor((Math.min(x1, x2) + 180) / BUCKET); bx <= Math.floor((Math.max(x1, x2) + 180) / BUCKET); bx++) {
        const key = by * LNG_BUCKETS + ((bx % LNG_BUCKETS) + LNG_BUCKETS) % LNG_BUCKETS;
        (this.buckets.get(key) ?? this.buckets.set(key, []).get(key)!).push(edge);
      }
    }
  }

  /** The nearest coded feature's outline within `maxM` metres of (`lat`, `lng`), or null. */
  nearest(lat: number, lng: number, maxM: number): Nearest | null {
    for (let radius = Math.min(FIRST_RADIUS_M, maxM); ; radius = Math.min(2 * radius, maxM)) {
      const found = this.nearestWithin(lat, lng, radius);
      if (found) return found;
      if (radius >= maxM) return null;
    }
  }

  /** The edges of the buckets within `radius` metres of the point, as indexes (with repeats). */
  private candidates(lat: number, lng: number, radius: number): number[] {
    const dLat = radius / METRES_PER_DEGREE;
    const south = Math.max(-90, lat - dLat);
    const north = Math.min(90, lat + dLat);
    const cos = Math.min(Math.cos((south * Math.PI) / 180), Math.cos((north * Math.PI) / 180));
    const dLng = cos <= dLat / 180 ? 180 : Math.min(180, dLat / cos);
    const first = Math.floor((lng - dLng + 180) / BUCKET);
    const last = Math.min(first + LNG_BUCKETS - 1, Math.floor((lng + dLng + 180) / BUCKET));
    const out: number[] = [];
    for (let by = latBucket(south); by <= latBucket(north); by++) {
      for (let bx = first; bx <= last; bx++) {
        const list = this.buckets.get(by * LNG_BUCKETS + ((bx % LNG_BUCKETS) + LNG_BUCKETS) % LNG_BUCKETS);
        if (list) for (const edge of list) out.push(edge);
      }
    }
    return out;
  }

  /**
   * The nearest outline among those within `radius`; ties go to the code first in the data. A hit is
   * only trusted within `radius`, as edges further out may sit in buckets that were not searched.
   */
  private nearestWithin(lat: number, lng: number, radius: number): Nearest | null {
    let best = Infinity;
    let code = -1;
    const e = this.edges;
    for (const edge of this.candidates(lat, lng, radius)) {
      const i = edge * 5;
      const d = segmentDistanceM(lat, lng, e[i], e[i + 1], e[i + 2], e[i + 3]);
      if (d < best || (d === best && e[i + 4] < code)) {
        best = d;
        code = e[i + 4];
      }
    }
    return best <= radius ? { code: this.codes[code], distanceM: best } : null;
  }
}

function latBucket(lat: number): number {
  return Math.min(LAT_BUCKETS - 1, Math.max(0, Math.floor((lat + 90) / BUCKET)));
}
