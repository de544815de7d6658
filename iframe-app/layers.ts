/**
 * Map styles in the frame: each style's tile layers as the service configured them (attribution,
 * native zoom, subdomains, referrer policy), switched as a whole, and a promise for the first time the
 * visible tiles have loaded — part of what makes the map ready.
 */
import * as L from 'leaflet';
import { MAX_ZOOM } from '../src/embed/options.ts';
import type { LocStyle } from '../src/embed/public-types.ts';
import type { StyleLayers } from '../src/embed/protocol.ts';

/** Styles drawn from imagery, whose dark tones need light grid lines. */
export const DARK_STYLES: ReadonlySet<LocStyle> = new Set(['satellite']);

export interface StyleSwitch {
  readonly current: LocStyle;
  show(style: LocStyle): void;
  /** Resolves once the tiles of the first style shown have loaded (failed tiles count as loaded). */
  readonly firstLoad: Promise<void>;
}

export function createStyleSwitch(map: L.Map, styles: StyleLayers, initial: LocStyle): StyleSwitch {
  const layers = new Map<LocStyle, L.TileLayer[]>();
  const layersOf = (style: LocStyle) => {
    let list = layers.get(style);
    if (!list) {
      list = (styles[style] ?? []).map((config, index) =>
        L.tileLayer(config.url, {
          attribution: config.attribution,
          maxNativeZoom: config.maxNativeZoom,
          maxZoom: MAX_ZOOM,
          subdomains: config.subdomains ?? 'abc',
          referrerPolicy: config.referrerPolicy,
          opacity: config.overlay?.opacity ?? 1,
          zIndex: index + 1,
        }),
      );
      layers.set(style, list);
    }
    return list;
  };

  let current = initial;
  for (const layer of layersOf(initial)) layer.addTo(map);
  const base = layersOf(initial)[0];
  const firstLoad = base ? new Promise<void>((resolve) => base.once('load', () => resolve())) : Promise.resolve();

  return {
    get current() {
      return current;
    },
    show(style) {
      if (style === current) return;
      for (const layer of layersOf(current)) layer.remove();
      for (const layer of layersOf(style)) layer.addTo(map);
      current = style;
    },
    firstLoad,
  };
}
