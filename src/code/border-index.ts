/**
 * Border index: the border test of docs/code-format.md §4 for a point of a mixed block, in a few edge
 * tests instead of a walk over whole polygons. mixed-blocks.ts keeps one record per block visited.
 *
 * The test is: the first polygon of the table's border section, in file order, whose box holds the
 * point and whose even–odd ray test says "inside", gives the point its code. A block's record keeps,
 * in that order, the polygons whose boxes reach the block and, of each, only the edges that can flip
 * the ray's parity for a point of the block: those that reach the block's latitudes and do not lie
 * wholly west of it. Every other edge fails the test's first comparison or its second for every point
 * of the block, so the answer is the full test's, bit for bit (a test checks it, and that it is
 * country-coder's, whose order and arithmetic the table's polygons keep).
 */
import type { BorderPolygons } from './border-polygons.ts';

/** Degrees by which an edge must lie west of a block before it is left out. */
const WEST_MARGIN = 1e-9;

/**
 * A block's record, as `record` writes it and `valueAt` reads it: the candidate count, then for each
 * polygon that may hold points of the block, in test order, its box (minX, minY, maxX, maxY), the
 * caller's value for it, its edge count, and those of its edges that reach the block as x1, y1, x2, y2
 * (p1 = ring[j], p2 = ring[j − 1], as the test takes them). One flat run of numbers, so a look-up reads
 * a few adjacent cache lines instead of chasing objects.
 */
const HEADER = 6;

export class BorderIndex {
  constructor(private readonly polygons: BorderPolygons) {}

  /** Polygons in test order. */
  get size(): number {
    return this.polygons.code.length;
  }

  /**
   * The record of the block bounded by `south`…`north` and `west`…`east`, appended to `out`, in which
   * polygon p carries `valueOf(p)`.
   */
  record(south: number, north: number, west: number, east: number, valueOf: (polygon: number) => number, out: number[]): void {
    const { boxes, polygonStart, ringStart, xs, ys } = this.polygons;
    const countAt = out.length;
    out.push(0);
    for (let p = 0; p < this.size; p++) {
      const minX = boxes[4 * p];
      const minY = boxes[4 * p + 1];
      const maxX = boxes[4 * p + 2];
      const maxY = boxes[4 * p + 3];
      if (minX > east || maxX < west || minY > north || maxY < south) continue;
      out[countAt]++;
      out.push(minX, minY, maxX, maxY, valueOf(p), 0);
      const edgeCountAt = out.length - 1;
      for (let r = polygonStart[p]; r < polygonStart[p + 1]; r++) {
        const start = ringStart[r];
        const end = ringStart[r + 1];
        for (let j = start, k = end - 1; j < end; k = j++) {
          const x1 = xs[j];
          const y1 = ys[j];
          const x2 = xs[k];
          const y2 = ys[k];
          // Only edges spanning some latitude of the block can straddle a point's latitude, and an
          // edge wholly west of the block crosses no eastward ray from it (with a margin, as the
          // interpolated crossing may land an ulp beyond the edge's end).
          if (Math.max(y1, y2) < south || Math.min(y1, y2) > north || Math.max(x1, x2) < west - WEST_MARGIN) continue;
          out.push(x1, y1, x2, y2);
          out[edgeCountAt]++;
        }
      }
    }
  }
}

/**
 * The value of the first polygon of the record at `offset` that holds (`lat`, `lng`), a point of its
 * block, or `outside` when none does: the box check and the even–odd ray test of §4, with its
 * arithmetic, over the record's edges.
 */
export function valueAt(records: Float64Array, offset: number, lat: number, lng: number, outside: number): number {
  let p = offset + 1;
  for (let c = records[offset]; c > 0; c--) {
    const end = p + HEADER + 4 * records[p + 5];
    if (!(records[p] > lng || records[p + 1] > lat || records[p + 2] < lng || records[p + 3] < lat)) {
      let inside = false;
      for (let i = p + HEADER; i < end; i += 4) {
        const x1 = records[i];
        const y1 = records[i + 1];
        const x2 = records[i + 2];
        const y2 = records[i + 3];
        if (y1 > lat !== y2 > lat && lng < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
      }
      if (inside) return records[p + 4];
    }
    p = end;
  }
  return outside;
}
