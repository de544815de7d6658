/**
 * WCAG 2 contrast between two opaque sRGB colours, and the mixes the frame derives from a colour it
 * is given (a hover tint, a message's background): the arithmetic of appearance.ts's checks.
 */

/** An opaque colour, 0–255 per channel. */
export type Rgb = readonly [number, number, number];

/** WCAG 2's relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two colours, from 1 to 21, whichever is lighter. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** `share` of `a` over `1 - share` of `b`, channel by channel, as `color-mix(in srgb, …)` mixes. */
export function mix(a: Rgb, b: Rgb, share: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i] * share + b[i] * (1 - share))) as unknown as Rgb;
}

export const WHITE: Rgb = [255, 255, 255];
export const BLACK: Rgb = [0, 0, 0];

/** Of white and black, the one that reads better on `background`. */
export function readableOn(background: Rgb): Rgb {
  return contrast(WHITE, background) >= contrast(BLACK, background) ? WHITE : BLACK;
}

/** `#rrggbb`, for a custom property. */
export function hex(rgb: Rgb): string {
  return `#${rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

/** A ratio as WCAG writes it: `4.48:1`, cut rather than rounded up past a threshold. */
export function ratioText(ratio: number): string {
  return `${Math.floor(ratio * 100) / 100}:1`;
}
