/**
 * What the map shows, as the page steers it: the style — its tile layers, and the grid's lines in a
 * tone that reads on them — and the view. The page's values are checked again here, as every value
 * that comes over the channel is: a bad one throws back to the caller and changes nothing.
 */
import { readLatLng, readStyle, readZoom } from '../src/embed/options.ts';
import type { FrameApi, StyleLayers } from '../src/embed/protocol.ts';
import type { LocReadyInfo, LocStyle } from '../src/embed/public-types.ts';
import { createGridLayer, type GridColumns, type GridTone } from './grid-layer.ts';
import { DARK_STYLES, createStyleSwitch } from './layers.ts';
import type { FrameMap } from './map.ts';
import { nearCentre } from './world-copy.ts';

export interface View extends Pick<FrameApi, 'setStyle' | 'setView'> {
  /** Resolves once the first style's tiles have loaded (failed tiles count as loaded). */
  readonly firstLoad: Promise<void>;
  /** The style, centre and zoom shown now, as `onReady` tells them. */
  shown(): Pick<LocReadyInfo, 'style' | 'center' | 'zoom'>;
}

const toneOf = (style: LocStyle): GridTone => (DARK_STYLES.has(style) ? 'dark' : 'light');

/** Shows `initial` on the map at once, with the 3 m grid over it. */
export function createView({ map, motion }: FrameMap, styles: StyleLayers, initial: LocStyle, columns: GridColumns): View {
  const styleSwitch = createStyleSwitch(map, styles, initial);
  const grid = createGridLayer(columns).addTo(map);
  grid.setTone(toneOf(initial));

  return {
    setStyle(style) {
      const next = readStyle(style, 'style');
      styleSwitch.show(next);
      grid.setTone(toneOf(next));
    },
    setView(center, zoom) {
      // The place on the world copy the visitor sees: in a box across the antimeridian, 179° W is 181° E.
      map.setView(nearCentre(map, readLatLng(center, 'center')), zoom === undefined ? map.getZoom() : readZoom(zoom, 'zoom'), motion);
    },
    firstLoad: styleSwitch.firstLoad,
    shown() {
      // Leaflet's projection round trip leaves float noise; a 1 cm precision reads better.
      const center = map.getCenter().wrap();
      const round = (degrees: number) => Math.round(degrees * 1e7) / 1e7;
      return { style: styleSwitch.current, center: { lat: round(center.lat), lng: round(center.lng) }, zoom: map.getZoom() };
    },
  };
}
