/** The benchmark report: the Markdown table and the SVG chart of throughput ratios. */
import { describe, expect, it } from 'vitest';
import { markdownTable, throughputChart, type BenchRow } from './report.ts';

const row = (name: string, ours: number, peer: number, extra: Partial<BenchRow> = {}): BenchRow => ({
  group: 'codec', name, ours, peerName: `peer of ${name}`, peer, unit: 'ops/s', higherIsBetter: true, ...extra,
});

const ROWS: BenchRow[] = [
  row('encode', 3, 2, { budget: 2 }),
  row('decode', 12, 2, { budget: 5 }),
  row('<lookup & co>', 1, 2, { group: 'api', unit: 'req/s' }),
  row('loader', 2000, 3072, { group: 'bundle', unit: 'bytes', higherIsBetter: false, budget: 1 }),
];

describe('throughputChart', () => {
  const svg = throughputChart(ROWS);
  const bars = [...svg.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="20" fill="(#\w+)"\/>/g)]
    .map(([, x, width, fill]) => ({ x: Number(x), width: Number(width), fill }));

  it('draws one bar per throughput ratio, none for sizes or times', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(bars).toHaveLength(3);
    expect(svg).not.toContain('loader');
  });

  it('runs each bar from 1× to the ratio on a log scale, coloured by its budget', () => {
    const one = bars[0].x;
    expect(bars[1].x).toBe(one);
    expect(bars[2].x + bars[2].width).toBeCloseTo(one, 0);
    expect(bars[1].width / bars[0].width).toBeCloseTo(Math.log(6) / Math.log(1.5), 1);
    expect(bars[2].width / bars[0].width).toBeCloseTo(Math.log(2) / Math.log(1.5), 1);
    expect(bars.map((bar) => bar.fill)).toEqual(['#e03131', '#2f9e44', '#9aa5b1']);
    expect(svg).toContain('>1.50×<');
    expect(svg).toContain('>0.50×<');
  });

  it('marks each budget, and escapes labels', () => {
    expect(svg.match(/stroke="#000" stroke-width="2"/g)).toHaveLength(2);
    expect(svg).toContain('>api &lt;lookup &amp; co&gt;<');
    expect(svg).toContain('>vs peer of &lt;lookup &amp; co&gt;<');
  });
});

describe('markdownTable', () => {
  it('writes a row per measure with its ratio and whether the budget is met', () => {
    const lines = markdownTable(ROWS).split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[2]).toBe('| codec | encode | 3.00 ops/s | peer of encode | 2.00 ops/s | 1.50× | ≥ 2× | **no** |  |');
    expect(lines[4]).toMatch(/\| 0\.50× \| — \| — \|/);
    expect(lines[5]).toMatch(/\| 0\.65× \| ≤ 1× \| yes \|/);
  });
});
