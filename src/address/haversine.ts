/**
 * The haversine as geokdbush computes it, to the bit, and the cheap lower bounds the offline search
 * passes over places with. h = sin²(Δφ/2) + cos φ₁ · cos φ₂ · sin²(Δλ/2); the distance is 2 R asin √h.
 */

/** geokdbush's degrees-to-radians factor and Earth radius, km: its distances, to the bit. */
export const RAD = Math.PI / 180;
export const EARTH_RADIUS_KM = 6371;

/** geokdbush's haverSin. */
export function haverSin(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

/** geokdbush's `distance` from h, km. */
export function distanceOfH(h: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

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
export function lowerH(dLat: number, dLng: number, cosCos: number): number {
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
export function slack(h: number): number {
  return h + h * 1e-9 + 1e-18;
}

/**
 * A lower bound of cos φ for |φ| up to the larger of |south| and |north| degrees: cos φ = sin y with
 * y = π/2 − |φ|, and sin y ≥ y − y³/6 for y ≥ 0 (within 0.1 % at 80°, where 1 − φ²/2 is off by 85 %).
 * Math.PI / 2 rounds below π/2, which only lowers the bound.
 */
export function cosAtLeast(south: number, north: number): number {
  const y = Math.PI / 2 - Math.max(Math.abs(south), Math.abs(north)) * RAD;
  return y <= 0 ? 0 : y * (1 - (y * y) / 6);
}
