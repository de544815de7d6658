/**
 * The search for the places nearest a point within its country, as geokdbush's `around` finds them.
 *
 * `around` keeps a priority queue of objects and computes an exact spherical bound per kd-tree box (a
 * tan, an atan and several sines and cosines each): 8–10 µs a cell, as much as the rest of a request.
 * This search walks the country's places in latitude bands outward from the point, keeps the best
 * CANDIDATES + 1 in a small sorted array, and passes over places and whole bands with a lower bound
 * made of multiplications alone; only the places that pass it cost two sines: about 2.4 µs.
 *
 * It must find the same places as geokdbush for every point, so it ranks by the very number
 * geokdbush ranks by, the haversine h (haversine.ts), computed with the same operations in the same
 * order. geokdbush's set is then the CANDIDATES smallest h within NEAR_KM, except where two places
 * tie for the last place in it: its queue breaks such ties in an order of its own (and, to a few units
 * in the last place of h, so does its box bound's rounding). So when the last candidate and the first
 * one left out are within TIE_MARGIN of each other, the search says so and the caller asks geokdbush
 * (offline.ts). Otherwise no place can come before another in geokdbush's order unless its h is at
 * most the other's plus its rounding, so its first CANDIDATES within NEAR_KM are these.
 */
import { cosAtLeast, haverSin, lowerH, RAD, EARTH_RADIUS_KM, slack } from './haversine.ts';
import { BAND_DEG, type CountryPlaces } from './place-index.ts';

/** Farther than this from every place of its country, a cell is described by the country alone. */
export const NEAR_KM = 100;
/** How many of the nearest places compete to be named. */
export const CANDIDATES = 24;
/** geokdbush's h for NEAR_KM, computed as it does: a place is within reach when its h is at most this. */
const H_NEAR = haverSin(NEAR_KM / EARTH_RADIUS_KM);

/**
 * Two h closer than this at the edge of the candidates count as a tie. h is at most about 6e-5 at
 * NEAR_KM; the rounding in geokdbush's h and in its box bounds is a few units in the 16th digit of
 * that, 1e-20 or so. 1e-12 is four orders of magnitude wider than needed and still makes a tie of
 * two places that lie within centimetres of the same distance (at 1 km, 8 cm): twins, in practice.
 */
const TIE_MARGIN = 1e-12;
/** The best CANDIDATES places and the next one, to tell a clear edge from a tie. */
const KEPT = CANDIDATES + 1;

/**
 * Widens a band's edges past the rounding of floor(lat / BAND_DEG) and b · BAND_DEG. With 0.25, a
 * power of two, neither rounds at all; the margin keeps the bounds safe should the height change.
 */
const BAND_EDGE = 1e-9;

/** Where a search leaves the places it found: `h` ascending, `at` their positions in the country's band arrays. */
export interface Found {
  h: Float64Array;
  at: Int32Array;
}

/** Room for one search's places; a caller keeps one and reuses it, so a search allocates nothing. */
export function foundPlaces(): Found {
  return { h: new Float64Array(KEPT), at: new Int32Array(KEPT) };
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
 * Leaves the CANDIDATES + 1 smallest h within H_NEAR + TIE_MARGIN in `found` and returns how many of
 * them are candidates: those within H_NEAR, at most CANDIDATES. Returns -1 where the edge of the
 * candidates is a tie. Coordinates must be in range (|lat| ≤ 90, |lng| ≤ 180).
 *
 * Bands are visited nearest first, north and south of the point, until a band's latitude alone puts
 * it beyond the worst place kept; within a band, from the point's longitude east and west until the
 * longitude puts the rest beyond it. Every place passed over is beyond the worst kept by the bound
 * (`lowerH`, `slack`), so the kept ones are the nearest by the exact h.
 */
export function nearestPlaces(own: CountryPlaces, lat: number, lng: number, found: Found): number {
  const { firstBand, bandStart, bandLngs, bandLats, bandCos } = own;
  const { h: keptH, at: keptAt } = found;
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
    const low = firstAtOrEast(bandLngs, from, to, lng);
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
  return candidatesOf(keptH, kept);
}

/** The first place of a band at or east of `lng`, by binary search (`to` when none is: places west of it wrap round to the end). */
function firstAtOrEast(bandLngs: Float64Array, from: number, to: number, lng: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (bandLngs[mid] < lng) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** How many of the `kept` nearest are candidates (within H_NEAR, at most CANDIDATES); -1 when the edge of the candidates is a tie. */
function candidatesOf(keptH: Float64Array, kept: number): number {
  let candidates = 0;
  while (candidates < kept && candidates < CANDIDATES && keptH[candidates] <= H_NEAR) candidates++;
  if (candidates > 0 && candidates < kept && keptH[candidates] - keptH[candidates - 1] <= TIE_MARGIN) return -1;
  return candidates;
}
