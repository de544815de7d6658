/**
 * Border index: country-coder's answer for a point of a mixed block, in a few edge tests instead of
 * a walk over whole country outlines.
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

/** A polygon that may hold points of one block: its box, its code, and its edges near the block. */
interface Candidate {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  code: string | null;
  /** Edges as x1, y1, x2, y2 in which-polygon's argument order (p1 = ring[j], p2 = ring[j − 1]). */
  edges: Float64Array;
}

export class BorderIndex {
  private readonly items: TreeItem[];
  private readonly codes: (string | null)[];
  private readonly blocks = new Map<number, Candidate[]>();

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
   * The territory code at (`lat`, `lng`), a point of the block bounded by `south`…`north` and
   * `west`…`east`; `key` names the block for the cache.
   */
  territoryAt(lat: number, lng: number, key: number, south: number, north: number, west: number, east: number): string | null {
    let candidates = this.blocks.get(key);
    if (candidates === undefined) {
      candidates = this.candidates(south, north, west, east);
      this.blocks.set(key, candidates);
    }
    for (let c = 0; c < candidates.length; c++) {
      const cand = candidates[c];
      if (cand.minX > lng || cand.minY > lat || cand.maxX < lng || cand.maxY < lat) continue;
      const e = cand.edges;
      let inside = false;
      for (let i = 0; i < e.length; i += 4) {
        const x1 = e[i];
        const y1 = e[i + 1];
        const x2 = e[i + 2];
        const y2 = e[i + 3];
        if (y1 > lat !== y2 > lat && lng < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
      }
      if (inside) return cand.code;
    }
    return null;
  }

  private candidates(south: number, north: number, west: number, east: number): Candidate[] {
    const out: Candidate[] = [];
    this.items.forEach((item, rank) => {
      if (item.minX > east || item.maxX < west || item.minY > north || item.maxY < south) return;
      const edges: number[] = [];
      for (const ring of item.coords) {
        for (let j = 0, k = ring.length - 1; j < ring.length; k = j++) {
          const [x1, y1] = ring[j];
          const [x2, y2] = ring[k];
          // Only edges spanning some latitude of the block can straddle a point's latitude, and an
          // edge wholly west of the block crosses no eastward ray from it (with a margin, as the
          // interpolated crossing may land an ulp beyond the edge's end).
          if (Math.max(y1, y2) < south || Math.min(y1, y2) > north || Math.max(x1, x2) < west - WEST_MARGIN) continue;
          edges.push(x1, y1, x2, y2);
        }
      }
      out.push({ minX: item.minX, minY: item.minY, maxX: item.maxX, maxY: item.maxY, code: this.codes[rank], edges: Float64Array.from(edges) });
    });
    return out;
  }
}
