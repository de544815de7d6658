/**
 * loc's metrics as an operator's Prometheus sees them: one real Prometheus (test/support/prometheus.ts)
 * scrapes, as the job "loc", a `loc serve` on SQLite, a `loc serve` with LOC_WORKERS=2 on PostgreSQL
 * (its primary answering for both workers) and an address where nothing listens (a target down). The
 * test makes the requests it then counts — lookups answered, codes and paths not found, refusals for a
 * missing key, a foreign origin and a spent hourly limit — in two rounds a scrape apart, so that every
 * series has a rate, and reads through Prometheus' query API that they are counted exactly, by route
 * and status class and by reason, for each target. Then the repository's alerting rules
 * (docs/observing/loc-alerts.yml) are loaded and evaluated by that Prometheus and every expression of
 * them and of the Grafana dashboard runs without an error, with an answer for what the test provoked.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.ts';
import { freePort, runProcess, spawnLoc, type Spawned } from '../support/loc-process.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../support/postgres.ts';
import { PROMTOOL, startPrometheus, type Prometheus, type RuleGroup, type Sample } from '../support/prometheus.ts';
import { ALERTS, dashboardQueries, documentedMetrics, metricNames, variableQueries } from './observed-queries.ts';

const ORIGIN = 'https://shop.example';
const FOREIGN_ORIGIN = 'https://elsewhere.example';
const FOUND = '/v1/loc/lookup/FR-0RMB-CLY0';
const NOT_FOUND = '/v1/loc/lookup/ZZ-0000-0000';
const TINY_LIMIT = 2;
/** A scrape that began after the test's requests may still miss one whose answer was not yet counted: a few scrapes more. */
const WAIT = { timeout: 5_000, interval: 100 };

/** One loc process under watch: how to reach its API and its metrics, and its keys. */
interface Target {
  name: string;
  server: Spawned;
  api: string;
  /** `host:port` of its metrics listener: the series' `instance` label. */
  instance: string;
  key: string;
  tinyKey: string;
  /** The statuses of each round, in the order round() sends them. */
  answered: number[][];
}

/** GET `url` on a connection of its own, so that a cluster's workers share the requests: its status. */
const get = (url: string, headers: Record<string, string> = {}): Promise<number> =>
  new Promise((resolve, reject) => {
    request(url, { headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    }).on('error', reject).end();
  });

/**
 * One round of what the test counts, sent to `target`: 3 lookups answered, 2 codes not found, 2 paths
 * of no route, 1 lookup without a key, 1 from an origin the key does not allow, and 3 with the key of
 * TINY_LIMIT calls an hour — answered while its hour lasts, then refused. The statuses, in order.
 */
async function round(target: Target): Promise<number[]> {
  const key = { 'x-api-key': target.key };
  return Promise.all([
    ...[1, 2, 3].map(() => get(target.api + FOUND, key)),
    ...[1, 2].map(() => get(target.api + NOT_FOUND, key)),
    get(`${target.api}/no/such/path`, key),
    get(`${target.api}/v1/nothing-here/${Math.random()}`),
    get(target.api + FOUND),
    get(target.api + FOUND, { ...key, origin: FOREIGN_ORIGIN }),
    ...[1, 2, 3].map(() => get(target.api + FOUND, { 'x-api-key': target.tinyKey })),
  ]);
}

/** Series as `labels → value`, for an assertion that shows every one. */
const byLabels = (samples: Sample[], ...labels: string[]): Record<string, number> =>
  Object.fromEntries(samples.map(({ metric, value }) => [labels.map((label) => metric[label]).join(' '), value]));

let prometheus: Prometheus;
let db: TestDatabase;
const dirs: string[] = [];
const targets: Target[] = [];
let deadInstance: string;

/** The partner account and two keys, created as an operator would with `loc` on `env`'s store. */
async function keys(env: Record<string, string>): Promise<{ key: string; tinyKey: string }> {
  const loc = async (...args: string[]) => {
    const result = await runCli(env, ...args);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  const created = async (...args: string[]) => (JSON.parse(await loc('keys', 'create', '--account', 'shop', '--origin', ORIGIN, '--json', ...args)) as { api_key: string }).api_key;
  await loc('accounts', 'create', '--name', 'shop', '--partner');
  return { key: await created(), tinyKey: await created('--hourly-limit', String(TINY_LIMIT)) };
}

/** A `loc serve` with its metrics listener on a port of its choice, on the store `env` names. */
async function serve(name: string, env: Record<string, string>): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loc-observed-'));
  dirs.push(dataDir);
  const store = { LOC_DATA_DIR: dataDir, ...env };
  const made = await keys(store);
  const server = spawnLoc(['serve', '--port', '0', '--host', '127.0.0.1'], {
    // Offline tiles, for their metrics; usage batches every half second, so that some are written meanwhile.
    env: { ...store, LOC_METRICS_PORT: '0', LOC_LOG_LEVEL: 'info', LOC_TILES: 'offline', LOC_USAGE_FLUSH_MS: '500' },
  });
  const ready = await server.ready();
  expect(ready.metricsUrl).toMatch(/\/metrics$/);
  return { name, server, api: ready.url, instance: new URL(ready.metricsUrl!).host, answered: [], ...made };
}

beforeAll(async () => {
  db = await createTestDatabase({ migrated: true });
  const started = await Promise.all([serve('sqlite', {}), serve('cluster', { LOC_DATABASE_URL: db.url, LOC_WORKERS: '2' })]);
  targets.push(...started);
  deadInstance = `127.0.0.1:${await freePort()}`;
  prometheus = await startPrometheus([{ job: 'loc', targets: [...targets.map((target) => target.instance), deadInstance] }], [ALERTS]);
  // Two rounds a scrape apart: every series the test counts then has two samples, and so a rate.
  for (let i = 0; i < 2; i++) {
    await Promise.all(targets.map(async (target) => target.answered.push(await round(target))));
    const sent = Date.now();
    await Promise.all(targets.map((target) => prometheus.scrapedSince(target.instance, sent)));
  }
});

afterAll(async () => {
  await Promise.all(targets.map((target) => target.server.stop()));
  await prometheus?.stop();
  await db?.dispose();
  await stopPostgres();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** What two rounds leave on one target, by route and status class. */
const REQUESTS = { '/v1/loc/lookup/:code 2xx': 8, '/v1/loc/lookup/:code 4xx': 12, 'unmatched 4xx': 4 };
const REFUSALS = { missing_api_key: 2, origin_not_allowed: 2, rate_limited: 4 };

describe.each(['sqlite', 'cluster'])('loc serve (%s) as Prometheus scraped it', (name) => {
  const target = () => targets.find((each) => each.name === name)!;
  const selector = () => `job="loc", instance="${target().instance}"`;

  it('answered the rounds as the test counts them', () => {
    // The key of TINY_LIMIT calls: which of the three sent at once is refused is the race's.
    const sorted = (statuses: number[]) => [...statuses.slice(0, 9), ...statuses.slice(9).sort()];
    expect(target().answered.map(sorted)).toEqual([
      [200, 200, 200, 404, 404, 404, 404, 401, 403, 200, 200, 429],
      [200, 200, 200, 404, 404, 404, 404, 401, 403, 429, 429, 429],
    ]);
  });

  it('counts every request by route template and status class, random paths as unmatched', async () => {
    await vi.waitFor(async () => {
      expect(byLabels(await prometheus.query(`sum by (route, status_class) (loc_http_requests_total{${selector()}})`), 'route', 'status_class')).toEqual(REQUESTS);
    }, WAIT);
    expect(byLabels(await prometheus.query(`sum by (route) (loc_http_request_duration_seconds_count{${selector()}})`), 'route')).toEqual({ '/v1/loc/lookup/:code': 20, unmatched: 4 });
    expect(byLabels(await prometheus.query(`sum by (method) (loc_http_requests_total{${selector()}})`), 'method')).toEqual({ GET: 24 });
  });

  it('counts every refusal by its reason', async () => {
    await vi.waitFor(async () => {
      expect(byLabels(await prometheus.query(`sum by (reason) (loc_refusals_total{${selector()}})`), 'reason')).toEqual(REFUSALS);
    }, WAIT);
  });

  it('times the store and the counters on its engine, and shows a PostgreSQL pool and the shared counters\' figures only on PostgreSQL', async () => {
    const engine = name === 'sqlite' ? 'sqlite' : 'postgres';
    // One process counts in memory; workers share their counts in the database.
    const counters = name === 'sqlite' ? 'memory' : 'postgres';
    const calls = async (metric: string) => byLabels(await prometheus.query(`sum by (engine, operation) (${metric}_count{${selector()}})`), 'engine', 'operation');
    // One take a request the key's limit counts: the lookups with a key, found or not, and the tiny key's.
    expect(await calls('loc_counters_operation_duration_seconds')).toEqual({ [`${counters} take`]: 16 });
    expect(Object.keys(await calls('loc_store_operation_duration_seconds'))).toEqual(expect.arrayContaining([`${engine} findKeyByHash`, `${engine} usage.addUsage`]));
    const pool = byLabels(await prometheus.query(`loc_store_pool_connections{${selector()}}`), 'state');
    expect(Object.keys(pool).sort()).toEqual(name === 'sqlite' ? [] : ['idle', 'in_use']);
    // The shared counters' own figures, the workers' summed: each take went in a step, was answered
    // from a lease or was refused here. The counters in memory have none.
    const total = async (metric: string) => (await prometheus.query(`sum(${metric}{${selector()}})`))[0]?.value;
    const answered = ['loc_counters_step_requests_sum', 'loc_counters_leased_requests_total', 'loc_counters_refused_here_total'];
    const totals = await Promise.all(answered.map(total));
    if (name === 'sqlite') expect(totals).toEqual([undefined, undefined, undefined]);
    else expect(totals.reduce((sum, value) => sum + (value ?? Number.NaN), 0)).toBe(16);
  });

  it('has no key, origin, code or path among its series', async () => {
    const series = JSON.stringify(await prometheus.api(`series?match[]=${encodeURIComponent(`{${selector()}}`)}`));
    expect(series).toContain('loc_http_requests_total');
    for (const secret of [target().key, target().tinyKey, ORIGIN, FOREIGN_ORIGIN, 'FR-0RMB', 'ZZ-0000', '/no/such/path', 'nothing-here']) expect(series).not.toContain(secret);
  });
});

it('answers for both workers of the cluster in one scrape', () => {
  // The requests each had a connection of their own: the primary handed them to both workers.
  const workers = new Set(targets.find((each) => each.name === 'cluster')!.server.output().split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => (JSON.parse(line) as { worker: number }).worker));
  expect(workers).toEqual(new Set([1, 2]));
});

describe('the alerting rules (docs/observing/loc-alerts.yml)', () => {
  const rules = async () => (await prometheus.api<{ groups: RuleGroup[] }>('rules')).groups;

  it('pass promtool check rules', async () => {
    const checked = await runProcess(PROMTOOL, ['check', 'rules', ALERTS]);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });

  it('are loaded and evaluated without an error, each with a severity, a summary and a wait', async () => {
    await vi.waitFor(async () => {
      const unhealthy = (await rules()).flatMap((group) => group.rules.filter((rule) => rule.health !== 'ok').map((rule) => `${rule.name}: ${rule.health} ${rule.lastError ?? ''}`));
      expect(unhealthy).toEqual([]);
    }, WAIT);
    const loaded = (await rules()).flatMap((group) => group.rules);
    expect(loaded.map((rule) => rule.name).sort()).toEqual([
      'LocCountersUnreachable', 'LocEventLoopLag', 'LocHighServerErrorRatio', 'LocLimitRefusalsRising', 'LocReadinessFlapping',
      'LocStoreErrors', 'LocStorePoolWaiting', 'LocTargetDown', 'LocUsageFlushesFailing',
    ]);
    for (const rule of loaded) {
      expect(rule.type, rule.name).toBe('alerting');
      expect(['warning', 'critical'], rule.name).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary?.length ?? 0, rule.name).toBeGreaterThan(40);
      expect(rule.duration, rule.name).toBeGreaterThan(0);
    }
  });

  it('run through the query API, and alert on the target down and on the limit refusals the test provoked', async () => {
    for (const rule of (await rules()).flatMap((group) => group.rules)) await prometheus.query(rule.query);
    await vi.waitFor(async () => {
      const alerts = (await prometheus.api<{ alerts: { labels: Record<string, string>; state: string }[] }>('alerts')).alerts;
      const raised = alerts.map(({ labels }) => `${labels.alertname} ${labels.instance}`);
      expect(raised).toEqual(expect.arrayContaining([`LocTargetDown ${deadInstance}`, ...targets.map((target) => `LocLimitRefusalsRising ${target.instance}`)]));
    }, WAIT);
  });
});

/**
 * The dashboard's panels the test provokes nothing for: failures of the store and the counters, and
 * readiness, which only a process that went out of it shows. Every other expression must answer.
 */
const UNPROVOKED_PANELS = ['Counters unreachable', 'Store errors', 'Readiness'];

describe('the Grafana dashboard (docs/observing/loc-dashboard.json)', () => {
  const substitutions = () => ({ rateInterval: '1m', job: 'loc', instance: '.+' });

  it('runs every expression through the query API, with a number for what the test provoked', async () => {
    const queries = dashboardQueries(substitutions());
    expect(queries.length).toBeGreaterThan(20);
    const unanswered: string[] = [];
    for (const { panel, refId, promql } of queries) {
      const samples = await prometheus.query(promql);
      // A quantile of a series that did not grow in the window is NaN: some of them at least must have.
      if (!UNPROVOKED_PANELS.includes(panel) && !samples.some(({ value }) => Number.isFinite(value))) unanswered.push(`${panel} ${refId}: ${JSON.stringify(samples)}`);
    }
    expect(unanswered).toEqual([]);
  });

  it('offers the job and both processes in its variables', async () => {
    const values = Object.fromEntries(await Promise.all(variableQueries(substitutions()).map(async ({ name, promql }) => [name, (await prometheus.query(promql)).map(({ metric }) => metric[name]).sort()])));
    expect(values).toEqual({ job: ['loc'], instance: targets.map((target) => target.instance).sort() });
  });
});

describe('the metrics table of docs/operations.md', () => {
  it('lists every metric loc exposes and every metric the dashboard and the alerts read', async () => {
    const documented = new Set(documentedMetrics());
    const exposed = new Set((await prometheus.api<{ metric: string }[]>(`targets/metadata?match_target=${encodeURIComponent('{job="loc"}')}`)).map(({ metric }) => metric));
    expect(exposed).toContain('loc_http_requests_total');
    const rules = (await prometheus.api<{ groups: RuleGroup[] }>('rules')).groups.flatMap((group) => group.rules.map((rule) => rule.query));
    const read = [...dashboardQueries({ rateInterval: '1m', job: 'loc', instance: '.+' }).map(({ promql }) => promql), ...rules].flatMap(metricNames);
    expect([...exposed].filter((name) => name.startsWith('loc_') && !documented.has(name))).toEqual([]);
    expect([...new Set(read)].filter((name) => !documented.has(name))).toEqual([]);
  });
});
