/**
 * The chosen cell on the map: its 3 m outline from the `cell` the service returned, dashed while it
 * is a preview and solid once confirmed, red on a white band that keeps it visible on any tiles, and
 * a dot at its centre for zooms at which the outline is smaller than a pixel. It stays until the
 * visitor chooses again or clears it. A cell the page chose may be anywhere: it is brought into view.
 * The service's cells are within ±180°, the view may be past 180° (world-copy.ts): the outline is
 * drawn on the world copy nearest the view, and moved to the nearest again when the view moves on.
 */
import * as L from 'leaflet';
import type { LatLng } from '../src/embed/protocol.ts';
import type { LocCell } from '../src/embed/public-types.ts';
import { nearCentre } from './world-copy.ts';

/** Below this zoom a cell is under about 3 px wide, so the dot marks it instead. */
const DOT_BELOW_ZOOM = 17;

/**
 * The least zoom a revealed cell is shown at: about 10 px wide there, its outline reads as a box
 * around one spot rather than the dot (below 17) or a 5 px speck in the grid (18).
 */
export const REVEAL_ZOOM = 19;

export interface Selection {
  show(cell: LocCell, centre: L.LatLngExpression, confirmed: boolean): void;
  /** Centres the map on `centre`, zooming in to `REVEAL_ZOOM` when further out. */
  reveal(centre: L.LatLngExpression): void;
  clear(): void;
}

/** `motion`: the frame's pan and zoom options (the visitor's reduced motion). */
export function createSelection(map: L.Map, motion: L.ZoomPanOptions): Selection {
  const nowhere: L.LatLngBoundsExpression = [
    [0, 0],
    [0, 0],
  ];
  // A white band under the red outline: red alone is about as light as the satellite style's greens
  // (1.4:1), the white stands out from them, the red from light maps (WCAG 1.4.11).
  const halo = L.rectangle(nowhere, { interactive: false, className: 'loc-cell-halo', weight: 4, fill: false });
  const outline = L.rectangle(nowhere, { interactive: false, className: 'loc-cell', weight: 2 });
  const dot = L.circleMarker([0, 0], { interactive: false, className: 'loc-dot', radius: 6, weight: 2 });
  let shown: { cell: LocCell; centre: LatLng } | undefined;
  /** Degrees the shown cell is drawn east of where the service put it: 0, or ±360 on another world copy. */
  let drawnShift: number | undefined;

  /** Draws the shown cell on the world copy nearest the view, unless it is there already. */
  const place = () => {
    if (!shown) return;
    const centre = nearCentre(map, shown.centre);
    const shift = centre.lng - shown.centre.lng;
    if (shift === drawnShift) return;
    drawnShift = shift;
    const bounds: L.LatLngBoundsExpression = [
      [shown.cell.south, shown.cell.west + shift],
      [shown.cell.north, shown.cell.east + shift],
    ];
    halo.setBounds(bounds);
    outline.setBounds(bounds);
    dot.setLatLng(centre);
  };
  map.on('moveend', place);

  const updateDot = () => {
    const visible = shown !== undefined && map.getZoom() < DOT_BELOW_ZOOM;
    if (visible && !map.hasLayer(dot)) dot.addTo(map);
    if (!visible && map.hasLayer(dot)) dot.remove();
  };
  map.on('zoomend', updateDot);

  return {
    show(cell, centre, confirmed) {
      shown = { cell, centre: L.latLng(centre) };
      drawnShift = undefined;
      place();
      outline.setStyle({ dashArray: confirmed ? undefined : '4 3' });
      // The halo first, so that the outline is drawn over it.
      halo.addTo(map);
      outline.addTo(map);
      updateDot();
    },
    reveal(centre) {
      map.setView(nearCentre(map, L.latLng(centre)), Math.max(map.getZoom(), REVEAL_ZOOM), motion);
    },
    clear() {
      shown = undefined;
      halo.remove();
      outline.remove();
      updateDot();
    },
  };
}
