/**
 * The session's area on the map: the view is kept inside the session's box, so the visitor pans and
 * zooms where choosing is allowed instead of learning it from refusals. A cell outside the box can
 * still be clicked where the view is larger than the box; the service refuses it and the frame tells
 * the visitor, as for any refusal.
 *
 * A box across the antimeridian is left unrestricted: Leaflet would need it written past 180°, and
 * the map's world-copy jump, which keeps the chosen cell's outline on the world the visitor sees,
 * moves the view back within ±180° — the two would fight at every pan.
 */
import * as L from 'leaflet';
import type { FrameConfig } from '../src/embed/protocol.ts';

/** How solid the box's edges are when dragging: 1, as solid as a wall. */
const EDGE_VISCOSITY = 1;

/** Keeps the view inside `bounds`; returns whether it does (not for a box across the antimeridian). */
export function keepInside(map: L.Map, bounds: FrameConfig['bounds']): boolean {
  if (bounds === undefined || bounds.west > bounds.east) return false;
  map.options.maxBoundsViscosity = EDGE_VISCOSITY;
  // Pans a view that opened outside the box into it.
  map.setMaxBounds(L.latLngBounds([bounds.south, bounds.west], [bounds.north, bounds.east]));
  return true;
}
