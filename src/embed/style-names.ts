/**
 * The names of the map styles. Apart from the service's tile layers (tiles/styles.ts) so that the
 * loader can check `options.style` without shipping a single provider URL; apart from the public
 * types so that the service, which draws and configures the styles, needs no browser types to name
 * them. style-names.test.ts holds the list and the public `LocStyle` to the same names.
 */

/** Every style, the default first. */
export const STYLE_NAMES = ['streets', 'satellite', 'traffic', 'biking'] as const;

export type StyleName = (typeof STYLE_NAMES)[number];
