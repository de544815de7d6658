/**
 * The border polygons a table carries (docs/code-format.md §4): every polygon of country-coder's
 * features, in which-polygon's R-tree order, with its territory-level code (country.ts), its box as
 * which-polygon computes it, and its rings as given.
 *
 * country-coder answers with the first polygon, in the order its which-polygon search returns them,
 * whose box holds the point and whose ray test says inside. That search returns the polygons whose
 * boxes hold the point in the order of the tree's all() (both pop the same depth-first stack; a
 * point's box contains no node's box), so a reader that tries every polygon in all() order, box
 * first, gets country-coder's answer from data alone.
 */
import * as countryCoder from '@rapideditor/country-coder';
import whichPolygon from 'which-polygon';
import { territoryOfFeature } from '../country.ts';
import { scaledCoordinate, type BorderPolygons } from '../border-polygons.ts';

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
 * The polygons of country-coder's borders in test order. Throws when a coordinate is not a whole
 * number of 10⁻⁵ degree (the table could not give it back exactly) or a point is not a pair.
 */
export function borderPolygons(): BorderPolygons {
  const features = countryCoder.borders.features.filter((f) => f.geometry);
  const query = whichPolygon({ type: 'FeatureCollection', features } as Parameters<typeof whichPolygon>[0]);
  const items = (query.tree as unknown as { all(): TreeItem[] }).all();

  const codeOf = new Map<string, string | null>();
  for (const { props } of items) if (!codeOf.has(props.id)) codeOf.set(props.id, territoryOfFeature(props.id));
  const codes = [...new Set([...codeOf.values()].filter((c): c is string => c !== null))].sort();
  for (const c of codes) if (!/^[A-Z]{2}$/.test(c)) throw new Error(`border code ${c} is not two capital letters`);

  const polygonStart = [0];
  const ringStart = [0];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const item of items) {
    for (const ring of item.coords) {
      for (const point of ring) {
        if (point.length !== 2) throw new Error(`feature ${item.props.id} has a point of ${point.length} coordinates`);
        scaledCoordinate(point[0]);
        scaledCoordinate(point[1]);
        xs.push(point[0]);
        ys.push(point[1]);
      }
      ringStart.push(xs.length);
    }
    polygonStart.push(ringStart.length - 1);
  }
  return {
    codes,
    code: Uint16Array.from(items, ({ props }) => {
      const c = codeOf.get(props.id)!;
      return c === null ? 0 : codes.indexOf(c) + 1;
    }),
    boxes: Float64Array.from(items.flatMap((item) => [item.minX, item.minY, item.maxX, item.maxY])),
    polygonStart: Uint32Array.from(polygonStart),
    ringStart: Uint32Array.from(ringStart),
    xs: Float64Array.from(xs),
    ys: Float64Array.from(ys),
  };
}
