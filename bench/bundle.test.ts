import { describe, expect, it } from 'vitest';
import { FRAME_BUDGET_BYTES, LOADER_BUDGET_BYTES, bundleRows, gzippedSize } from './bundle.ts';
import { meetsBudget } from './report.ts';

describe('embed bundle budgets', () => {
  it('keep loc-embed.js within 3 KB minified and gzipped', () => {
    expect(gzippedSize('loc-embed.js')).toBeLessThanOrEqual(LOADER_BUDGET_BYTES);
  });

  it('keep the frame’s script and styles within 70 KB minified and gzipped', () => {
    expect(gzippedSize('frame.js', 'frame.css')).toBeLessThanOrEqual(FRAME_BUDGET_BYTES);
  });

  it('report both as bench rows that meet their budget', () => {
    const rows = bundleRows();
    expect(rows.map((row) => [row.group, row.peerName, row.unit, row.higherIsBetter, row.budget])).toEqual([
      ['bundle', 'budget', 'bytes', false, 1],
      ['bundle', 'budget', 'bytes', false, 1],
    ]);
    expect(rows.map(meetsBudget)).toEqual([true, true]);
  });
});
