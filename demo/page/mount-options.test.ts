/**
 * The demo page's own knowledge of `LOC.mount`'s options agrees with the loader's: the same styles
 * and defaults, and for each value a designer can type, the same verdict and the same message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULTS, THEMES as LOADER_THEMES, readAppearance, readHeight, readLatLng, readStyle, readZoom } from '../../src/embed/options.ts';
import { STYLE_NAMES } from '../../src/embed/style-names.ts';
import { checkCenter, checkHeight, checkStyle, checkTheme, checkZoom, MOUNT_DEFAULTS, STYLES, THEMES } from './mount-options.ts';

/** What a check says of a value: what it returns, or the message it throws. */
function verdict(check: () => unknown): unknown {
  try {
    return { value: check() };
  } catch (error) {
    return { message: (error as Error).message };
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the demo page’s mount options', () => {
  it('list the loader’s styles, default first, and its defaults', () => {
    expect(STYLES).toEqual([...STYLE_NAMES]);
    expect(MOUNT_DEFAULTS).toEqual({ height: DEFAULTS.height, center: DEFAULTS.center, zoom: DEFAULTS.zoom, style: DEFAULTS.style, confirm: DEFAULTS.confirm, theme: DEFAULTS.appearance.theme });
    expect(THEMES).toEqual([...LOADER_THEMES]);
  });

  it('judge every value as the loader does, with its message', () => {
    const long = `${'9'.repeat(70)}px`;
    for (const text of ['400px', ' 60vh', '', ' ', long]) expect(verdict(() => checkHeight(text)), text).toEqual(verdict(() => readHeight(text, 'height')));
    const coordinates = [0, 48.8584, -90, 90, 90.0001, -180, 180, 180.5, -200, Number.NaN, Number.POSITIVE_INFINITY, 1e21, -0];
    for (const lat of coordinates) {
      for (const lng of coordinates) expect(verdict(() => checkCenter(lat, lng)), `${lat}, ${lng}`).toEqual(verdict(() => readLatLng([lat, lng], 'center')));
    }
    for (const zoom of [0, 2, 20, 21, -1, 1.5, Number.NaN]) expect(verdict(() => checkZoom(zoom)), String(zoom)).toEqual(verdict(() => readZoom(zoom, 'zoom')));
    for (const style of [...STYLE_NAMES, 'night', '', 'Streets']) expect(verdict(() => checkStyle(style)), style).toEqual(verdict(() => readStyle(style, 'style')));
    for (const theme of [...LOADER_THEMES, 'night', '']) {
      expect(verdict(() => checkTheme(theme)), theme).toEqual(verdict(() => readAppearance({ theme }, 'appearance').theme));
    }
  });

  it('judge a height by the browser’s CSS.supports, as the loader does', () => {
    // Node has no CSS: a stand-in that knows two lengths.
    vi.stubGlobal('CSS', { supports: (property: string, value: string) => property === 'height' && ['300px', '60vh'].includes(value) });
    for (const text of ['300px', '60vh', 'abc', '12']) expect(verdict(() => checkHeight(text)), text).toEqual(verdict(() => readHeight(text, 'height')));
  });
});
