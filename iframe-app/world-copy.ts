/**
 * The world copy a point goes on. Leaflet draws the world again every 360° east and west, and points
 * come wrapped into ±180° — from the service, the page, the keyboard's grid — while the view may be
 * past 180°: across the antimeridian, and always in a box that crosses it (area.ts). Moving to the
 * wrapped point there would cross the world, or stop at the box's far edge, and an outline drawn there
 * would be off screen. No Leaflet at run time: the keyboard's module, which the e2e suite imports for
 * its timings, uses it.
 */
import type * as L from 'leaflet';
import type { LatLng } from '../src/embed/protocol.ts';

/** `point` on the copy of the world nearest the map's centre: the same place, `lng` give or take 360°. */
export function nearCentre(map: Pick<L.Map, 'getCenter'>, { lat, lng }: LatLng): LatLng {
  return { lat, lng: lng + 360 * Math.round((map.getCenter().lng - lng) / 360) };
}
