/**
 * The chosen cell on the map: its 3 m outline from the `cell` the service returned, dashed while it
 * is a preview and solid once confirmed, red on a white band that keeps it visible on any tiles, and
 * a dot at its centre for zooms at which the outline is smaller than a pixel. It stays until the
 * visitor chooses again or clears it.
 */
import * as L from 'leaflet';
import type { LocCell } from '../src/embed/public-types.ts';

/** Below this zoom a cell is under about 3 px wide, so the dot marks it instead. */
const DOT_BELOW_ZOOM = 17;

export interface Selection {
  show(cell: LocCell, centre: L.LatLngExpression, confirmed: boolean): void;
  clear(): void;
}

export function createSelection(map: L.Map): Selection {
  const nowhere: L.LatLngBoundsExpression = [
    [0, 0],
    [0, 0],
  ];
  // A white band under the red outline: red alone is about as light as the satellite style's greens
  // (1.4:1), the white stands out from them, the red from light maps (WCAG 1.4.11).
  const halo = L.rectangle(nowhere, { interactive: false, className: 'loc-cell-halo', weight: 4, fill: false });
  const outline = L.rectangle(nowhere, { interactive: false, className: 'loc-cell', weight: 2 });
  const dot = L.circleMarker([0, 0], { interactive: false, className: 'loc-dot', radius: 6, weight: 2 });
  let shown = false;

  const updateDot = () => {
    const visible = shown && map.getZoom() < DOT_BELOW_ZOOM;
    if (visible && !map.hasLayer(dot)) dot.addTo(map);
    if (!visible && map.hasLayer(dot)) dot.remove();
  };
  map.on('zoomend', updateDot);

  return {
    show(cell, centre, confirmed) {
      const bounds: L.LatLngBoundsExpression = [
        [cell.south, cell.west],
        [cell.north, cell.east],
      ];
      halo.setBounds(bounds);
      outline.setBounds(bounds);
      outline.setStyle({ dashArray: confirmed ? undefined : '4 3' });
      dot.setLatLng(centre);
      // The halo first, so that the outline is drawn over it.
      halo.addTo(map);
      outline.addTo(map);
      shown = true;
      updateDot();
    },
    clear() {
      shown = false;
      halo.remove();
      outline.remove();
      updateDot();
    },
  };
}
