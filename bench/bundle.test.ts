import { describe, expect, it } from 'vitest';
import { FRAME_BUDGET_BYTES, LOADER_BUDGET_BYTES, LOC_JS_CODEC_BUDGET_BYTES, LOC_JS_EMBED_BUDGET_BYTES, LOC_JS_LAYER_BUDGET_BYTES, LOC_JS_REACT_BUDGET_BYTES, LOC_JS_VUE_BUDGET_BYTES, PICKER_BUDGET_BYTES, bundleRows, gzippedSize, locJsEntrySize } from './bundle.ts';
import { meetsBudget } from './report.ts';

describe('embed bundle budgets', () => {
  it('keep loc-embed.js within 4 KB minified and gzipped', () => {
    expect(gzippedSize('loc-embed.js')).toBeLessThanOrEqual(LOADER_BUDGET_BYTES);
  });

  it('keep loc-picker.js, and the loc-js/picker entry with what it imports, within 4 KB minified and gzipped', () => {
    // Each takes in the script's loader: more than loc-js/embed alone.
    for (const size of [gzippedSize('loc-picker.js'), locJsEntrySize('picker')]) {
      expect(size).toBeGreaterThan(locJsEntrySize('embed') + 1000);
      expect(size).toBeLessThanOrEqual(PICKER_BUDGET_BYTES);
    }
  });

  it('keep the frame’s script and styles within 70 KB minified and gzipped', () => {
    expect(gzippedSize('frame.js', 'frame.css')).toBeLessThanOrEqual(FRAME_BUDGET_BYTES);
  });

  it('keep the loc-js/embed entry within 1.5 KB minified and gzipped, with what it imports', () => {
    const size = locJsEntrySize('embed');
    // A real measurement of a real bundle: an empty or failed build would pass the budget too.
    expect(size).toBeGreaterThan(400);
    expect(size).toBeLessThanOrEqual(LOC_JS_EMBED_BUDGET_BYTES);
  });

  it('keep the loc-js/react entry within 2.5 KB minified and gzipped, with loc-js/embed and without React', () => {
    const size = locJsEntrySize('react');
    // It takes in the embed entry: more than that alone, and React left out.
    expect(size).toBeGreaterThan(locJsEntrySize('embed') + 300);
    expect(size).toBeLessThanOrEqual(LOC_JS_REACT_BUDGET_BYTES);
  });

  it('keep the loc-js/vue entry within 2.5 KB minified and gzipped, with loc-js/embed and without Vue', () => {
    const size = locJsEntrySize('vue');
    // It takes in the embed entry: more than that alone, and Vue (tens of KB) left out.
    expect(size).toBeGreaterThan(locJsEntrySize('embed') + 300);
    expect(size).toBeLessThanOrEqual(LOC_JS_VUE_BUDGET_BYTES);
  });

  it('keep the loc-js/codec entry within 10 KB minified and gzipped, the codec in and the table out', () => {
    const size = locJsEntrySize('codec');
    // The whole codec is in it (border test, fills, block index): several KB; the 384 KB table is not.
    expect(size).toBeGreaterThan(5 * 1024);
    expect(size).toBeLessThanOrEqual(LOC_JS_CODEC_BUDGET_BYTES);
  });

  it('keep loc-js/grid, and loc-js/leaflet and loc-js/maplibre with it, within 3 KB each minified and gzipped, without Leaflet and MapLibre', () => {
    const grid = locJsEntrySize('grid');
    // The grid's math and the table's reader: a real bundle, not an empty one.
    expect(grid).toBeGreaterThan(1000);
    for (const entry of ['grid', 'leaflet', 'maplibre']) expect(locJsEntrySize(entry), entry).toBeLessThanOrEqual(LOC_JS_LAYER_BUDGET_BYTES);
    // Each layer takes in the grid entry and adds its map's part; Leaflet itself (about 40 KB) stays out.
    for (const entry of ['leaflet', 'maplibre']) expect(locJsEntrySize(entry) - grid, entry).toBeGreaterThan(200);
    expect(locJsEntrySize('leaflet')).toBeLessThan(grid + 2000);
  });

  it('report each as a bench row that meets its budget', () => {
    const rows = bundleRows();
    expect(rows.map((row) => [row.name, row.group, row.peerName, row.unit, row.higherIsBetter, row.budget])).toEqual([
      ['loc-embed.js (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-picker.js, the form field (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/embed entry (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/react entry, React aside (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/vue entry, Vue aside (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/picker entry (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/codec entry, the table aside (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/grid entry (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/leaflet entry, Leaflet aside (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['loc-js/maplibre entry, MapLibre aside (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
      ['frame.js + frame.css (min+gzip)', 'bundle', 'budget', 'bytes', false, 1],
    ]);
    expect(rows.map(meetsBudget)).toEqual(rows.map(() => true));
  });
});
