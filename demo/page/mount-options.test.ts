/**
 * The demo page's own knowledge of `LOC.mount`'s options agrees with the loader's: the same styles
 * and defaults, and for each value a designer can type, the same verdict and the same message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALES as FRAME_LOCALES } from '../../iframe-app/i18n.ts';
import { APPEARANCE_VARIABLES, DEFAULTS, readAppearance, readHeight, readLatLng, readLocale, readStyle, readZoom, THEMES as LOADER_THEMES } from '../../src/embed/options.ts';
import { STYLE_NAMES } from '../../src/embed/style-names.ts';
import {
  checkCenter,
  checkHeight,
  checkLocale,
  checkStyle,
  checkTheme,
  checkVariable,
  checkZoom,
  LOCALES,
  MOUNT_DEFAULTS,
  STYLES,
  THEMES,
  VARIABLES,
} from './mount-options.ts';

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
    expect(MOUNT_DEFAULTS).toEqual({
      height: DEFAULTS.height,
      center: DEFAULTS.center,
      zoom: DEFAULTS.zoom,
      style: DEFAULTS.style,
      confirm: DEFAULTS.confirm,
      search: DEFAULTS.search,
      theme: DEFAULTS.appearance.theme,
    });
  });

  it('list the map’s themes, default first, its languages (but the pseudo-locale, a test’s) and variables it has', () => {
    expect(THEMES).toEqual([...LOADER_THEMES]);
    expect(LOCALES.map((locale) => locale.tag)).toEqual(FRAME_LOCALES.filter((tag) => tag !== 'en-XA'));
    for (const name of VARIABLES) expect(APPEARANCE_VARIABLES).toContain(name);
    // Each language by its own name, as a visitor who reads it would look for it.
    for (const { tag, name } of LOCALES) expect(new Intl.DisplayNames([tag], { type: 'language' }).of(tag)?.toLowerCase(), tag).toBe(name.toLowerCase());
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
    for (const tag of ['fr', 'pt-BR', 'zh-Hant-TW', 'en_GB', 'e', 'english-language', 'x'.repeat(36), 'ar-']) {
      expect(verdict(() => checkLocale(tag)), tag).toEqual(verdict(() => readLocale(tag, 'locale')));
    }
    // The loader checks appearance as one object: the demo's verdict on a part is the loader's on an object of that part alone.
    const themeOf = (appearance: unknown) => (appearance as { theme: string }).theme;
    for (const theme of [...LOADER_THEMES, 'sepia', '', 'Dark']) {
      expect(verdict(() => checkTheme(theme)), theme).toEqual(verdict(() => themeOf(readAppearance({ theme }, 'appearance'))));
    }
    for (const name of VARIABLES) {
      for (const text of ['#0b57d0', 'Georgia, serif', '4px', 'x'.repeat(200), 'x'.repeat(201)]) {
        const loader = () => (readAppearance({ variables: { [name]: text } }, 'appearance').variables as Record<string, string>)[name];
        expect(verdict(() => checkVariable(name, text)), `${name} ${text.length}`).toEqual(verdict(loader));
      }
    }
  });

  it('judge a height by the browser’s CSS.supports, as the loader does', () => {
    // Node has no CSS: a stand-in that knows two lengths.
    vi.stubGlobal('CSS', { supports: (property: string, value: string) => property === 'height' && ['300px', '60vh'].includes(value) });
    for (const text of ['300px', '60vh', 'abc', '12']) expect(verdict(() => checkHeight(text)), text).toEqual(verdict(() => readHeight(text, 'height')));
  });
});
