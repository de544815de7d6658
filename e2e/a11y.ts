/**
 * What the accessibility spec measures with: axe-core run inside a page or a frame (the picker's frame
 * is cross-origin, so axe is injected into that frame's own document, never run from the page), and
 * WCAG's contrast ratio, for what axe cannot judge — colours drawn over map tiles, read from screenshots.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from '@playwright/test';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { Rgb } from '../iframe-app/contrast.ts';

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

// The frame's own WCAG arithmetic (its appearance checks use it): one formula, two uses.
export { contrast } from '../iframe-app/contrast.ts';
export type { Rgb };

/** `rgb(…)`/`rgba(…)` as computed styles write it. */
export function parseRgb(css: string): Rgb {
  const [r, g, b] = css.match(/[\d.]+/g)!.map(Number);
  return [r, g, b];
}
