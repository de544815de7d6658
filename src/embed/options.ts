/**
 * The options of `LOC.mount`: their defaults, declared once, and their validation. Bad input throws at
 * once with a message that shows what was expected and what was received — the first thing an
 * integrator sees when a mount goes wrong, so it names the option and the bad value.
 */
import { STYLE_NAMES } from './style-names.ts';
import type { LatLng } from './protocol.ts';
import type { LocAppearance, LocAppearanceVariables, LocMountOptions, LocStyle, LocTheme } from './public-types.ts';

/**
 * The defaults of the optional settings. Integrators read them in public-types.ts (`@default`), and a
 * test keeps the two in step.
 */
export const DEFAULTS = {
  /** Map height, a CSS length. */
  height: '400px',
  /** Initial centre: with zoom 2, most of the inhabited world. */
  center: { lat: 20, lng: 0 } as LatLng,
  /** Initial zoom, 0–20. */
  zoom: 2,
  /** Initial style. */
  style: 'streets' as LocStyle,
  /** Preview on click, save and select on “Use this location”. */
  confirm: true,
  /** Milliseconds before `load_timeout`. */
  loadTimeout: 15_000,
  /** The iframe's accessible name. */
  title: 'Map: choose a location',
  /** The search box over the map. */
  search: true,
  /** The frame's language, a BCP 47 tag; without one, the page's (`<html lang>`, else the browser's). */
  locale: undefined as string | undefined,
  /** The frame's theme and the integrator's variables over it. */
  appearance: { theme: 'light' } as LocAppearance,
};

/** The themes of `appearance.theme`; the compiler keeps the list to the public `LocTheme`. */
const THEME_SET = { light: 1, dark: 1, auto: 1 } satisfies Record<LocTheme, 1>;
export const THEMES = Object.keys(THEME_SET) as LocTheme[];

/** The names of `appearance.variables`, kept to the public type; the frame checks their values (iframe-app/appearance.ts). */
const VARIABLE_SET = { colorPrimary: 1, colorBackground: 1, colorText: 1, colorMuted: 1, colorDanger: 1, colorCell: 1, fontFamily: 1, borderRadius: 1 } satisfies Record<keyof LocAppearanceVariables, 1>;
export const APPEARANCE_VARIABLES = Object.keys(VARIABLE_SET) as (keyof LocAppearanceVariables)[];

/** Highest zoom the map offers: a 3 m cell is about 20 px wide there at the equator. */
export const MAX_ZOOM = 20;

const CALLBACKS = ['onSelect', 'onError', 'onReady', 'onPreview', 'onClear', 'getSessionToken'] as const;
const KNOWN = ['sessionToken', ...CALLBACKS, 'value', ...Object.keys(DEFAULTS)];

/** Options with every default filled in and every value checked. */
export type MountSettings = typeof DEFAULTS &
  Pick<LocMountOptions, (typeof CALLBACKS)[number]> & {
    token: string;
    /** The session id, the token's part before the first `.`; public, it names the frame URL. */
    sid: string;
    /** The code the map opens on, as already chosen (`LocMountOptions.value`); no default. */
    value?: string;
  };

/**
 * A received value for a message. Local rather than `describeValue` of the error catalogue because
 * points and other objects are shown as JSON here — `{"lat":95,"lng":0}` says what is wrong, "an
 * object" does not.
 */
export function show(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (value === undefined || typeof value === 'number') return String(value);
  const json = JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
  return json.length > 60 ? `${json.slice(0, 60)}…` : json;
}

/** Throws the one kind of error validation raises. */
export function invalid(where: string, expected: string, received: string): never {
  throw new TypeError(`${where} must be ${expected}; received ${received}.`);
}

export function readStyle(value: unknown, where: string): LocStyle {
  if (!STYLE_NAMES.includes(value as LocStyle)) invalid(where, `one of ${STYLE_NAMES.map(show).join(', ')}`, show(value));
  return value as LocStyle;
}

/** A CSS length the browser takes for a height (without `CSS`, outside a browser: any non-blank string). */
export function readHeight(value: unknown, where: string): string {
  const ok = typeof value === 'string' && value.trim() !== '' && (typeof CSS === 'undefined' || CSS.supports('height', value));
  if (!ok) invalid(where, `a CSS length such as ${show(DEFAULTS.height)}`, show(value));
  return value as string;
}

export function readZoom(value: unknown, where: string): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_ZOOM) {
    invalid(where, `an integer from 0 to ${MAX_ZOOM}`, show(value));
  }
  return value as number;
}

export function readLatLng(value: unknown, where: string): LatLng {
  const v = value as Record<string, unknown> | null;
  const [lat, lng] = Array.isArray(v) ? (v.length === 2 ? v : []) : [v?.lat, v?.lng];
  if (typeof lat !== 'number' || !(Math.abs(lat) <= 90) || typeof lng !== 'number' || !(Math.abs(lng) <= 180)) {
    invalid(where, '{ lat, lng } or [lat, lng] with lat from -90 to 90 and lng from -180 to 180', show(value));
  }
  return { lat, lng };
}

/**
 * A BCP 47 language tag, by its shape (`fr`, `pt-BR`, `zh-Hant-TW`): whether the frame has the
 * language is the frame's to say (`invalid_option`).
 */
export function readLocale(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length > 35 || !/^[a-z]{2,8}(-[a-z\d]{1,8})*$/i.test(value)) {
    invalid(where, 'a BCP 47 language tag such as "fr" or "pt-BR"', show(value));
  }
  return value as string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{ theme?, variables? }`, by names and shapes: a known theme, known variable names, strings. Whether
 * a string is a colour, a length or a font, and whether the colours read, is the frame's to say.
 */
export function readAppearance(value: unknown, where: string): LocAppearance {
  if (!isObject(value)) invalid(where, '{ theme?, variables? }', show(value));
  const { theme = 'light', variables, ...unknown } = value as Record<string, unknown>;
  for (const key of Object.keys(unknown)) invalid(`${where}.${key}`, 'theme or variables', 'an unknown key');
  if (!THEMES.includes(theme as LocTheme)) invalid(`${where}.theme`, `one of ${THEMES.map(show).join(', ')}`, show(theme));
  if (variables === undefined) return { theme: theme as LocTheme };
  if (!isObject(variables)) invalid(`${where}.variables`, `an object of ${APPEARANCE_VARIABLES.join(', ')}`, show(variables));
  for (const [name, v] of Object.entries(variables)) {
    if (!APPEARANCE_VARIABLES.includes(name as keyof LocAppearanceVariables)) invalid(`${where}.variables.${name}`, `one of ${APPEARANCE_VARIABLES.join(', ')}`, 'an unknown variable');
    // Left out as a missing option is: `{ colorPrimary: brand?.color }` from a page's own settings.
    if (v !== undefined && (typeof v !== 'string' || v.length > 200)) invalid(`${where}.variables.${name}`, 'a string of at most 200 characters', show(v));
  }
  return { theme: theme as LocTheme, variables: { ...variables } };
}

/**
 * What a value that may hold a token is, never its content: the token is a credential and error
 * messages end up in logs. `show` would print an array or object holding the token, or the whole
 * session response passed in its place. Also what `LOC.mount` says of a target that is not an element
 * (`null` from a lookup that found nothing reads as "null", not as typeof's "object").
 */
export function kindOf(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value !== 'object' || value === null) return show(value);
  if (Array.isArray(value)) return 'an array';
  return 'session_token' in value ? 'an object with a session_token (pass that field)' : 'an object';
}

function readBoolean(value: unknown, where: string): boolean {
  return typeof value === 'boolean' ? value : invalid(where, 'true or false', show(value));
}

/** How each optional setting is checked, in the order `readOptions` checks them. */
const READERS: { [K in keyof typeof DEFAULTS]: (value: unknown, where: string) => (typeof DEFAULTS)[K] } = {
  height: readHeight,
  center: readLatLng,
  zoom: readZoom,
  style: readStyle,
  confirm: readBoolean,
  loadTimeout: (ms, where) => (typeof ms === 'number' && ms >= 1000 && ms <= 300_000 ? ms : invalid(where, 'milliseconds from 1000 to 300000', show(ms))),
  title: (value, where) => (typeof value === 'string' && value.trim() !== '' ? value : invalid(where, 'a non-empty string', show(value))),
  search: readBoolean,
  locale: readLocale,
  appearance: readAppearance,
};

/** Never echoes a token (see kindOf). */
function readToken(value: unknown): { token: string; sid: string } {
  const where = 'LOC.mount: options.sessionToken';
  const expected = 'the session_token from POST /v1/embed/sessions, "<sid>.<secret>"';
  if (typeof value !== 'string') invalid(where, expected, kindOf(value));
  const dot = value.indexOf('.');
  if (dot < 1 || dot === value.length - 1 || !/^[\w-]+$/.test(value.slice(0, dot))) {
    invalid(where, expected, `${kindOf(value)}${dot < 0 ? ' without a "."' : ''}`);
  }
  return { token: value, sid: value.slice(0, dot) };
}

/** Checks `LOC.mount` options and fills in the defaults. */
export function readOptions(options: unknown): MountSettings {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    // A string here is most likely the token itself, passed in place of the options.
    invalid('LOC.mount: options', 'an object with at least sessionToken', kindOf(options));
  }
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN.includes(key)) invalid(`LOC.mount: options.${key}`, `one of the known options (${KNOWN.join(', ')})`, 'an unknown option');
  }
  const at = (key: string) => `LOC.mount: options.${key}`;
  const given = (key: string) => o[key] !== undefined;
  const settings = { ...DEFAULTS, ...readToken(o.sessionToken) } as MountSettings;

  for (const key of Object.keys(READERS) as (keyof typeof DEFAULTS)[]) {
    if (given(key)) settings[key] = READERS[key](o[key], at(key)) as never;
  }
  // Its shape only: whether it is a code, and whether the session may open it, the service judges (onError).
  if (given('value')) {
    settings.value = typeof o.value === 'string' && o.value.trim() !== '' ? o.value : invalid(at('value'), 'a loc code such as "FR-0RMB-CLY0"', show(o.value));
  }
  // kindOf: `getSessionToken: session.session_token` is an easy slip, and the message must not carry the token.
  for (const key of CALLBACKS) {
    if (given(key) && typeof o[key] !== 'function') invalid(at(key), 'a function', kindOf(o[key]));
    settings[key] = o[key] as never;
  }
  return settings;
}

/** The element `LOC.mount` mounts into: `target` itself, or the first element its selector matches. */
export function findElement(target: unknown): Element {
  if (typeof target === 'string') {
    let element: Element | null;
    try {
      element = document.querySelector(target);
    } catch {
      throw new TypeError(`LOC.mount: the selector must be valid CSS; received ${JSON.stringify(target)}.`);
    }
    if (!element) throw new TypeError(`LOC.mount: no element matches the selector ${JSON.stringify(target)}.`);
    return element;
  }
  if ((target as Node | null)?.nodeType !== 1) {
    throw new TypeError(`LOC.mount: the target must be a CSS selector or an element; received ${kindOf(target)}.`);
  }
  return target as Element;
}
