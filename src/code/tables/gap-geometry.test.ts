import * as countryCoder from '@rapideditor/country-coder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M } from '../grid.ts';
import { territoryOfFeature } from '../country.ts';
import { FeatureEdges, METRES_PER_DEGREE, segmentDistanceM, wrapLng } from './gap-geometry.ts';

/** Great-circle distance in metres on the format's sphere. */
function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

const edges = new FeatureEdges();
const allEdges = countryCoder.borders.features
  .filter((f) => f.geometry && territoryOfFeature(f.properties.id) !== null)
  .flatMap((f) => {
    const g = f.geometry!;
    const code = territoryOfFeature(f.properties.id)!;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    return polygons.flatMap((rings) => rings.flatMap((ring) => ring.slice(1).map((p, i) => ({ a: ring[i], b: p, code }))));
  });

describe('gap geometry', () => {
  it('wraps longitudes into [−180, 180)', () => {
    expect([wrapLng(180), wrapLng(-180), wrapLng(181.5), wrapLng(-190), wrapLng(12)]).toEqual([-180, -180, -178.5, 170, 12]);
  });

  it('measures the distance to an edge: perpendicular, to an end, and across the antimeridian', () => {
    // A meridian segment 0.001° east of the point, at the equator: 0.001 degree of arc.
    expect(segmentDistanceM(0, 0, 0.001, -1, 0.001, 1)).toBeCloseTo(0.001 * METRES_PER_DEGREE, 6);
    // Past the segment's end the distance is to that end.
    expect(segmentDistanceM(0, 0, 0.003, 0.004, 0.003, 1)).toBeCloseTo(0.005 * METRES_PER_DEGREE, 6);
    // Chukotka: the point is 0.001° east of 180°, the edge runs along 180°.
    const cos66 = Math.cos((66 * Math.PI) / 180);
    expect(segmentDistanceM(66, -179.999, 180, 62.5, 180, 71.5)).toBeCloseTo(0.001 * cos66 * METRES_PER_DEGREE, 6);
    expect(segmentDistanceM(66, 179.999, -180, 62.5, -180, 71.5)).toBeCloseTo(0.001 * cos66 * METRES_PER_DEGREE, 6);
  });

  it('agrees with the great-circle distance within 1 % up to 10 km below 75°', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -75, max: 75, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.double({ min: -0.09, max: 0.09, noNaN: true }),
        fc.double({ min: -0.09, max: 0.09, noNaN: true }),
        (lat, lng, dLat, dLng) => {
          const dx = dLng / Math.cos((lat * Math.PI) / 180);
          const exact = haversineM(lat, lng, lat + dLat, lng + dx);
          fc.pre(exact > 1 && exact < 10_000);
          const local = segmentDistanceM(lat, lng, lng + dx, lat + dLat, lng + dx, lat + dLat);
          expect(Math.abs(local - exact) / exact).toBeLessThan(0.01);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('finds the nearest coded feature as a search of every edge does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: allEdges.length - 1 }), fc.double({ min: -0.2, max: 0.2, noNaN: true }), fc.double({ min: -0.2, max: 0.2, noNaN: true }), (e, dLat, dLng) => {
        const { a } = allEdges[e];
        const lat = Math.max(-89, Math.min(89, a[1] + dLat));
        const lng = wrapLng(a[0] + dLng);
        let best = Infinity;
        for (const { a: p, b: q } of allEdges) best = Math.min(best, segmentDistanceM(lat, lng, p[0], p[1], q[0], q[1]));
        const found = edges.nearest(lat, lng, 50_000);
        if (best > 50_000) expect(found).toBeNull();
        else expect(found?.distanceM).toBe(best);
      }),
      { numRuns: 150 },
    );
  });

  it('names Russia as the nearest feature of the Chukotka strip', () => {
    const near = edges.nearest(66, -179.999, 10_000);
    expect(near?.code).toBe('RU');
    expect(near!.distanceM).toBeGreaterThan(40);
    expect(near!.distanceM).toBeLessThan(50);
  });
});
