/**
 * The frame's look: a theme of frame.css — light, dark, or auto, which follows the visitor's colour
 * scheme as it changes — and the integrator's variables over it. The loader checked their names and
 * that they are strings; here each value is checked for what it must be (a colour, a length, a font
 * list) and each colour for contrast against what it is shown with (WCAG AA: 4.5:1 for text, 3:1 for
 * the cell outline and the focus ring), in every scheme it may be shown in. A value that fails is not
 * applied — the theme's stays — and is reported as `invalid_option`: the map must stay readable
 * whatever an integrator passes.
 */
import type { LocAppearance, LocAppearanceVariables } from '../src/embed/public-types.ts';
import { EmbedFailure } from './api.ts';
import { BLACK, WHITE, contrast, hex, mix, ratioText, readableOn, type Rgb } from './contrast.ts';

type Scheme = 'light' | 'dark';
type Variable = keyof LocAppearanceVariables;
type ColourVariable = Exclude<Variable, 'fontFamily' | 'borderRadius'>;

/** The frame.css properties a theme sets, as the checks read them. */
const THEME_PROPERTIES = ['--loc-accent', '--loc-on-accent', '--loc-cell', '--loc-surface', '--loc-ink', '--loc-muted', '--loc-danger', '--loc-danger-surface', '--loc-link', '--loc-focus'] as const;
type ThemeProperty = (typeof THEME_PROPERTIES)[number];
type Palette = Record<ThemeProperty, Rgb>;

/** A pair of colours shown together, the least contrast it needs, and the variables that set it. */
interface Pair {
  front: ThemeProperty | 'halo';
  back: ThemeProperty | 'halo';
  least: number;
  what: string;
  by: ColourVariable[];
}

const PAIRS: Pair[] = [
  { front: '--loc-ink', back: '--loc-surface', least: 4.5, what: 'text on the panel and controls', by: ['colorText', 'colorBackground'] },
  { front: '--loc-muted', back: '--loc-surface', least: 4.5, what: 'secondary text on the panel', by: ['colorMuted', 'colorBackground'] },
  { front: '--loc-danger', back: '--loc-danger-surface', least: 4.5, what: 'the error message on its tint', by: ['colorDanger', 'colorBackground'] },
  { front: '--loc-on-accent', back: '--loc-accent', least: 4.5, what: 'the text of the primary button on it', by: ['colorPrimary'] },
  { front: '--loc-link', back: '--loc-surface', least: 4.5, what: 'links (attributions) on the controls', by: ['colorBackground'] },
  { front: '--loc-focus', back: '--loc-surface', least: 3, what: 'the focus ring on the panel', by: ['colorBackground'] },
  // The outline is drawn on a white halo, which keeps it apart from any tiles (selection.ts).
  { front: '--loc-cell', back: 'halo', least: 3, what: 'the cell outline on its white halo', by: ['colorCell', 'colorPrimary'] },
];

/** How much of the danger colour tints the message line's background (over the surface). */
const DANGER_TINT = 0.12;

/** What the frame asks of the browser's CSS; a test may stand in for it. */
export interface ColourReader {
  /** `CSS.supports(property, value)`. */
  supports(property: string, value: string): boolean;
  /** An opaque colour as RGB; undefined when `value` is not a colour, or not opaque. */
  rgb(value: string): Rgb | undefined;
  /** The value of a custom property under a scheme's theme. */
  themeValue(scheme: Scheme, property: ThemeProperty): string;
}

/** The colours, the font and the radius the frame accepted, and what it reports of the rest. */
export interface CheckedAppearance {
  colours: Partial<Record<ColourVariable, Rgb>>;
  /** Whether the cell takes `colorPrimary` (no `colorCell`, and the primary reads on the halo). */
  primaryOutlinesCell: boolean;
  fontFamily?: string;
  borderRadius?: string;
  problems: EmbedFailure[];
}

const where = (name: Variable) => `appearance.variables.${name}`;

/** A scheme's theme as the browser reads it from frame.css. */
function themePalette(reader: ColourReader, scheme: Scheme): Palette {
  return Object.fromEntries(THEME_PROPERTIES.map((property) => [property, reader.rgb(reader.themeValue(scheme, property)) ?? BLACK])) as Palette;
}

/** The theme's palette with the accepted colours over it, derived colours derived, for one scheme. */
function paletteOf(base: Palette, { colours, primaryOutlinesCell }: Pick<CheckedAppearance, 'colours' | 'primaryOutlinesCell'>): Palette {
  const surface = colours.colorBackground ?? base['--loc-surface'];
  const danger = colours.colorDanger ?? base['--loc-danger'];
  return {
    ...base,
    '--loc-accent': colours.colorPrimary ?? base['--loc-accent'],
    '--loc-on-accent': colours.colorPrimary ? readableOn(colours.colorPrimary) : base['--loc-on-accent'],
    '--loc-cell': colours.colorCell ?? (primaryOutlinesCell ? colours.colorPrimary : undefined) ?? base['--loc-cell'],
    '--loc-surface': surface,
    '--loc-ink': colours.colorText ?? base['--loc-ink'],
    '--loc-muted': colours.colorMuted ?? base['--loc-muted'],
    '--loc-danger': danger,
    '--loc-danger-surface': colours.colorDanger || colours.colorBackground ? mix(danger, surface, DANGER_TINT) : base['--loc-danger-surface'],
  };
}

/**
 * Checks `variables` for the schemes they may be shown in. Pairs are judged in order with what was
 * accepted so far; a failing pair drops the integrator's variables in it, so that the theme's pair,
 * which passes, shows instead.
 */
export function checkVariables(variables: LocAppearanceVariables, schemes: Scheme[], reader: ColourReader): CheckedAppearance {
  const checked: CheckedAppearance = { colours: {}, primaryOutlinesCell: variables.colorCell === undefined, problems: [] };
  const refuse = (name: Variable, value: string, why: string) =>
    checked.problems.push(new EmbedFailure('invalid_option', `${where(name)} ${JSON.stringify(value)} ${why}; the theme's value is used instead.`));

  for (const [name, value] of Object.entries(variables) as [Variable, string | undefined][]) {
    if (value === undefined) continue;
    if (name === 'fontFamily') {
      if (/[;{}]/.test(value) || !reader.supports('font-family', value)) refuse(name, value, 'is not a CSS font-family list');
      else checked.fontFamily = value;
    } else if (name === 'borderRadius') {
      // A length or a percentage, not a keyword such as `inherit` that would take the page's nothing.
      if (!/^[\d.]/.test(value.trim()) || !reader.supports('border-radius', value)) refuse(name, value, 'is not a CSS length such as "4px"');
      else checked.borderRadius = value;
    } else {
      const rgb = reader.supports('color', value) ? reader.rgb(value) : undefined;
      if (rgb) checked.colours[name] = rgb;
      else refuse(name, value, 'is not an opaque CSS colour');
    }
  }

  for (const scheme of schemes) {
    const base = themePalette(reader, scheme);
    for (const pair of PAIRS) {
      const palette = paletteOf(base, checked);
      const colour = (side: Pair['front']) => (side === 'halo' ? WHITE : palette[side]);
      const ratio = contrast(colour(pair.front), colour(pair.back));
      if (ratio >= pair.least) continue;
      // The cell's outline takes colorPrimary only when there is no colorCell: only one of them is to blame.
      const given = pair.by.filter((name) => checked.colours[name] && (pair.front !== '--loc-cell' || name === 'colorCell' || checked.primaryOutlinesCell));
      // The theme's own pairs pass (the browser suite runs axe on each theme): nothing here to refuse.
      if (given.length === 0) continue;
      const names = given.map((name) => `${name} ${JSON.stringify(variables[name])}`).join(' with ');
      const inScheme = schemes.length > 1 ? ` in the ${scheme} scheme` : '';
      checked.problems.push(
        new EmbedFailure(
          'invalid_option',
          `${given.map(where).join(' and ')}: ${names} gives ${pair.what} a contrast of ${ratioText(ratio)}${inScheme}, below WCAG AA's ${pair.least}:1; the theme's value is used instead.`,
        ),
      );
      for (const name of given) {
        // A primary colour too light for the outline still colours the button, which passed its own check.
        if (pair.front === '--loc-cell' && name === 'colorPrimary') checked.primaryOutlinesCell = false;
        else delete checked.colours[name];
      }
    }
  }
  return checked;
}

/** The custom properties that put the accepted variables over a scheme's theme. */
export function propertiesOf(checked: CheckedAppearance, base: Palette): Record<string, string> {
  const palette = paletteOf(base, checked);
  const { colours } = checked;
  const properties: Record<string, string> = {};
  const set = (property: ThemeProperty, when: unknown) => {
    if (when) properties[property] = hex(palette[property]);
  };
  set('--loc-accent', colours.colorPrimary);
  set('--loc-on-accent', colours.colorPrimary);
  set('--loc-cell', colours.colorCell ?? (checked.primaryOutlinesCell && colours.colorPrimary));
  set('--loc-surface', colours.colorBackground);
  set('--loc-ink', colours.colorText);
  set('--loc-muted', colours.colorMuted);
  set('--loc-danger', colours.colorDanger);
  set('--loc-danger-surface', colours.colorDanger || colours.colorBackground);
  // Hover states: a step from the colour away from its text, so the text reads on it as well as before.
  if (colours.colorPrimary) properties['--loc-accent-hover'] = hex(mix(colours.colorPrimary, readableOn(colours.colorPrimary) === WHITE ? BLACK : WHITE, 0.85));
  if (colours.colorBackground) properties['--loc-hover'] = hex(mix(colours.colorBackground, palette['--loc-ink'], 0.92));
  if (checked.fontFamily) properties['--loc-font'] = checked.fontFamily;
  if (checked.borderRadius) properties['--loc-radius'] = checked.borderRadius;
  return properties;
}

/** Reads colours as the browser paints them: a 1 px canvas gives any CSS colour's sRGB bytes. */
function browserReader(doc: Document): ColourReader {
  const context = doc.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const root = doc.documentElement;
  return {
    supports: (property, value) => CSS.supports(property, value),
    rgb(value) {
      if (!context) return undefined;
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = '#000';
      context.fillStyle = value;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      return a === 255 ? [r, g, b] : undefined;
    },
    themeValue(scheme, property) {
      const before = root.dataset.theme;
      root.dataset.theme = scheme;
      const value = getComputedStyle(root).getPropertyValue(property).trim();
      if (before === undefined) delete root.dataset.theme;
      else root.dataset.theme = before;
      return value;
    },
  };
}

/**
 * Puts `appearance` on the frame: `<html data-theme>` (light or dark; under auto, the visitor's scheme,
 * followed as it changes) and the accepted variables as custom properties. Returns what the page's
 * `onError` is to hear (`invalid_option`), told at init.
 */
export function applyAppearance(doc: Document, appearance: LocAppearance): EmbedFailure[] {
  const root = doc.documentElement;
  const theme = appearance.theme ?? 'light';
  const dark = theme === 'auto' ? window.matchMedia?.('(prefers-color-scheme: dark)') : undefined;
  const scheme = (): Scheme => (theme === 'auto' ? (dark?.matches ? 'dark' : 'light') : theme);
  const variables = appearance.variables ?? {};
  if (Object.keys(variables).length === 0) {
    root.dataset.theme = scheme();
    dark?.addEventListener?.('change', () => (root.dataset.theme = scheme()));
    return [];
  }
  const reader = browserReader(doc);
  const checked = checkVariables(variables, theme === 'auto' ? ['light', 'dark'] : [theme], reader);
  const show = () => {
    root.dataset.theme = scheme();
    // Derived colours (a tint, a hover) depend on the theme under them: set anew for each scheme.
    for (const property of [...root.style].filter((name) => name.startsWith('--loc-'))) root.style.removeProperty(property);
    for (const [property, value] of Object.entries(propertiesOf(checked, themePalette(reader, scheme())))) root.style.setProperty(property, value);
  };
  show();
  dark?.addEventListener?.('change', show);
  return checked.problems;
}
