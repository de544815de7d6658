/**
 * A key's usage on its page (limits/usage-report.ts): requests per hour as a chart drawn on the server
 * (inline SVG, no script and no inline style, which the panel's CSP forbids: colours are classes of
 * panel.css), the same figures as a table (per hour; per day over more than a week) for screen readers
 * and anyone who wants numbers, and the
 * totals with refusals by reason, each with what the partner can do about it.
 *
 * The parts whose figures change are live regions (panel-app/live.ts): a person watching the page
 * sees traffic arrive without reloading. Only the one-line summary is announced (`aria-live`); the
 * chart and tables update silently, and the table sits inside its <details> so that refreshing it
 * does not close it.
 */
import { LAST_USE_WRITE_EVERY_MS } from '../../auth/key-uses.ts';
import { DAY_MS, HOUR_MS } from '../../durations.ts';
import { DEFAULT_USAGE_DAYS, USAGE_KEPT_MS, type ReportHour, type UsageReport } from '../../limits/usage-report.ts';
import { REFUSAL_REASONS, type RefusalReason, type TrafficKind } from '../../store/usage-store.ts';
import { escapeHtml, scrollingTable, seconds, time, type LiveIntervals } from './layout.ts';

/** The periods a person can choose: a day, a week, and all that is kept. */
export const USAGE_DAY_CHOICES = [1, 7, 35] as const;


/**
 * The days a `?days=` asks for, as one of the choices: the nearest one (3 → 1, 20 → 7, 1000 → 35), the
 * default for anything that is not a number. A bookmark with another value still shows a page.
 */
export function usageDays(input: unknown): number {
  const days = typeof input === 'string' && /^\s*\d{1,9}(\.\d+)?\s*$/.test(input) ? Number(input) : Number.NaN;
  if (Number.isNaN(days)) return DEFAULT_USAGE_DAYS;
  return USAGE_DAY_CHOICES.reduce<number>((best, choice) => (Math.abs(choice - days) < Math.abs(best - days) ? choice : best), USAGE_DAY_CHOICES[0]);
}

/** Each reason of refusal: its name on the page, and what the partner can do (fixed texts, with links to the page's sections). */
export const REFUSALS: Readonly<Record<RefusalReason, { name: string; remedy: string }>> = {
  limit: { name: 'Rate limit: the hourly limit was reached', remedy: 'Spread the calls over the hour, or ask an operator to raise the key’s limit.' },
  origin: { name: 'Origin not allowed', remedy: 'If the page is yours, <a href="#origins">add its origin</a>.' },
  ip: { name: 'IP address not allowed', remedy: 'If the server is yours, <a href="#ip-ranges">add its range</a>.' },
  inactive: { name: 'Key disabled', remedy: '<a href="#status">Enable the key</a>, or, if it leaked, deploy its replacement (<a href="#rotation">rotation</a>).' },
};

const KIND_NAMES: Readonly<Record<TrafficKind, string>> = { server: 'Server calls', embed: 'Embed traffic' };

const count = (n: number): string => n.toLocaleString('en');
const plural = (n: number, one: string, many: string): string => `${count(n)} ${n === 1 ? one : many}`;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayName = (at: number): string => `${new Date(at).getUTCDate()} ${MONTHS[new Date(at).getUTCMonth()]}`;
const periodName = (days: number): string => (days === 1 ? 'last 24 hours' : `last ${days} days`);

function sums(report: UsageReport): { server: number; embed: number; refused: number; busiest: ReportHour | null } {
  let busiest: ReportHour | null = null;
  const total = (hour: ReportHour) => hour.server + hour.embed + hour.refused;
  for (const hour of report.hours) if (total(hour) > 0 && (busiest === null || total(hour) > total(busiest))) busiest = hour;
  const refused = (kind: TrafficKind) => REFUSAL_REASONS.reduce((sum, reason) => sum + report.totals[kind].refused[reason], 0);
  return { server: report.totals.server.used, embed: report.totals.embed.used, refused: refused('server') + refused('embed'), busiest };
}

// The chart's drawing area, in the SVG's own units; it scales to the page's width.
const WIDTH = 720;
const TOP = 30;
const PLOT = 160;
const HEIGHT = TOP + PLOT + 32;
const round = (n: number): string => String(Math.round(n * 100) / 100);

/** Where the time axis is labelled: every 6 hours over a day, every day over a week, every week over more. */
function axisLabels(report: UsageReport, days: number): { x: number; text: string }[] {
  const width = WIDTH / report.hours.length;
  const labels: { x: number; text: string }[] = [];
  for (const [index, { hour }] of report.hours.entries()) {
    const midnight = hour % DAY_MS === 0;
    // Over more than a week, every seventh midnight from the period's start.
    const labelled = days === 1 ? hour % (6 * HOUR_MS) === 0 : midnight && (days <= 7 || Math.floor((hour - report.from) / DAY_MS) % 7 === 0);
    if (!labelled) continue;
    labels.push({ x: index * width, text: midnight ? dayName(hour) : `${String(new Date(hour).getUTCHours()).padStart(2, '0')}:00` });
  }
  return labels;
}

/** The bars: server calls at the bottom, embed traffic above, refused requests on top in a colour of their own. */
function chart(report: UsageReport, days: number): string {
  const { server, embed, refused, busiest } = sums(report);
  const max = busiest === null ? 0 : busiest.server + busiest.embed + busiest.refused;
  const width = WIDTH / report.hours.length;
  const scale = max === 0 ? 0 : PLOT / max;
  // One path per kind, a rectangle per hour: a week of busy hours stays a few kilobytes.
  const paths = { server: [] as string[], embed: [] as string[], refused: [] as string[] };
  const barWidth = round(Math.max(width - (width > 3 ? 1 : 0), 0.5));
  for (const [index, hour] of report.hours.entries()) {
    let base = TOP + PLOT;
    for (const kind of ['server', 'embed', 'refused'] as const) {
      if (hour[kind] === 0) continue;
      const height = hour[kind] * scale;
      base -= height;
      paths[kind].push(`M${round(index * width)} ${round(base)}h${barWidth}v${round(height)}h-${barWidth}z`);
    }
  }
  const bars = Object.entries(paths).filter(([, d]) => d.length > 0).map(([kind, d]) => `<path class="bar-${kind}" d="${d.join('')}"/>`);
  const ticks = axisLabels(report, days).map(({ x, text }) => `<line class="tick" x1="${round(x)}" y1="${TOP + PLOT}" x2="${round(x)}" y2="${TOP + PLOT + 4}"/><text class="axis" x="${round(Math.min(Math.max(x, 36), WIDTH - 36))}" y="${HEIGHT - 6}" text-anchor="middle">${escapeHtml(text)}</text>`);
  const summary = `Requests per hour, ${periodName(days)} (UTC): ${plural(server, 'server call', 'server calls')}, ${plural(embed, 'embed request', 'embed requests')}, ${count(refused)} refused${busiest === null ? '' : `; busiest hour ${new Date(busiest.hour).toISOString().slice(0, 13).replace('T', ' ')}:00 UTC with ${count(max)}`}.`;
  return `<svg class="usage-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(summary)}" focusable="false" data-usage-max="${max}">
<text class="axis" x="0" y="22">${max === 0 ? 'No requests in this period' : `max ${escapeHtml(count(max))} per hour`}</text>
<line class="grid" x1="0" y1="${TOP}" x2="${WIDTH}" y2="${TOP}"/>
${bars.join('')}
<line class="baseline" x1="0" y1="${TOP + PLOT}" x2="${WIDTH}" y2="${TOP + PLOT}"/>
${ticks.join('')}
</svg>
<ul class="legend"><li><span class="swatch bar-server"></span>Server calls</li><li><span class="swatch bar-embed"></span>Embed traffic</li><li><span class="swatch bar-refused"></span>Refused</li></ul>`;
}

/** The chart's figures as a table: the hours that had any request, or over more than a week the days. */
function figuresTable(report: UsageReport, days: number): string {
  const step = days > 7 ? DAY_MS : HOUR_MS;
  const rows = new Map<number, { server: number; embed: number; refused: number }>();
  for (const hour of report.hours) {
    if (hour.server + hour.embed + hour.refused === 0) continue;
    const at = hour.hour - (hour.hour % step);
    const row = rows.get(at) ?? { server: 0, embed: 0, refused: 0 };
    rows.set(at, { server: row.server + hour.server, embed: row.embed + hour.embed, refused: row.refused + hour.refused });
  }
  if (rows.size === 0) return '<p class="muted">No requests in this period.</p>';
  const when = (at: number) => (step === DAY_MS ? `<time datetime="${new Date(at).toISOString().slice(0, 10)}">${new Date(at).toISOString().slice(0, 10)}</time>` : time(at));
  const lines = [...rows].reverse().map(([at, row]) => `<tr><th scope="row">${when(at)}</th><td>${count(row.server)}</td><td>${count(row.embed)}</td><td>${count(row.refused)}</td></tr>`);
  return scrollingTable('Requests per period', `<table><caption class="muted">${step === DAY_MS ? 'Days' : 'Hours'} with requests, newest first (UTC)</caption>
<thead><tr><th scope="col">${step === DAY_MS ? 'Day' : 'Hour beginning'}</th><th scope="col">Server calls</th><th scope="col">Embed traffic</th><th scope="col">Refused</th></tr></thead>
<tbody>${lines.join('\n')}</tbody></table>`);
}

/** Requests counted and refused by kind, and each reason's refusals with what to do about them. */
function totalsTable(report: UsageReport): string {
  const cells = (value: (kind: TrafficKind) => number) => (['server', 'embed'] as const).map((kind) => `<td data-kind="${kind}">${count(value(kind))}</td>`).join('');
  const reasons = REFUSAL_REASONS.map((reason) => `<tr data-refused-reason="${reason}"><th scope="row">${REFUSALS[reason].name}</th>${cells((kind) => report.totals[kind].refused[reason])}<td>${REFUSALS[reason].remedy}</td></tr>`);
  return scrollingTable('Totals and refusals', `<table><caption class="muted">Totals, ${periodName((report.to - report.from) / DAY_MS)}</caption>
<thead><tr><th scope="col"><span class="visually-hidden">Requests</span></th><th scope="col">${KIND_NAMES.server}</th><th scope="col">${KIND_NAMES.embed}</th><th scope="col">What to do</th></tr></thead>
<tbody><tr data-usage-counted><th scope="row">Counted against the limit</th><td data-usage-total-server>${count(report.totals.server.used)}</td><td data-usage-total-embed>${count(report.totals.embed.used)}</td><td></td></tr>
${reasons.join('\n')}</tbody></table>`);
}

/** How the figures arrive: the configured intervals, in words. */
function arrival({ usageFlushMs, panelRefreshMs }: LiveIntervals): string {
  return `Figures arrive within about ${seconds(usageFlushMs + panelRefreshMs)}: the service adds them up every ${seconds(usageFlushMs)} (the last use every ${seconds(LAST_USE_WRITE_EVERY_MS)}), and this part of the page updates by itself every ${seconds(panelRefreshMs)}, or reload it.`;
}

/** The usage section of a key's page (`path`: the key page's own path, for the period links). */
export function usageSection(options: { path: string; report: UsageReport; days: number; intervals: LiveIntervals }): string {
  const { report, days, path } = options;
  const { server, embed, refused } = sums(report);
  const choices = USAGE_DAY_CHOICES.map((choice) => `<li><a href="${escapeHtml(`${path}?days=${choice}#usage`)}"${choice === days ? ' aria-current="true"' : ''}>${choice === 1 ? 'Last 24 hours' : `Last ${choice} days`}</a></li>`).join('');
  return `<h2 id="usage">Usage</h2>
<ul class="choices" aria-label="Period">${choices}</ul>
<p id="usage-summary" data-live aria-live="polite">In the ${periodName(days)}: <strong data-usage-summary-server>${plural(server, 'server call', 'server calls')}</strong>, <strong data-usage-summary-embed>${plural(embed, 'embed request', 'embed requests')}</strong> and <strong data-usage-total-refused>${count(refused)} refused</strong>.</p>
<div id="usage-chart" data-live>${chart(report, days)}</div>
<details class="usage-table"><summary>Show as a table</summary><div id="usage-table" data-live>${figuresTable(report, days)}</div></details>
<h3 id="refusals">Totals and refusals</h3>
<div id="usage-totals" data-live>${totalsTable(report)}</div>
<p class="muted">Server calls are made with the key itself; embed traffic is its sessions’ (your visitors’ browsers). Refused requests are those turned away before they were served: the limit, an origin or address not allowed, the key disabled. ${arrival(options.intervals)} Hourly figures are kept ${USAGE_KEPT_MS / DAY_MS} days.</p>`;
}
