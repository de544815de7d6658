/**
 * The land the tables are built from: Natural Earth 10 m land (`world-atlas`, rings stitched across
 * the antimeridian), north of 60° S. The generator marks land blocks with it (docs/code-format.md §5);
 * the gap scan tests points against it (§10).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as topojson from 'topojson-client';
import type { Topology, GeometryObject } from 'topojson-specification';
import { shiftRingNear, toRing, type Ring } from './raster.ts';

/** Land south of 60° S is Antarctica, which has no codes (and rings there wind around the pole). */
export const ANTARCTIC_LATITUDE = -60;

/** A land polygon: its outer ring, then its holes, each held near the outer ring's longitudes. */
export type LandPolygon = Ring[];

export function loadLandPolygons(): LandPolygon[] {
  const topology = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('world-atlas/land-10m.json'), 'utf8')) as Topology;
  const land = topojson.feature(topology, topology.objects.land as GeometryObject);
  const polygons: LandPolygon[] = [];
  for (const feature of 'features' in land ? land.features : [land]) {
    const geometry = feature.geometry;
    const list = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
    for (const polygon of list) {
      if (polygon[0].every(([, lat]) => lat < ANTARCTIC_LATITUDE)) continue;
      // Unwrap the stitched rings, then hold holes near their outer ring.
      const outer = toRing(polygon[0], true);
      polygons.push([outer, ...polygon.slice(1).map((hole) => shiftRingNear(toRing(hole, true), outer.xs[0]))]);
    }
  }
  return polygons;
}
