/**
 * The frame's start-up input: the session config the service wrote into the page, and the start
 * options the loader put in the URL fragment (see `FrameStart` in protocol.ts).
 */
import { DEFAULTS, readAppearance, readLatLng, readLocale, readStyle, readZoom } from '../src/embed/options.ts';
import type { FrameConfig, FrameStart, LatLng } from '../src/embed/protocol.ts';
import type { LocAppearance, LocStyle } from '../src/embed/public-types.ts';

/** The config in `#loc-config`; throws when the page has none, so the frame never says hello. */
export function readConfig(doc: Document): FrameConfig {
  const text = doc.getElementById('loc-config')?.textContent;
  if (!text) throw new Error('The frame page has no #loc-config.');
  const config = JSON.parse(text) as FrameConfig;
  for (const key of ['apiBase', 'origin', 'sid', 'expiresAt', 'now', 'tokenCheck'] as const) {
    if (typeof config[key] !== 'string') throw new Error(`#loc-config.${key} must be a string; received ${typeof config[key]}.`);
  }
  return config;
}

export interface Start {
  nonce: string;
  style: LocStyle;
  center: LatLng;
  zoom: number;
  /** When the page stops waiting for the hello (epoch ms); without one, as if the default loadTimeout ran from now. */
  until: number;
  search: boolean;
  /** The integrator's `locale`, when they gave one. */
  locale?: string;
  /** The page's language. */
  pageLocale?: string;
  /** The integrator's appearance; its values are not checked yet (appearance.ts does). */
  appearance: LocAppearance;
}

/**
 * The start options of the fragment. A value that does not read falls back to its default: the map
 * must draw whatever the URL says, and the loader already told the integrator about bad options.
 */
export function readStart(hash: string): Start {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const get = (key: keyof FrameStart) => params.get(key);
  const attempt = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch {
      return fallback;
    }
  };
  return {
    nonce: get('nonce') ?? '',
    style: attempt(() => readStyle(get('style'), 'style'), DEFAULTS.style),
    center: attempt(() => readLatLng([Number(get('lat') ?? NaN), Number(get('lng') ?? NaN)], 'center'), DEFAULTS.center),
    zoom: attempt(() => readZoom(Number(get('zoom') ?? NaN), 'zoom'), DEFAULTS.zoom),
    until: Number(get('until')) || Date.now() + DEFAULTS.loadTimeout,
    // Only an explicit false hides it: a loader before the option sends nothing.
    search: get('search') !== 'false',
    locale: attempt(() => readLocale(get('locale') ?? undefined, 'locale'), undefined),
    // Pages write `en_US` as often as `en-US`: the visitor's language either way.
    pageLocale: attempt(() => readLocale(get('pageLocale')?.replace(/_/g, '-'), 'pageLocale'), undefined),
    appearance: attempt(() => readAppearance(JSON.parse(get('appearance') ?? 'null'), 'appearance'), DEFAULTS.appearance),
  };
}
