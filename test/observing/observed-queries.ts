/**
 * What the repository gives an operator to watch loc with, read as Prometheus will run it: the
 * Grafana dashboard's PromQL (docs/observing/loc-dashboard.json) with Grafana's variables replaced by
 * what they stand for in one Prometheus, and the metric names an expression or the metrics table of
 * docs/operations.md names. The alerting rules' expressions are read from Prometheus itself
 * (/api/v1/rules), which parses docs/observing/loc-alerts.yml.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/loc-process.ts';

export const DASHBOARD = join(ROOT, 'docs/observing/loc-dashboard.json');
export const ALERTS = join(ROOT, 'docs/observing/loc-alerts.yml');
export const OPERATIONS = join(ROOT, 'docs/operations.md');

/** One expression of the dashboard: its panel, its refId, and the PromQL to run. */
export interface DashboardQuery {
  panel: string;
  refId: string;
  promql: string;
}

interface Panel {
  title: string;
  type: string;
  targets?: { refId: string; expr: string }[];
}

interface Dashboard {
  panels: Panel[];
  templating: { list: { name: string; type: string; definition?: string }[] };
}

/**
 * What Grafana puts in place of its variables, for one Prometheus that scrapes every second:
 * `$__rate_interval` is at least four scrapes; a minute covers everything a test file does.
 */
export interface Substitutions {
  rateInterval: string;
  job: string;
  instance: string;
}

const substitute = (expression: string, { rateInterval, job, instance }: Substitutions): string =>
  expression.replaceAll('$__rate_interval', rateInterval).replaceAll('$job', job).replaceAll('$instance', instance);

const dashboard = (): Dashboard => JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;

/** Every panel target of the dashboard, substituted. */
export function dashboardQueries(substitutions: Substitutions): DashboardQuery[] {
  return dashboard().panels.flatMap((panel) =>
    (panel.targets ?? []).map(({ refId, expr }) => ({ panel: panel.title, refId, promql: substitute(expr, substitutions) })),
  );
}

/**
 * The dashboard's query variables as PromQL: Grafana's `label_values(<selector>, <label>)` lists the
 * values of `<label>` among the series `<selector>` selects, which `group by (<label>) (<selector>)` gives.
 */
export function variableQueries(substitutions: Substitutions): { name: string; promql: string }[] {
  return dashboard().templating.list.filter(({ type }) => type === 'query').map(({ name, definition = '' }) => {
    const match = /^label_values\((.+),\s*(\w+)\)$/.exec(definition);
    if (match === null) throw new Error(`the variable ${name} is not a label_values() query: ${definition}`);
    return { name, promql: substitute(`group by (${match[2]}) (${match[1]})`, substitutions) };
  });
}

/** The metric names an expression reads: a histogram's series named for the histogram. */
export function metricNames(promql: string): string[] {
  const names = promql.match(/\b(?:loc|process|nodejs)_[a-z0-9_]+/g) ?? [];
  return [...new Set(names.map((name) => name.replace(/_(bucket|sum|count)$/, '')))];
}

/** The metrics docs/operations.md's metrics table lists: the backquoted name of each row's first cell. */
export function documentedMetrics(): string[] {
  const text = readFileSync(OPERATIONS, 'utf8');
  const start = text.indexOf('\n### Metrics\n');
  if (start < 0) throw new Error(`${OPERATIONS} has no "### Metrics" section`);
  const end = text.indexOf('\n#', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((match) => match[1]);
}
