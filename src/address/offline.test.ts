/**
 * The offline search names the same place as geokdbush's `around` would, wherever it is asked: the
 * reference is that search written plainly with geokdbush, over kd-trees built here from the loaded
 * places (64 to a leaf, each country's places in the order listed).
 */
import fc from 'fast-check';
import { around, distance } from 'geokdbush';
import KDBush from 'kdbush';
import { beforeAll, describe, expect, it } from 'vitest';
import { countryName } from '../code/index.ts';
import { foundPlaces, nearestPlaces } from './nearest-places.ts';
import { loadedPlaces, loadPlaces, offlineAddress, offlinePlace } from './offline.ts';
import type { PlaceIndex } from './place-index.ts';

let index: PlaceIndex;
const referenceTrees = new Map<string, { tree: KDBush; places: Uint32Array }>();

beforeAll(async () => {
  await loadPlaces();
  index = loadedPlaces()!;
  for (const [country, { places }] of index.trees) {
    // The reference's tree: the country's places in the order listed, 64 to a leaf.
    const tree = new KDBush(places.length, 64, Float64Array);
    for (const i of places) tree.add(index.lngs[i], index.lats[i]);
    tree.finish();
    referenceTrees.set(country, { tree, places });
  }
});

/** The reference: the 24 nearest places within 100 km by geokdbush, the deepest inside named, ties to the first listed. */
function referencePlace(lat: number, lng: number, country: string): number {
  const { reach, lngs, lats } = index;
  const own = referenceTrees.get(country);
  let best = -1;
  let bestDepth = Infinity;
  if (own !== undefined) {
    for (const id of around(own.tree, lng, lat, 24, 100) as number[]) {
      const place = own.places[id];
      const depth = distance(lng, lat, lngs[place], lats[place]) / reach[place];
      if (depth < bestDepth || (depth === bestDepth && place < best)) {
        best = place;
        bestDepth = depth;
      }
    }
  }
  return best;
}

function referenceAddress(lat: number, lng: number, country: string): string {
  const best = referencePlace(lat, lng, country);
  const { names, nameWide, nameStart, nameEnd } = index;
  const name = countryName(country);
  return best < 0 ? name : `near ${names[nameWide[best]].slice(nameStart[best], nameEnd[best])}, ${name}`;
}

/** The search names the reference's place (a mismatch shows the point and both places). */
function expectSame(lat: number, lng: number, country: string): void {
  expect({ country, lat, lng, place: offlinePlace(lat, lng, country) }).toEqual({ country, lat, lng, place: referencePlace(lat, lng, country) });
}

/** A longitude moved less than 360° out of −180 … 180, back within. */
function wrapLng(lng: number): number {
  return lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng;
}

/**
 * Uniform draws: fast-check's doubles and integers lean to the ends of their range (a box's corners,
 * the first places listed) on purpose, and a fraction in [0, 1] drawn as a double is mostly tiny.
 */
const unit = fc.noBias(fc.integer({ min: 0, max: 2 ** 30 })).map((n) => n / 2 ** 30);
const below = (n: number) => fc.noBias(fc.integer({ min: 0, max: n - 1 }));

describe('offline search', () => {
  // Land-ish boxes, [west, south, east, north], of countries dense and sparse, small and wide.
  const boxes: [string, number, number, number, number][] = [
    ['US', -125, 24, -66, 50], ['US', -170, 51, -130, 72], ['US', -161, 18.5, -154, 22.5], ['FR', -5, 41, 10, 51.5],
    ['DE', 5.5, 47, 15.5, 55.5], ['IT', 6.5, 36.5, 18.5, 47.1], ['ES', -9.5, 35.9, 4.4, 43.9], ['MX', -118, 14, -86, 33],
    ['IN', 68, 6, 97, 36], ['BR', -74, -34, -34, 5], ['RU', 27, 41, 60, 70], ['RU', 130, 42, 180, 72], ['CN', 73, 18, 135, 54],
    ['JP', 129, 30, 146, 46], ['GB', -8, 49.8, 2, 59], ['NO', 4, 57.8, 31, 71.5], ['CA', -141, 41, -52, 70], ['AU', 113, -44, 154, -10],
    ['ID', 95, -11, 141, 6], ['PH', 116, 4.5, 127, 21], ['CL', -76, -56, -66, -17], ['NZ', 166, -47.5, 179, -34], ['GL', -73, 59, -12, 84],
    ['TH', 97, 5.5, 106, 20.5], ['NG', 2.6, 4, 14.7, 14], ['FJ', 177, -21, 180, -12], ['IS', -24.5, 63.3, -13.5, 66.6],
  ];

  it('names what geokdbush named anywhere in 27 land-ish boxes of 24 countries', () => {
    fc.assert(
      fc.property(below(boxes.length), unit, unit, (b, x, y) => {
        const [country, west, south, east, north] = boxes[b];
        expectSame(south + y * (north - south), west + x * (east - west), country);
      }),
      { numRuns: 8_000 },
    );
  });

  it('names what geokdbush named around places anywhere, as many near each country as it has places', () => {
    const all = [...index.trees].flatMap(([country, { places }]) => [...places].map((p) => [country, p] as const));
    fc.assert(
      fc.property(below(all.length), unit, unit, (k, dy, dx) => {
        const [country, p] = all[k];
        const lat = Math.max(-90, Math.min(90, index.lats[p] + (dy - 0.5) * 0.9));
        expectSame(lat, wrapLng(index.lngs[p] + (dx - 0.5) * 0.9 / Math.max(0.1, Math.cos(lat * (Math.PI / 180)))), country);
      }),
      { numRuns: 3_000 },
    );
  });

  it('names what geokdbush named near borders, asked for the neighbour', () => {
    const neighbours = [
      ['FR', 'DE'], ['DE', 'FR'], ['FR', 'BE'], ['BE', 'NL'], ['CH', 'DE'], ['DE', 'CH'], ['AT', 'IT'], ['DE', 'PL'], ['PL', 'CZ'],
      ['US', 'CA'], ['CA', 'US'], ['US', 'MX'], ['MX', 'US'], ['IN', 'PK'], ['PK', 'IN'], ['CN', 'RU'], ['RU', 'KZ'], ['TH', 'LA'],
      ['ES', 'PT'], ['PT', 'ES'], ['AR', 'CL'], ['BR', 'UY'], ['SE', 'NO'], ['FI', 'RU'], ['VA', 'IT'], ['MC', 'FR'], ['SM', 'IT'],
    ];
    // Each pair with the places of the first within 60 km of a place of the second: along the border.
    const pairs = neighbours.map(([from, to]) => {
      const { tree } = referenceTrees.get(to)!;
      const near = [...index.trees.get(from)!.places].filter((p) => around(tree, index.lngs[p], index.lats[p], 1, 60).length > 0);
      return { to, near };
    });
    expect(pairs.every(({ near }) => near.length > 0)).toBe(true);
    fc.assert(
      fc.property(below(pairs.length), unit, unit, unit, (k, pick, dy, dx) => {
        const { to, near } = pairs[k];
        const p = near[Math.floor(pick * near.length)];
        const lat = Math.max(-90, Math.min(90, index.lats[p] + (dy - 0.5) * 0.8));
        expectSame(lat, wrapLng(index.lngs[p] + (dx - 0.5) * 1.2), to);
      }),
      { numRuns: 4_000 },
    );
  });

  it('names what geokdbush named at the antimeridian', () => {
    // Each country with places near 180° (Fiji's, Chukotka's, Tuvalu's, Wallis and Futuna's, New
    // Zealand's East Cape) or none near it (the Aleutians, Kiribati, Tonga), over the latitudes it spans.
    const spans: [string, number, number][] = [
      ['FJ', -21, -12], ['FJ', -19, -16], ['RU', 60, 70], ['RU', 62, 67], ['TV', -10, -5], ['WF', -15, -13], ['NZ', -40, -35],
      ['US', 50, 56], ['KI', -5, 5], ['TO', -23, -15],
    ];
    fc.assert(
      fc.property(
        below(spans.length),
        unit,
        fc.oneof(
          unit.map((t) => 180 - 0.1 * t),
          unit.map((t) => -180 + 0.1 * t),
          unit.map((t) => 180 - 3 * t),
          unit.map((t) => -180 + 3 * t),
          fc.constantFrom(180, -180),
        ),
        (k, y, lng) => {
          const [country, south, north] = spans[k];
          expectSame(south + y * (north - south), lng, country);
        },
      ),
      { numRuns: 4_000 },
    );
  });

  it('names what geokdbush named near the poles and among the northernmost places', () => {
    const northern = [...index.trees.values()].flatMap(({ places }) => [...places]).filter((p) => Math.abs(index.lats[p]) > 65);
    const countries = ['RU', 'GL', 'CA', 'NO', 'SJ', 'AQ', 'US', 'FI', 'IS'];
    fc.assert(
      fc.property(
        below(countries.length),
        fc.oneof(unit.map((t) => 80 + 10 * t), unit.map((t) => -80 - 10 * t), fc.constantFrom(90, -90)),
        unit.map((t) => -180 + 360 * t),
        (c, lat, lng) => expectSame(lat, lng, countries[c]),
      ),
      { numRuns: 1_000 },
    );
    fc.assert(
      fc.property(below(northern.length), unit, unit, (k, dy, dx) => {
        const p = northern[k];
        const lat = Math.max(-90, Math.min(90, index.lats[p] + (dy - 0.5) * 2));
        const country = [...index.trees].find(([, { places }]) => places.includes(p))![0];
        expectSame(lat, wrapLng(index.lngs[p] + (dx - 0.5) * 8), country);
      }),
      { numRuns: 1_000 },
    );
  });

  it('names what geokdbush named in countries of a few places or none', () => {
    const sparse = [...index.trees].filter(([, { places }]) => places.length <= 10);
    expect(sparse.length).toBeGreaterThan(30);
    fc.assert(
      fc.property(below(sparse.length), unit, unit, unit, (k, pick, dy, dx) => {
        const [country, { places }] = sparse[k];
        const p = places[Math.floor(pick * places.length)];
        const lat = Math.max(-90, Math.min(90, index.lats[p] + (dy - 0.5) * 2));
        expectSame(lat, wrapLng(index.lngs[p] + (dx - 0.5) * 2), country);
      }),
      { numRuns: 2_000 },
    );
    // Countries without a place: the country alone, as before.
    for (const country of ['BV', 'HM', 'UM']) {
      if (!index.trees.has(country)) expectSame(-54.4, 3.4, country);
    }
  });

  it('names what geokdbush named exactly at places, twins included', () => {
    const all = [...index.trees].flatMap(([country, { places }]) => [...places].map((p) => [country, p] as const));
    fc.assert(
      fc.property(below(all.length), (k) => {
        const [country, p] = all[k];
        expectSame(index.lats[p], index.lngs[p], country);
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes the address geokdbush would have', async () => {
    await fc.assert(
      fc.asyncProperty(below(boxes.length), unit, unit, async (b, x, y) => {
        const [country, west, south, east, north] = boxes[b];
        const lat = south + y * (north - south);
        const lng = west + x * (east - west);
        expect(await offlineAddress(lat, lng, country)).toBe(referenceAddress(lat, lng, country));
      }),
      { numRuns: 1_000 },
    );
  });

  it('leaves it to geokdbush where twin places tie for the last candidate, and names what it names', () => {
    // Places GeoNames lists twice at one spot, and points from which the pair are the 24th and 25th
    // nearest: there, only geokdbush's queue says which of the two is a candidate.
    const twins: [string, number][] = [];
    for (const [country, { places }] of index.trees) {
      const seen = new Set<string>();
      for (const p of places) {
        const key = `${index.lngs[p]},${index.lats[p]}`;
        if (seen.has(key) && places.length > 30) twins.push([country, p]);
        seen.add(key);
      }
    }
    expect(twins.length).toBeGreaterThan(20);
    const found = foundPlaces();
    let ties = 0;
    let settledByGeokdbush = 0;
    for (const [country, p] of twins) {
      const { tree, places } = referenceTrees.get(country)!;
      const isTwin = (id: number): boolean => index.lngs[places[id]] === index.lngs[p] && index.lats[places[id]] === index.lats[p];
      for (const bearing of [0, 1, 2, 3, 4, 5]) {
        // Walk away from the twins, halving the step, until 23 places are nearer than they are.
        let near = 0;
        let far = 0.9;
        for (let step = 0; step < 50; step++) {
          const d = (near + far) / 2;
          const lat = index.lats[p] + d * Math.cos(bearing);
          const lng = wrapLng(index.lngs[p] + d * Math.sin(bearing));
          const at = (around(tree, lng, lat, Infinity, 100) as number[]).findIndex(isTwin);
          if (at === 23) {
            expectSame(lat, lng, country);
            ties++;
            if (nearestPlaces(index.trees.get(country)!, lat, lng, found) === -1) settledByGeokdbush++;
            break;
          }
          if (at < 0 || at > 23) far = d;
          else near = d;
        }
      }
    }
    expect(ties).toBeGreaterThan(20);
    // The fast search saw each tie and left it to geokdbush.
    expect(settledByGeokdbush).toBe(ties);
  });
});
