/**
 * Border index: country-coder's answer for a point of a mixed block, in a few edge tests instead of
 * a walk over whole country outlines. mixed-blocks.ts keeps one record per block visited.
 *
 * country-coder asks which-polygon, which searches an R-tree of polygon bounding boxes and returns the
 * first polygon, in the tree's traversal order, whose even–odd ray test says "inside". This module
 * builds the same tree from the same features, so it has the same order, and runs the same ray test
 * with the same arithmetic — but only on the edges that reach the point's band, because an edge that
 * does not straddle the point's latitude can never flip the ray's parity. The answer is therefore
 * identical to country-coder's, bit for bit, which a test checks on random and border points.
 */
import * as countryCoder from '@rapideditor/country-coder';
import whichPolygon from 'which-polygon';
import { territoryOfFeature } from './country.ts';

/** Degrees by which an edge must lie west of a block before it is left out. */
const WEST_MARGIN = 1e-9;

/** An R-tree item as which-polygon builds it: the outer ring's bounding box and the polygon. */
interface TreeItem {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  coords: number[][][];
  props: { id: string };
}

/**
 * A block's record, as `record` writes it and `valueAt` reads it: the candidate count, then for each
 * polygon that may hold points of the block, in tree order, its box (minX, minY, maxX, maxY), the
 * caller's value for its code, its edge count, and those of its edges that reach the block's band as
 * x1, y1, x2, y2 in which-polygon's argument order (p1 = ring[j], p2 = ring[j − 1]). One flat run of
 * numbers, so a look-up reads a few adjacent cache lines instead of chasing objects.
 */
const HEADER = 6;

export class BorderIndex {
  private readonly items: TreeItem[];
  private readonly codes: (string | null)[];

  constructor() {
    const features = countryCoder.borders.features.filter((f) => f.geometry);
    const query = whichPolygon({ type: 'FeatureCollection', features } as Parameters<typeof whichPolygon>[0]);
    // rbush's search visits nodes in the same order as all(), so an item's place in all() is its rank.
    this.items = (query.tree as unknown as { all(): TreeItem[] }).all();
    const byId = new Map<string, string | null>();
    this.codes = this.items.map((item) => {
      const id = item.props.id;
      if (!byId.has(id)) byId.set(id, territoryOfFeature(id));
      return byId.get(id)!;
    });
  }

  /**
   * The record of the block bounded by `south`…`north` and `west`…`east`, appended to `out`, in which
   * each polygon carries `valueOf` its territory code (null for a feature without one).
   */
  record(south: number, north: number, west: number, east: number, valueOf: (code: string | null) => number, out: number[]): void {
    const countAt = out.length;
    out.push(0);
    this.items.forEach((item, rank) => {
      if (item.minX > east || item.maxX < west || item.minY > north || item.maxY < south) return;
      out[countAt]++;
      out.push(item.minX, item.minY, item.maxX, item.maxY, valueOf(this.codes[rank]), 0);
      const edgeCountAt = out.length - 1;
      for (const ring of item.coords) {
        for (let j = 0, k = ring.length - 1; j < ring.length; k = j++) {
          const [x1, y1] = ring[j];
          const [x2, y2] = ring[k];
          // Only edges spanning some latitude of the block can straddle a point's latitude, and an
          // edge wholly west of the block crosses no eastward ray from it (with a margin, as the
          // interpolated crossing may land an ulp beyond the edge's end).
          if (Math.max(y1, y2) < south || Math.min(y1, y2) > north || Math.max(x1, x2) < west - WEST_MARGIN) continue;
          out.push(x1, y1, x2, y2);
          out[edgeCountAt]++;
        }
      }
    });
  }
}

/**
 * The value of the first polygon of the record at `offset` that holds (`lat`, `lng`), a point of its
 * block, or `outside` when none does: which-polygon's bounding-box check and even–odd ray test, with
 * its arithmetic, over the record's edges.
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
