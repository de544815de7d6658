/**
 * Block raster: which blocks of the format-v1 grid a line or a polygon touches. Only the table
 * generator uses it. Every test is conservative by EPSILON degrees (≈ 1 cm), so a block that is
 * marked untouched by every edge really is wholly on one side of each of them.
 */
import { BANDS, BLOCK_SIZE, blocksInBand, colWest, rowSouth } from '../grid.ts';

/** Margin, in degrees, by which edge tests err towards "touched". */
export const EPSILON = 1e-7;

/** One set of blocks: a byte per block, band by band. */
export type BlockMask = Uint8Array[];

export class BlockGrid {
  readonly blocks: Uint32Array;

  constructor(readonly columns: Uint32Array) {
    this.blocks = columns.map(blocksInBand);
  }

  newMask(): BlockMask {
    return Array.from(this.blocks, (n) => new Uint8Array(n));
  }

  bandSouth(band: number): number {
    return rowSouth(band * BLOCK_SIZE);
  }

  bandNorth(band: number): number {
    return rowSouth((band + 1) * BLOCK_SIZE);
  }

  /** Latitude of the middle of a band: the centre latitude of each of its blocks. */
  bandMid(band: number): number {
    return rowSouth(band * BLOCK_SIZE + BLOCK_SIZE / 2);
  }

  /** The band holding `lat`, clamped to the grid. */
  bandOfLat(lat: number): number {
    return Math.min(BANDS - 1, Math.max(0, Math.floor(((lat + 90) * BANDS) / 180)));
  }

  /** Block of a longitude in [−180, 180], clamped (the caller widens ranges by EPSILON itself). */
  blockOfLng(band: number, lng: number): number {
    const n = this.columns[band];
    const col = Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) * n) / 360)));
    return Math.floor(col / BLOCK_SIZE);
  }

  /** Centre longitude of a block (the last block of a band may be narrower). */
  blockCentreLng(band: number, block: number): number {
    const n = this.columns[band];
    const west = colWest(block * BLOCK_SIZE, n);
    const east = colWest(Math.min(n, (block + 1) * BLOCK_SIZE), n);
    return (west + east) / 2;
  }

  /**
   * Calls `fn(first, last)` for the blocks of `band` between longitudes `lo` and `hi`, which may lie
   * outside [−180, 180] (an unwrapped ring) and are folded back across the antimeridian.
   */
  forEachLngRange(band: number, lo: number, hi: number, fn: (first: number, last: number) => void): void {
    const last = this.blocks[band] - 1;
    if (hi - lo >= 360) {
      fn(0, last);
      return;
    }
    const shift = 360 * Math.floor((lo + 180) / 360);
    const a = lo - shift;
    const b = hi - shift;
    if (b <= 180) {
      fn(this.blockOfLng(band, a), this.blockOfLng(band, b));
    } else {
      fn(this.blockOfLng(band, a), last);
      fn(0, this.blockOfLng(band, b - 360));
    }
  }

  /** Calls `fn(band, first, last)` for every run of blocks that the segment (x1,y1)–(x2,y2) touches. */
  forEachEdgeBlock(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    fn: (band: number, first: number, last: number) => void,
  ): void {
    const firstBand = this.bandOfLat(Math.min(y1, y2) - EPSILON);
    const lastBand = this.bandOfLat(Math.max(y1, y2) + EPSILON);
    for (let band = firstBand; band <= lastBand; band++) {
      const south = this.bandSouth(band) - EPSILON;
      const north = this.bandNorth(band) + EPSILON;
      let xa: number;
      let xb: number;
      if (y1 === y2) {
        xa = x1;
        xb = x2;
      } else {
        const ts = (south - y1) / (y2 - y1);
        const tn = (north - y1) / (y2 - y1);
        const t0 = Math.max(0, Math.min(ts, tn));
        const t1 = Math.min(1, Math.max(ts, tn));
        if (t0 > t1) continue;
        xa = x1 + t0 * (x2 - x1);
        xb = x1 + t1 * (x2 - x1);
      }
      this.forEachLngRange(band, Math.min(xa, xb) - EPSILON, Math.max(xa, xb) + EPSILON, (first, last) =>
        fn(band, first, last),
      );
    }
  }

  /**
   * Calls `fn(band, x)` for each band whose middle latitude the segment crosses, with the crossing
   * longitude. The half-open test (y1 > y) ≠ (y2 > y) is the even–odd rule that country-coder uses,
   * so pairing the sorted crossings of a polygon's rings gives the stretches inside it.
   */
  forEachMidCrossing(x1: number, y1: number, x2: number, y2: number, fn: (band: number, x: number) => void): void {
    if (y1 === y2) return;
    const lastBand = this.bandOfLat(Math.max(y1, y2));
    for (let band = this.bandOfLat(Math.min(y1, y2)); band <= lastBand; band++) {
      const y = this.bandMid(band);
      if (y1 > y !== y2 > y) fn(band, x1 + ((y - y1) * (x2 - x1)) / (y2 - y1));
    }
  }

  /** Calls `fn(band, block)` for every block whose centre longitude lies in [lo, hi] (folded). */
  forEachCentreIn(band: number, lo: number, hi: number, fn: (block: number) => void): void {
    this.forEachLngRange(band, lo, hi, (first, last) => {
      for (let j = first; j <= last; j++) {
        const c = this.blockCentreLng(band, j);
        if (inFolded(c, lo, hi)) fn(j);
      }
    });
  }
}

/** Whether longitude `x` in [−180, 180] lies in [lo, hi] taken modulo 360. */
function inFolded(x: number, lo: number, hi: number): boolean {
  if (hi - lo >= 360) return true;
  const shifted = x + 360 * Math.ceil((lo - x) / 360);
  return shifted >= lo && shifted <= hi;
}

/** A ring as a flat list of longitudes and latitudes (first point not repeated at the end). */
export interface Ring {
  xs: Float64Array;
  ys: Float64Array;
}

/** Makes a closed GeoJSON ring into a Ring, optionally unwrapping jumps of more than 180°. */
export function toRing(coords: number[][], unwrap: boolean): Ring {
  const count = coords.length > 1 && samePoint(coords[0], coords[coords.length - 1]) ? coords.length - 1 : coords.length;
  const xs = new Float64Array(count);
  const ys = new Float64Array(count);
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const [x, y] = coords[i];
    if (unwrap && i > 0) {
      const prev = coords[i - 1][0] + offset;
      while (x + offset - prev > 180) offset -= 360;
      while (x + offset - prev < -180) offset += 360;
    }
    xs[i] = x + offset;
    ys[i] = y;
  }
  if (unwrap && count > 1) {
    const closing = xs[0] - xs[count - 1];
    if (Math.abs(closing) > 180) throw new Error(`ring does not close after unwrapping (${closing}°)`);
  }
  return { xs, ys };
}

function samePoint(a: number[], b: number[]): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** Moves a ring by a multiple of 360° so that its first point is within 180° of `lng`. */
export function shiftRingNear(ring: Ring, lng: number): Ring {
  const k = Math.round((lng - ring.xs[0]) / 360);
  if (k === 0) return ring;
  return { xs: ring.xs.map((x) => x + 360 * k), ys: ring.ys };
}

/** Calls `fn` with every edge of a ring, the closing edge included. */
export function forEachEdge(ring: Ring, fn: (x1: number, y1: number, x2: number, y2: number) => void): void {
  const n = ring.xs.length;
  for (let i = 0, k = n - 1; i < n; k = i++) fn(ring.xs[k], ring.ys[k], ring.xs[i], ring.ys[i]);
}
