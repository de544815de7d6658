/**
 * Bundle sizes of the embed against their budgets: the loader `loc-embed.js`, which every
 * integrator's page loads, the form field's `loc-picker.js`, the map frame's script and styles
 * together, and the integrators' package's entries, which their bundles take in. Sizes are of the
 * built, minified files after gzip at level 9, in bytes (1 KB = 1024 bytes); the package ships
 * unminified, as libraries do, so its entries are measured as an integrator's bundler would minify
 * them, with what they import from the package and without React or Vue, which the page has anyway.
 */
import { buildSync } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { embedDir } from '../src/server/embed/files.ts';
import type { BenchRow } from './report.ts';

/** Budget of `loc-embed.js`, minified and gzipped. */
export const LOADER_BUDGET_BYTES = 4 * 1024;

/**
 * Budget of `loc-picker.js`, the form field's own script, minified and gzipped; the loc-js/picker
 * entry, the same element for bundlers, is held to it too.
 */
export const PICKER_BUDGET_BYTES = 4 * 1024;

/** Budget of the frame's `frame.js` and `frame.css` together, minified and gzipped. */
export const FRAME_BUDGET_BYTES = 70 * 1024;

/** Budget of the `loc-js/embed` entry with everything it imports, minified and gzipped. */
export const LOC_JS_EMBED_BUDGET_BYTES = 1.5 * 1024;

/** Budget of the `loc-js/react` entry with what it imports from the package (`loc-js/embed`), React aside, minified and gzipped. */
export const LOC_JS_REACT_BUDGET_BYTES = 2.5 * 1024;

/** Budget of the `loc-js/vue` entry with what it imports from the package (`loc-js/embed`), Vue aside, minified and gzipped. */
export const LOC_JS_VUE_BUDGET_BYTES = 2.5 * 1024;

/** Budget of the `loc-js/codec` entry with the codec it bundles, the table aside (it is fetched), minified and gzipped. */
export const LOC_JS_CODEC_BUDGET_BYTES = 10 * 1024;

/**
 * Budget of each of the entries for the integrator's own map — `loc-js/grid`, and `loc-js/leaflet` and
 * `loc-js/maplibre` with it — Leaflet and MapLibre aside, minified and gzipped.
 */
export const LOC_JS_LAYER_BUDGET_BYTES = 3 * 1024;

/** The built ESM entries of loc-js. */
const LOC_JS_DIST = join(import.meta.dirname, '../packages/loc-js/dist');

/**
 * Gzipped size of a loc-js entry (`embed`, `react`, `vue`, `code`, `leaflet`…) bundled with what it
 * imports but the page's own libraries (React, Vue, Leaflet, MapLibre) and minified, as an
 * integrator's build would.
 */
export function locJsEntrySize(entry: string): number {
  const external = ['react', 'vue', 'leaflet', 'maplibre-gl'];
  const { outputFiles } = buildSync({ entryPoints: [join(LOC_JS_DIST, `${entry}.js`)], bundle: true, minify: true, format: 'esm', external, write: false, logLevel: 'silent' });
  return gzipSync(outputFiles[0].contents, { level: 9 }).length;
}

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
    row('loc-picker.js, the form field (min+gzip)', gzippedSize('loc-picker.js'), PICKER_BUDGET_BYTES),
    row('loc-js/embed entry (min+gzip)', locJsEntrySize('embed'), LOC_JS_EMBED_BUDGET_BYTES),
    row('loc-js/react entry, React aside (min+gzip)', locJsEntrySize('react'), LOC_JS_REACT_BUDGET_BYTES),
    row('loc-js/vue entry, Vue aside (min+gzip)', locJsEntrySize('vue'), LOC_JS_VUE_BUDGET_BYTES),
    row('loc-js/picker entry (min+gzip)', locJsEntrySize('picker'), PICKER_BUDGET_BYTES),
    row('loc-js/codec entry, the table aside (min+gzip)', locJsEntrySize('codec'), LOC_JS_CODEC_BUDGET_BYTES),
    row('loc-js/grid entry (min+gzip)', locJsEntrySize('grid'), LOC_JS_LAYER_BUDGET_BYTES),
    row('loc-js/leaflet entry, Leaflet aside (min+gzip)', locJsEntrySize('leaflet'), LOC_JS_LAYER_BUDGET_BYTES),
    row('loc-js/maplibre entry, MapLibre aside (min+gzip)', locJsEntrySize('maplibre'), LOC_JS_LAYER_BUDGET_BYTES),
    row('frame.js + frame.css (min+gzip)', gzippedSize('frame.js', 'frame.css'), FRAME_BUDGET_BYTES),
  ];
}
