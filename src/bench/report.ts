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

const CHART = { width: 760, label: 330, bar: 340, row: 24, top: 36, bottom: 34 } as const;

/**
 * A horizontal bar chart, as SVG, of the throughput ratios: a bar per row from 0 to loc ÷ peer, the
 * 1× line where loc equals its peer, and a mark at the budget where there is one; green bars meet
 * their budget, red ones miss it, grey ones have none. A few rectangles need no chart library.
 */
export function throughputChart(rows: BenchRow[]): string {
  const bars = throughputRows(rows);
  const top = Math.max(1, ...bars.map((row) => Math.max(ratio(row), row.budget ?? 0)));
  const step = top <= 5 ? 1 : top <= 12 ? 2 : 5;
  const max = Math.ceil((top * 1.05) / step) * step;
  const x = (value: number): number => CHART.label + (value / max) * CHART.bar;
  const height = CHART.top + bars.length * CHART.row + CHART.bottom;
  const axisY = CHART.top + bars.length * CHART.row;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART.width}" height="${height}" viewBox="0 0 ${CHART.width} ${height}" font-family="sans-serif" font-size="12">`,
    '<title>loc throughput ÷ peer throughput</title>',
    `<rect width="${CHART.width}" height="${height}" fill="#fff"/>`,
    `<text x="${CHART.label}" y="20" font-weight="bold">loc ÷ peer, throughput (higher is better; mark: budget)</text>`,
  ];
  for (let tick = 0; tick <= max; tick += step) {
    parts.push(
      `<line x1="${x(tick)}" y1="${CHART.top - 4}" x2="${x(tick)}" y2="${axisY}" stroke="#eee"/>`,
      `<text x="${x(tick)}" y="${axisY + 16}" text-anchor="middle" fill="#555">${tick}×</text>`,
    );
  }
  for (const [i, row] of bars.entries()) {
    const y = CHART.top + i * CHART.row;
    const met = meetsBudget(row);
    const colour = met === null ? '#9aa5b1' : met ? '#2f9e44' : '#e03131';
    parts.push(
      `<text x="${CHART.label - 8}" y="${y + 15}" text-anchor="end">${escapeXml(`${row.group} ${row.name} vs ${row.peerName}`)}</text>`,
      `<rect x="${CHART.label}" y="${y + 4}" width="${(x(ratio(row)) - CHART.label).toFixed(1)}" height="${CHART.row - 8}" fill="${colour}"/>`,
      `<text x="${x(ratio(row)) + 4}" y="${y + 15}" fill="#222">${ratio(row).toFixed(2)}×</text>`,
    );
    if (row.budget !== undefined) {
      parts.push(`<line x1="${x(row.budget)}" y1="${y + 1}" x2="${x(row.budget)}" y2="${y + CHART.row - 1}" stroke="#000" stroke-width="2"/>`);
    }
  }
  parts.push(
    `<line x1="${x(1)}" y1="${CHART.top - 4}" x2="${x(1)}" y2="${axisY}" stroke="#555" stroke-dasharray="4 3"/>`,
    `<line x1="${CHART.label}" y1="${axisY}" x2="${CHART.label + CHART.bar}" y2="${axisY}" stroke="#555"/>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
