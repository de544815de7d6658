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
