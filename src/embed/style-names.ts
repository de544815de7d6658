/**
 * The names of the map styles. Apart from styles.ts (their tile layers) so that the loader can check
 * `options.style` without shipping a single provider URL.
 */
import type { LocStyle } from './public-types.ts';

/** Every style, the default first. */
export const STYLE_NAMES = ['streets', 'satellite', 'traffic', 'biking'] as const satisfies readonly LocStyle[];

export type StyleName = (typeof STYLE_NAMES)[number];

/** Compiles only while the public `LocStyle` names no style missing from the list. */
export type EveryStyleListed = Exclude<LocStyle, StyleName> extends never ? true : never;
export const everyStyleListed: EveryStyleListed = true;
