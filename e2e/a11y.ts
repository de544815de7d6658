/**
 * What the accessibility spec measures with: axe-core run inside a page or a frame (the picker's frame
 * is cross-origin, so axe is injected into that frame's own document, never run from the page), and
 * WCAG's contrast ratio, for what axe cannot judge — colours drawn over map tiles, read from screenshots.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from '@playwright/test';
import type { AxeResults, ImpactValue } from 'axe-core';

declare global {
  interface Window {
    axe?: typeof import('axe-core');
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule that failed, where: enough to find it, short enough to read in an assertion's diff. */
export interface Violation {
  rule: string;
  impact: ImpactValue | null | undefined;
  targets: string[];
}

/**
 * axe's violations in `target`'s document, with its default rules (WCAG 2.0–2.2 A and AA and best
 * practices). Frames inside it are not followed: each frame is run on its own.
 */
export async function axeViolations(target: Page | Frame): Promise<Violation[]> {
  if (!(await target.evaluate(() => window.axe !== undefined))) await target.evaluate(AXE_SOURCE);
  const results = (await target.evaluate(() => window.axe!.run(document, { iframes: false, resultTypes: ['violations'] }))) as AxeResults;
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

/** Those of serious or critical impact. */
export const serious = (violations: Violation[]): Violation[] =>
  violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');

export type Rgb = readonly [number, number, number];

/** WCAG 2 relative luminance of an sRGB colour. */
export function luminance([r, g, b]: Rgb): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** `rgb(…)`/`rgba(…)` as computed styles write it. */
export function parseRgb(css: string): Rgb {
  const [r, g, b] = css.match(/[\d.]+/g)!.map(Number);
  return [r, g, b];
}
