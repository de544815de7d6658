/**
 * What the demo page knows of `LOC.mount`'s options, as any integrator knows it: from loc-embed.d.ts
 * (the styles, the `@default`s) and the integrator guide (the ranges). The playground checks its form
 * against them before it mounts or moves a map, with the messages the loader throws for the same
 * values, so a designer reads what an integrator would; mount-options.test.ts holds both to the
 * loader's.
 */
import type { LocAppearanceVariables, LocStyle, LocTheme } from '../../src/embed/public-types.ts';

/** Every style, the default first; the compiler keeps the list to the public `LocStyle`. */
const STYLE_SET = { streets: true, satellite: true, traffic: true, biking: true } as const satisfies Record<LocStyle, true>;
export const STYLES = Object.keys(STYLE_SET) as LocStyle[];

/** Every theme, the default first; the compiler keeps the list to the public `LocTheme`. */
const THEME_SET = { light: true, dark: true, auto: true } as const satisfies Record<LocTheme, true>;
export const THEMES = Object.keys(THEME_SET) as LocTheme[];

/**
 * The languages the map speaks, as the integrator guide lists them, each by its own name (for the
 * playground's select and the side-by-side maps). Arabic is written right to left.
 */
export const LOCALES = [
  { tag: 'en', name: 'English' },
  { tag: 'fr', name: 'Français' },
  { tag: 'de', name: 'Deutsch' },
  { tag: 'es', name: 'Español' },
  { tag: 'ar', name: 'العربية' },
  { tag: 'ja', name: '日本語' },
] as const;

/** The appearance variables the playground offers: the three main colours, the font, the radius. */
export const VARIABLES = ['colorPrimary', 'colorBackground', 'colorText', 'fontFamily', 'borderRadius'] as const satisfies readonly (keyof LocAppearanceVariables)[];
export type PlaygroundVariable = (typeof VARIABLES)[number];

/** The options' defaults, as loc-embed.d.ts documents them: the snippet leaves these out. */
export const MOUNT_DEFAULTS = {
  height: '400px',
  center: { lat: 20, lng: 0 },
  zoom: 2,
  style: 'streets' as LocStyle,
  confirm: true,
  search: true,
  theme: 'light' as LocTheme,
};

/** Highest zoom the map offers. */
const MAX_ZOOM = 20;

/** A value as the loader's messages show it: numbers as they are, the rest as JSON, cut at 60 characters. */
function shown(value: string | number | readonly number[]): string {
  if (typeof value === 'number') return String(value);
  const json = JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
  return json.length > 60 ? `${json.slice(0, 60)}…` : json;
}

function refuse(option: string, expected: string, received: string | number | readonly number[]): never {
  throw new TypeError(`${option} must be ${expected}; received ${shown(received)}.`);
}

/** A CSS length the browser takes for a height (without `CSS`, outside a browser: any non-blank text). */
export function checkHeight(text: string): string {
  const ok = text.trim() !== '' && (typeof CSS === 'undefined' || CSS.supports('height', text));
  if (!ok) refuse('height', `a CSS length such as ${shown(MOUNT_DEFAULTS.height)}`, text);
  return text;
}

export function checkCenter(lat: number, lng: number): { lat: number; lng: number } {
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) {
    refuse('center', '{ lat, lng } or [lat, lng] with lat from -90 to 90 and lng from -180 to 180', [lat, lng]);
  }
  return { lat, lng };
}

export function checkZoom(zoom: number): number {
  if (!Number.isInteger(zoom) || zoom < 0 || zoom > MAX_ZOOM) refuse('zoom', `an integer from 0 to ${MAX_ZOOM}`, zoom);
  return zoom;
}

/** A BCP 47 tag by its shape, as the loader checks it: whether the map has the language is the map's to say (`invalid_option`). */
export function checkLocale(text: string): string {
  if (text.length > 35 || !/^[a-z]{2,8}(-[a-z\d]{1,8})*$/i.test(text)) refuse('locale', 'a BCP 47 language tag such as "fr" or "pt-BR"', text);
  return text;
}

export function checkTheme(text: string): LocTheme {
  if (!(THEMES as string[]).includes(text)) refuse('appearance.theme', `one of ${THEMES.map(shown).join(', ')}`, text);
  return text as LocTheme;
}

/**
 * An appearance variable, as the loader checks it: a string of at most 200 characters. Whether it is
 * a colour, a length or a font, and whether the colours read, the map says (`invalid_option`).
 */
export function checkVariable(name: PlaygroundVariable, text: string): string {
  if (text.length > 200) refuse(`appearance.variables.${name}`, 'a string of at most 200 characters', text);
  return text;
}

export function checkStyle(text: string): LocStyle {
  if (!(STYLES as string[]).includes(text)) refuse('style', `one of ${STYLES.map(shown).join(', ')}`, text);
  return text as LocStyle;
}
