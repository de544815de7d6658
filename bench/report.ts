/**
 * Benchmark rows and their report. Every figure is a ratio against a peer measured in the same run,
 * so the report says how loc compares, not how fast this machine happens to be.
 */

export interface BenchRow {
  /** Section of the report: `codec`, `api`, `bundle`, `embed`, `start`. */
  group: string;
  /** What we measured, e.g. `encode`. */
  name: string;
  ours: number;
  /** The peer, e.g. `open-location-code encode (length 11)`; for sizes, the budget itself. */
  peerName: string;
  peer: number;
  /** Unit of `ours` and `peer`, e.g. `ops/s`, `req/s`, `bytes`, `ms`. */
  unit: string;
  higherIsBetter: boolean;
  /** Budget on ours / peer (a minimum when higher is better, else a maximum); none for context rows. */
  budget?: number;
  /** Extra figures, e.g. p99 latencies. */
  note?: string;
}

export function ratio(row: BenchRow): number {
  return row.ours / row.peer;
}

export function meetsBudget(row: BenchRow): boolean | null {
  if (row.budget === undefined) return null;
  return row.higherIsBetter ? ratio(row) >= row.budget : ratio(row) <= row.budget;
}

const format = (n: number): string =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 1 ? n.toFixed(2) : n.toPrecision(3);

/** The rows as a Markdown table. */
export function markdownTable(rows: BenchRow[]): string {
  const lines = [
    '| group | measure | loc | peer | peer value | ratio | budget | met | notes |',
    '|---|---|---:|---|---:|---:|---:|---|---|',
  ];
  for (const row of rows) {
    const met = meetsBudget(row);
    const budget = row.budget === undefined ? '—' : `${row.higherIsBetter ? '≥' : '≤'} ${row.budget}×`;
    lines.push(
      `| ${row.group} | ${row.name} | ${format(row.ours)} ${row.unit} | ${row.peerName} | ${format(row.peer)} ${row.unit} | ` +
        `${ratio(row).toFixed(2)}× | ${budget} | ${met === null ? '—' : met ? 'yes' : '**no**'} | ${row.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The rows whose ratio compares throughputs (per second, higher is better): the chart's bars. */
export const throughputRows = (rows: BenchRow[]): BenchRow[] => rows.filter((row) => row.higherIsBetter && row.unit.endsWith('/s'));

const CHART = { width: 820, label: 360, bar: 400, row: 34, top: 40, bottom: 34 } as const;

/**
 * A bar chart, as SVG, of the throughput ratios on a log scale: each bar runs from the 1× line, where
 * loc equals its peer, to loc ÷ peer — right when loc is faster, left when slower — and a black mark
 * stands at the budget where there is one; green bars meet their budget, red ones miss it, grey ones
 * have none. A few rectangles need no chart library.
 */
export function throughputChart(rows: BenchRow[]): string {
  const bars = throughputRows(rows);
  const values = bars.flatMap((row) => [ratio(row), row.budget ?? 1]);
  const low = 10 ** Math.floor(Math.log10(Math.min(1, ...values)));
  const high = 10 ** Math.ceil(Math.log10(Math.max(1, ...values)));
  const x = (value: number): number => CHART.label + (Math.log10(value / low) / Math.log10(high / low)) * CHART.bar;
  const ticks: number[] = [];
  for (let decade = low; decade <= high; decade *= 10) ticks.push(...[1, 2, 5].map((m) => m * decade).filter((t) => t <= high));
  const height = CHART.top + bars.length * CHART.row + CHART.bottom;
  const axisY = CHART.top + bars.length * CHART.row;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART.width}" height="${height}" viewBox="0 0 ${CHART.width} ${height}" font-family="sans-serif" font-size="12">`,
    '<title>loc throughput ÷ peer throughput</title>',
    `<rect width="${CHART.width}" height="${height}" fill="#fff"/>`,
    `<text x="${CHART.label}" y="20" font-weight="bold">loc ÷ peer, throughput (log scale; right of 1× loc is faster; black mark: budget)</text>`,
  ];
  for (const tick of ticks) {
    const label = tick < 1 ? tick.toFixed(Math.max(1, -Math.floor(Math.log10(tick)))) : String(tick);
    parts.push(
      `<line x1="${x(tick).toFixed(1)}" y1="${CHART.top - 4}" x2="${x(tick).toFixed(1)}" y2="${axisY}" stroke="#eee"/>`,
      `<text x="${x(tick).toFixed(1)}" y="${axisY + 16}" text-anchor="middle" fill="#555">${label}×</text>`,
    );
  }
  for (const [i, row] of bars.entries()) {
    const y = CHART.top + i * CHART.row;
    const met = meetsBudget(row);
    const colour = met === null ? '#9aa5b1' : met ? '#2f9e44' : '#e03131';
    const [from, to] = [x(Math.min(1, ratio(row))), x(Math.max(1, ratio(row)))];
    const faster = ratio(row) >= 1;
    // The value stands clear of the bar and of the budget mark.
    const mark = row.budget === undefined ? null : x(row.budget);
    const valueX = faster ? Math.max(to, mark ?? to) + 4 : Math.min(from, mark ?? from) - 4;
    parts.push(
      `<text x="${CHART.label - 8}" y="${y + 14}" text-anchor="end">${escapeXml(`${row.group} ${row.name}`)}</text>`,
      `<text x="${CHART.label - 8}" y="${y + 27}" text-anchor="end" fill="#666" font-size="11">${escapeXml(`vs ${row.peerName}`)}</text>`,
      `<rect x="${from.toFixed(1)}" y="${y + 7}" width="${(to - from).toFixed(1)}" height="${CHART.row - 14}" fill="${colour}"/>`,
      `<text x="${valueX.toFixed(1)}" y="${y + 21}" text-anchor="${faster ? 'start' : 'end'}" fill="#222">${ratio(row).toFixed(2)}×</text>`,
    );
    if (mark !== null) parts.push(`<line x1="${mark.toFixed(1)}" y1="${y + 3}" x2="${mark.toFixed(1)}" y2="${y + CHART.row - 3}" stroke="#000" stroke-width="2"/>`);
  }
  parts.push(
    `<line x1="${x(1).toFixed(1)}" y1="${CHART.top - 4}" x2="${x(1).toFixed(1)}" y2="${axisY}" stroke="#555" stroke-dasharray="4 3"/>`,
    `<line x1="${CHART.label}" y1="${axisY}" x2="${CHART.label + CHART.bar}" y2="${axisY}" stroke="#555"/>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
