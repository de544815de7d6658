/**
 * The session's area on the map: the view is kept inside the box the service sends (FrameConfig.bounds:
 * the session's bounds, its countries' box, or both's overlap), so the visitor pans and zooms where
 * choosing is allowed instead of learning it from refusals. A cell outside the box can still be
 * clicked where the view is larger than the box; the service refuses it and the frame tells the
 * visitor, as for any refusal.
 *
 * A box across the antimeridian is held past 180°, east + 360 (Fiji: 176° to 182°), as Leaflet draws
 * the world copy east of the first one; the map then has no world-copy jump (map.ts), which would move
 * the view back within ±180° and fight the box at every pan, and what the frame places on the map —
 * the view the page asks for, the chosen cell's outline — goes on the world copy nearest the view
 * (world-copy.ts).
 */
import * as L from 'leaflet';
import type { FrameConfig } from '../src/embed/protocol.ts';

/** How solid the box's edges are when dragging: 1, as solid as a wall. */
const EDGE_VISCOSITY = 1;

/** Keeps the view inside `bounds`; returns whether there is a box to keep it in. */
export function keepInside(map: L.Map, bounds: FrameConfig['bounds']): boolean {
  if (bounds === undefined) return false;
  const east = bounds.west > bounds.east ? bounds.east + 360 : bounds.east;
  // The view's centre onto the world copy nearest the box's middle first: Leaflet brings a view into
  // its max bounds in a straight line, so a centre at 179° W, in Fiji's box written 176° to 182°,
  // would otherwise be carried 355° west to the box's west edge instead of being where it is.
  const middle = (bounds.west + east) / 2;
  const centre = map.getCenter();
  const lng = centre.lng + 360 * Math.round((middle - centre.lng) / 360);
  if (lng !== centre.lng) map.setView([centre.lat, lng], map.getZoom(), { animate: false });
  map.options.maxBoundsViscosity = EDGE_VISCOSITY;
  // Pans a view that opened outside the box into it.
  map.setMaxBounds(L.latLngBounds([bounds.south, bounds.west], [bounds.north, east]));
  return true;
}
