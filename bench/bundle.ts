/**
 * Bundle sizes of the embed against their budgets: the loader `loc-embed.js`, which every
 * integrator's page loads, and the map frame's script and styles together. Sizes are of the built,
 * minified files after gzip at level 9, in bytes (1 KB = 1024 bytes).
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { embedDir } from '../src/server/embed/files.ts';
import type { BenchRow } from './report.ts';

/** Budget of `loc-embed.js`, minified and gzipped. */
export const LOADER_BUDGET_BYTES = 3 * 1024;

/** Budget of the frame's `frame.js` and `frame.css` together, minified and gzipped. */
export const FRAME_BUDGET_BYTES = 70 * 1024;

/** Gzipped size of built embed files, summed. */
export function gzippedSize(...files: string[]): number {
  const dir = embedDir();
  return files.reduce((sum, file) => sum + gzipSync(readFileSync(`${dir}${file}`), { level: 9 }).length, 0);
}

export function bundleRows(): BenchRow[] {
  const row = (name: string, ours: number, budget: number): BenchRow => ({
    group: 'bundle',
    name,
    ours,
    peerName: 'budget',
    peer: budget,
    unit: 'bytes',
    higherIsBetter: false,
    budget: 1,
  });
  return [
    row('loc-embed.js (min+gzip)', gzippedSize('loc-embed.js'), LOADER_BUDGET_BYTES),
    row('frame.js + frame.css (min+gzip)', gzippedSize('frame.js', 'frame.css'), FRAME_BUDGET_BYTES),
  ];
}
