/**
 * The playground's controls as `LOC.mount` options. Values are checked against what the loader
 * accepts (mount-options.ts), with its messages, so a designer who types a bad centre sees the
 * message an integrator would get, and the map keeps its last good view.
 */
import { checkCenter, checkHeight, checkStyle, checkTheme, checkZoom } from './mount-options.ts';
import type { SnippetOptions } from './snippet.ts';

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
  /** A language tag; blank for the page's. */
  locale: string;
  theme: string;
  /** `appearance.variables.colorPrimary`; blank for the theme's. The frame judges it (invalid_option). */
  colorPrimary: string;
}

/** A field of the form, by its name in index.html. */
export type ControlName = keyof ControlValues;

/** A value that did not pass: the loader's message, and the fields to mark for it. */
export interface ControlProblem {
  /** The mount option the message is about: `center` for latitude and longitude alike. */
  option: 'height' | 'center' | 'zoom' | 'style' | 'theme';
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
      ...(values.locale === '' ? {} : { locale: values.locale }),
      theme: attempt('theme', () => ['theme'], () => checkTheme(values.theme), previous.theme),
      ...(values.colorPrimary.trim() === '' ? {} : { colorPrimary: values.colorPrimary.trim() }),
    },
    problems,
  };
}

/** What changed between two option sets: a remount (what only mounting sets), or the handle's setters. */
export function changesOf(before: SnippetOptions, after: SnippetOptions): { remount: boolean; view: boolean; style: boolean } {
  return {
    remount:
      before.height !== after.height || before.confirm !== after.confirm || before.renew !== after.renew || before.title !== after.title ||
      before.locale !== after.locale || before.theme !== after.theme || before.colorPrimary !== after.colorPrimary,
    view: before.center.lat !== after.center.lat || before.center.lng !== after.center.lng || before.zoom !== after.zoom,
    style: before.style !== after.style,
  };
}
