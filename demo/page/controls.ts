/**
 * The playground's controls as `LOC.mount` options. Values are checked against what the loader
 * accepts (mount-options.ts), with its messages, so a designer who types a bad centre sees the
 * message an integrator would get, and the map keeps its last good view.
 */
import { checkCenter, checkHeight, checkLocale, checkStyle, checkTheme, checkVariable, checkZoom, VARIABLES, type PlaygroundVariable } from './mount-options.ts';
import type { SessionArea, SnippetOptions } from './snippet.ts';

/** The form's fields, as strings and checkbox states. */
export interface ControlValues {
  height: string;
  lat: string;
  lng: string;
  zoom: string;
  style: string;
  confirm: boolean;
  renew: boolean;
  /** The map's accessible name; blank for the demo's own. */
  title: string;
  /** Whether the search box shows over the map. */
  search: boolean;
  /** A code the map opens on, as chosen; blank for none. */
  value: string;
  /** The session's area: country codes separated by commas or spaces, blank for none. */
  countries: string;
  /** The session's box, each edge blank or a number (as a number field's value is). */
  south: string;
  west: string;
  north: string;
  east: string;
  /** A language tag; blank for the page's language. */
  locale: string;
  theme: string;
  /** The appearance variables, each blank when not set (a colour whose box is not ticked). */
  colorPrimary: string;
  colorBackground: string;
  colorText: string;
  fontFamily: string;
  borderRadius: string;
}

/** A field of the form, by its name in index.html. */
export type ControlName = keyof ControlValues;

/** A value that did not pass: the loader's message, and the fields to mark for it. */
export interface ControlProblem {
  /** The mount option the message is about: `center` for latitude and longitude alike. */
  option: 'height' | 'center' | 'zoom' | 'style' | 'locale' | 'appearance.theme' | `appearance.variables.${PlaygroundVariable}`;
  /** The fields at fault: of a bad centre, only the coordinate that is out of range. */
  fields: ControlName[];
  message: string;
}

export interface ReadControls {
  options: SnippetOptions;
  /** One for each option that did not pass; those options keep their previous value. */
  problems: ControlProblem[];
}

export function readControls(values: ControlValues, previous: SnippetOptions): ReadControls {
  const problems: ControlProblem[] = [];
  const attempt = <T>(option: ControlProblem['option'], fields: () => ControlName[], read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      problems.push({ option, fields: fields(), message: (error as Error).message });
      return fallback;
    }
  };
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const lat = number(values.lat);
  const lng = number(values.lng);
  // The loader checks the centre as one value; each coordinate is tried beside a valid other one
  // (0), so only the field that is wrong is marked and a screen reader does not call both invalid.
  const refused = (read: () => unknown) => {
    try {
      read();
      return false;
    } catch {
      return true;
    }
  };
  const area = readArea(values);
  const locale = values.locale.trim();
  // Each variable on its own, as the loader names the one at fault; blank ones are not set.
  const variables: Partial<Record<PlaygroundVariable, string>> = {};
  for (const name of VARIABLES) {
    const text = values[name].trim();
    const value = text === '' ? undefined : attempt(`appearance.variables.${name}`, () => [name], () => checkVariable(name, text), previous.variables[name]);
    if (value !== undefined) variables[name] = value;
  }
  const badCoordinates = (): ControlName[] => (['lat', 'lng'] as const).filter((name) => refused(() => (name === 'lat' ? checkCenter(lat, 0) : checkCenter(0, lng))));
  return {
    options: {
      apiUrl: previous.apiUrl,
      // In a browser the height is checked by `CSS.supports`, as the loader checks it: a laxer check
      // would let through what `LOC.mount` then throws on.
      height: attempt('height', () => ['height'], () => checkHeight(values.height.trim()), previous.height),
      center: attempt('center', badCoordinates, () => checkCenter(lat, lng), previous.center),
      zoom: attempt('zoom', () => ['zoom'], () => checkZoom(number(values.zoom)), previous.zoom),
      style: attempt('style', () => ['style'], () => checkStyle(values.style), previous.style),
      confirm: values.confirm,
      renew: values.renew,
      // Any text but blank is a title LOC.mount takes; blank means the designer set none.
      ...(values.title.trim() === '' ? {} : { title: values.title.trim() }),
      search: values.search,
      // The loader takes any non-blank text and the service judges the code (onError): blank is none.
      ...(values.value.trim() === '' ? {} : { value: values.value.trim() }),
      ...(area ? { area } : {}),
      // Blank is the page's language: no option.
      ...(locale === '' ? {} : { locale: attempt('locale', () => ['locale'], () => checkLocale(locale), previous.locale) }),
      theme: attempt('appearance.theme', () => ['theme'], () => checkTheme(values.theme), previous.theme),
      variables,
    },
    problems,
  };
}

/**
 * The area to ask the session for, as typed: the page does not judge it, the service does (its 422 is
 * the page's problem line), so a designer reads the API's own rules. Countries are split at commas and
 * spaces; the box holds the edges given, all four or not (the service names a missing one).
 */
export function readArea(values: Pick<ControlValues, 'countries' | 'south' | 'west' | 'north' | 'east'>): SessionArea | undefined {
  const countries = values.countries.split(/[\s,]+/).filter(Boolean);
  const edges = (['south', 'west', 'north', 'east'] as const).filter((edge) => values[edge].trim() !== '');
  const bounds = Object.fromEntries(edges.map((edge) => [edge, Number(values[edge])]));
  if (countries.length === 0 && edges.length === 0) return undefined;
  return { ...(countries.length > 0 ? { countries } : {}), ...(edges.length > 0 ? { bounds } : {}) };
}

/** The same area, or none on both sides. */
export const sameArea = (a: SessionArea | undefined, b: SessionArea | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What changed between two option sets: a remount (what only mounting sets), or the handle's setters.
 * A new area is a new session (sameArea), which the page asks its server for before it mounts.
 */
export function changesOf(before: SnippetOptions, after: SnippetOptions): { remount: boolean; view: boolean; style: boolean } {
  return {
    remount:
      before.height !== after.height ||
      before.confirm !== after.confirm ||
      before.renew !== after.renew ||
      before.title !== after.title ||
      before.search !== after.search ||
      before.value !== after.value ||
      before.locale !== after.locale ||
      before.theme !== after.theme ||
      JSON.stringify(before.variables) !== JSON.stringify(after.variables),
    view: before.center.lat !== after.center.lat || before.center.lng !== after.center.lng || before.zoom !== after.zoom,
    style: before.style !== after.style,
  };
}
