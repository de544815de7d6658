/**
 * Map styles as sets of tile layers. Each of the four styles is a base layer from a keyless public
 * provider by default, replaceable per style; `traffic` gains an overlay when one is configured (no
 * public traffic tiles come without a key). In offline mode every style is drawn by the service itself
 * (offline.ts), so tests, CI and air-gapped demos need no network.
 *
 * Environment variables (read by `tileSettingsFromEnv`):
 *   LOC_TILES                         `online` (default) or `offline`
 *   LOC_TILES_<STYLE>_URL             base-layer URL template for STREETS, SATELLITE, TRAFFIC or BIKING
 *   LOC_TILES_<STYLE>_ATTRIBUTION     its attribution (HTML); defaults to the template's host
 *   LOC_TRAFFIC_OVERLAY_URL           URL template of a traffic overlay drawn over the traffic base
 *   LOC_TRAFFIC_OVERLAY_ATTRIBUTION   its attribution (HTML)
 */
import { escapeHtml } from '../escape-html.ts';
import type { StyleLayers, TileLayerConfig } from '../embed/frame-contract.ts';
import { STYLE_NAMES, type StyleName } from '../embed/style-names.ts';

export type TileMode = 'online' | 'offline';

const OSM = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/**
 * The keyless public defaults. OpenStreetMap's servers (standard and CyclOSM) require a Referer from
 * browsers, so those layers send the service's origin — nothing of the path; the others send nothing.
 */
export const DEFAULT_LAYERS: Record<StyleName, TileLayerConfig> = {
  streets: {
    url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    attribution: OSM,
    maxNativeZoom: 19,
    referrerPolicy: 'strict-origin',
  },
  satellite: {
    url: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
    attribution: 'Imagery &copy; Esri, Maxar, Earthstar Geographics and the GIS user community',
    maxNativeZoom: 18,
    referrerPolicy: 'no-referrer',
  },
  traffic: {
    url: 'https://{s}.basemaps.cartocdn.com/light_all/{z}/{x}/{y}{r}.png',
    attribution: `${OSM} &copy; <a href="https://carto.com/attributions">CARTO</a>`,
    maxNativeZoom: 20,
    subdomains: 'abcd',
    referrerPolicy: 'no-referrer',
  },
  biking: {
    url: 'https://{s}.tile-cyclosm.openstreetmap.fr/cyclosm/{z}/{x}/{y}.png',
    attribution: `<a href="https://www.cyclosm.org">CyclOSM</a> | ${OSM}`,
    maxNativeZoom: 20,
    subdomains: 'abc',
    referrerPolicy: 'strict-origin',
  },
};

/** A provider configured by the operator. */
export interface TileSource {
  url: string;
  attribution?: string;
}

export interface TileSettings {
  mode: TileMode;
  /** Base layers that replace the defaults, per style (online mode). */
  base?: Partial<Record<StyleName, TileSource>>;
  /** An overlay over the `traffic` base (online mode). */
  trafficOverlay?: TileSource;
}

/** Offline tiles are drawn up to the map's highest zoom; they carry no detail past the land outline anyway. */
const OFFLINE_MAX_ZOOM = 20;

/** The path offline tiles are served at, below the service's base URL. */
export const OFFLINE_TILE_PATH = '/tiles/{style}/{z}/{x}/{y}.png';

/** The layers of every style for these settings; `serviceBase` is the service's public base URL. */
export function resolveStyles(settings: TileSettings, serviceBase: string): StyleLayers {
  const base = serviceBase.replace(/\/+$/, '');
  const styles = {} as StyleLayers;
  for (const style of STYLE_NAMES) {
    if (settings.mode === 'offline') {
      styles[style] = [
        {
          url: base + OFFLINE_TILE_PATH.replace('{style}', style),
          attribution: 'Offline map by loc · land from <a href="https://www.naturalearthdata.com">Natural Earth</a>',
          maxNativeZoom: OFFLINE_MAX_ZOOM,
          referrerPolicy: 'no-referrer',
        },
      ];
      continue;
    }
    const custom = settings.base?.[style];
    styles[style] = [custom ? fromSource(custom) : DEFAULT_LAYERS[style]];
  }
  if (settings.mode === 'online' && settings.trafficOverlay) {
    styles.traffic.push({ ...fromSource(settings.trafficOverlay), overlay: { opacity: 0.9 } });
  }
  return styles;
}

function fromSource(source: TileSource): TileLayerConfig {
  return {
    url: source.url,
    attribution: source.attribution ?? escapeHtml(new URL(templateOrigin(source.url)).host),
    maxNativeZoom: 19,
    subdomains: source.url.includes('{s}') ? 'abc' : undefined,
    referrerPolicy: 'no-referrer',
  };
}

/** The prefixes of the tile sources' variables, each read with `_URL` and `_ATTRIBUTION`. */
const SOURCE_PREFIXES = [...STYLE_NAMES.map((style) => `LOC_TILES_${style.toUpperCase()}`), 'LOC_TRAFFIC_OVERLAY'];

/** Every variable `tileSettingsFromEnv` reads besides LOC_TILES. */
export const TILE_SOURCE_VARIABLES: readonly string[] = SOURCE_PREFIXES.flatMap((prefix) => [`${prefix}_URL`, `${prefix}_ATTRIBUTION`]);

/** Reads the tile settings from the environment variables listed at the top of this file. */
export function tileSettingsFromEnv(env: Record<string, string | undefined>): TileSettings {
  const mode = env.LOC_TILES ?? 'online';
  if (mode !== 'online' && mode !== 'offline') {
    throw new Error(`LOC_TILES must be "online" or "offline"; received ${JSON.stringify(mode)}.`);
  }
  const source = (prefix: string): TileSource | undefined => {
    const url = env[`${prefix}_URL`];
    if (url === undefined || url === '') return undefined;
    if (!/^https?:\/\/[^/]+\//.test(url) || !['{z}', '{x}', '{y}'].every((part) => url.includes(part))) {
      throw new Error(`${prefix}_URL must be an http(s) URL template with {z}, {x} and {y}; received ${JSON.stringify(url)}.`);
    }
    const attribution = env[`${prefix}_ATTRIBUTION`];
    return attribution ? { url, attribution } : { url };
  };
  const base: Partial<Record<StyleName, TileSource>> = {};
  STYLE_NAMES.forEach((style, i) => {
    const custom = source(SOURCE_PREFIXES[i]);
    if (custom) base[style] = custom;
  });
  const trafficOverlay = source(SOURCE_PREFIXES[STYLE_NAMES.length]);
  return { mode, base, ...(trafficOverlay ? { trafficOverlay } : {}) };
}

/** The origins the layers load from, every `{s}` expanded: the frame's CSP allows images from these. */
export function tileOrigins(styles: StyleLayers): string[] {
  return layerOrigins(Object.values(styles).flat());
}

/** The same for some layers only (the share page shows the `streets` style alone). */
export function layerOrigins(layers: readonly TileLayerConfig[]): string[] {
  const origins = new Set<string>();
  for (const layer of layers) {
    for (const s of layer.url.includes('{s}') ? [...(layer.subdomains ?? 'abc')] : ['']) {
      origins.add(templateOrigin(layer.url.replace('{s}', s)));
    }
  }
  return [...origins];
}

/** The origin of a URL template, `{s}` taken as a letter (placeholders in the path do not matter). */
function templateOrigin(template: string): string {
  const match = /^https?:\/\/[^/]+/.exec(template.replace('{s}', 'a'));
  if (!match) throw new Error(`A tile URL template must start with http:// or https://; received ${JSON.stringify(template)}.`);
  return new URL(match[0]).origin;
}
