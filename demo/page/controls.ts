/**
 * The playground's controls as `LOC.mount` options. Values are checked by the loader's own validation,
 * so a designer who types a bad centre sees exactly the message an integrator would get, and the map
 * keeps its last good view.
 */
import { readLatLng, readOptions, readStyle, readZoom } from '../../src/embed/options.ts';
import type { SnippetOptions } from './snippet.ts';

/**
 * The loader's check of a height. It lives inside readOptions (in a browser it asks `CSS.supports`),
 * so the demo calls that with a placeholder token, which readOptions requires but never uses here;
 * a check of its own would let through what `LOC.mount` then throws on. The message loses its
 * `LOC.mount: options.` prefix to read like the others, which name just the option.
 */
function readHeight(height: string): string {
  try {
    return readOptions({ sessionToken: 'placeholder.token', height }).height;
  } catch (error) {
    throw new TypeError((error as Error).message.replace(/^LOC\.mount: options\./, ''));
  }
}

/** The form's fields, as strings and checkbox states. */
export interface ControlValues {
  height: string;
  lat: string;
  lng: string;
  zoom: string;
  style: string;
  confirm: boolean;
  renew: boolean;
}

export interface ReadControls {
  options: SnippetOptions;
  /** The loader's message for each value that did not pass; those options keep their previous value. */
  problems: string[];
}

export function readControls(values: ControlValues, previous: SnippetOptions): ReadControls {
  const problems: string[] = [];
  const attempt = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      problems.push((error as Error).message);
      return fallback;
    }
  };
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return {
    options: {
      apiUrl: previous.apiUrl,
      height: attempt(() => readHeight(values.height.trim()), previous.height),
      center: attempt(() => readLatLng([number(values.lat), number(values.lng)], 'center'), previous.center),
      zoom: attempt(() => readZoom(number(values.zoom), 'zoom'), previous.zoom),
      style: attempt(() => readStyle(values.style, 'style'), previous.style),
      confirm: values.confirm,
      renew: values.renew,
    },
    problems,
  };
}

/** What changed between two option sets: a remount (what only mounting sets), or the handle's setters. */
export function changesOf(before: SnippetOptions, after: SnippetOptions): { remount: boolean; view: boolean; style: boolean } {
  return {
    remount: before.height !== after.height || before.confirm !== after.confirm || before.renew !== after.renew,
    view: before.center.lat !== after.center.lat || before.center.lng !== after.center.lng || before.zoom !== after.zoom,
    style: before.style !== after.style,
  };
}
