import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkVariables, propertiesOf, type ColourReader } from './appearance.ts';
import { contrast, ratioText, type Rgb } from './contrast.ts';

/** The two themes, read from frame.css as the browser would (dark over light). */
const THEMES = (() => {
  const css = readFileSync(new URL('./frame.css', import.meta.url), 'utf8');
  const block = (selector: string) =>
    Object.fromEntries([...css.slice(css.indexOf(`${selector} {`)).split('}')[0].matchAll(/(--loc-[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value.trim()]));
  const light = block(':root');
  return { light, dark: { ...light, ...block(":root[data-theme='dark']") } };
})();

/** Reads `#rrggbb` only: what the browser's canvas does for every CSS colour, the browser suite checks. */
const reader: ColourReader = {
  supports: (property, value) => (property === 'color' ? /^#[\da-f]{6}$/i.test(value) : !/^x/.test(value)),
  rgb: (value) => (/^#[\da-f]{6}$/i.test(value) ? ([1, 3, 5].map((i) => parseInt(value.slice(i, i + 2), 16)) as unknown as Rgb) : undefined),
  themeValue: (scheme, property) => THEMES[scheme][property],
};

const base = (scheme: 'light' | 'dark') => Object.fromEntries(Object.entries(THEMES[scheme]).map(([p, v]) => [p, reader.rgb(v) ?? [0, 0, 0]])) as Parameters<typeof propertiesOf>[1];

describe('the themes', () => {
  it('pass WCAG AA in every pair the frame shows', () => {
    expect(THEMES.dark['--loc-surface']).toBe('#202124');
    for (const scheme of ['light', 'dark'] as const) {
      // No variables: nothing to refuse, and the themes' own pairs are what the checks compare against.
      const palette = base(scheme);
      expect(contrast(palette['--loc-ink'], palette['--loc-surface']), `${scheme} ink`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(palette['--loc-muted'], palette['--loc-surface']), `${scheme} muted`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(palette['--loc-danger'], palette['--loc-danger-surface']), `${scheme} danger`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(palette['--loc-on-accent'], palette['--loc-accent']), `${scheme} primary`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(palette['--loc-link'], palette['--loc-surface']), `${scheme} link`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(palette['--loc-focus'], palette['--loc-surface']), `${scheme} focus`).toBeGreaterThanOrEqual(3);
      expect(contrast(palette['--loc-cell'], [255, 255, 255]), `${scheme} cell`).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('contrast', () => {
  it('is WCAG 2’s ratio', () => {
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(ratioText(contrast([0x76, 0x76, 0x76], [255, 255, 255]))).toBe('4.54:1');
  });
});

describe('the integrator’s variables', () => {
  it('are applied when they read, with what they imply: the primary button’s text, the cell, the tints', () => {
    const checked = checkVariables({ colorPrimary: '#0b57d0', colorBackground: '#fffbe6', fontFamily: 'Georgia, serif', borderRadius: '2px' }, ['light'], reader);
    expect(checked.problems).toEqual([]);
    expect(propertiesOf(checked, base('light'))).toEqual({
      '--loc-accent': '#0b57d0',
      '--loc-on-accent': '#ffffff',
      '--loc-cell': '#0b57d0',
      '--loc-surface': '#fffbe6',
      '--loc-danger-surface': expect.stringMatching(/^#/),
      '--loc-accent-hover': expect.stringMatching(/^#/),
      '--loc-hover': expect.stringMatching(/^#/),
      '--loc-font': 'Georgia, serif',
      '--loc-radius': '2px',
    });
  });

  it('are refused, naming the variable, the pair and the ratio, when text would not read; the theme’s value stays', () => {
    const checked = checkVariables({ colorText: '#999999', colorMuted: '#5f6368' }, ['light'], reader);
    expect(checked.problems.map((problem) => [problem.code, problem.message])).toEqual([
      ['invalid_option', 'appearance.variables.colorText: colorText "#999999" gives text on the panel and controls a contrast of 2.84:1, below WCAG AA\'s 4.5:1; the theme\'s value is used instead.'],
    ]);
    expect(propertiesOf(checked, base('light'))).toEqual({ '--loc-muted': '#5f6368' });
  });

  it('keep a primary colour too light to outline the cell for the button, and outline it in the theme’s colour', () => {
    const checked = checkVariables({ colorPrimary: '#1a1a1a' }, ['light'], reader);
    expect(checked.problems).toEqual([]);
    const light = checkVariables({ colorPrimary: '#ffd54f' }, ['light'], reader);
    expect(light.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/^appearance\.variables\.colorPrimary: .* the cell outline on its white halo a contrast of 1\.\d+:1, below WCAG AA's 3:1/)]);
    expect(propertiesOf(light, base('light'))).toMatchObject({ '--loc-accent': '#ffd54f', '--loc-on-accent': '#000000' });
    expect(propertiesOf(light, base('light'))).not.toHaveProperty('--loc-cell');
  });

  it('under auto, are checked against both schemes and refused for both when either fails', () => {
    const checked = checkVariables({ colorText: '#202124' }, ['light', 'dark'], reader);
    expect(checked.problems.map((problem) => problem.message)).toEqual([expect.stringContaining('a contrast of 1:1 in the dark scheme')]);
    expect(propertiesOf(checked, base('light'))).toEqual({});
  });

  it('refuse what is not a colour, a length or a font list', () => {
    const checked = checkVariables({ colorDanger: 'reddish', borderRadius: 'inherit', fontFamily: 'x; } body { display: none' }, ['light'], reader);
    expect(checked.problems.map((problem) => problem.message)).toEqual([
      'appearance.variables.colorDanger "reddish" is not an opaque CSS colour; the theme\'s value is used instead.',
      'appearance.variables.borderRadius "inherit" is not a CSS length such as "4px"; the theme\'s value is used instead.',
      'appearance.variables.fontFamily "x; } body { display: none" is not a CSS font-family list; the theme\'s value is used instead.',
    ]);
    expect(propertiesOf(checked, base('light'))).toEqual({});
  });
});
