/**
 * A real Prometheus for the tests that prove what loc's metrics mean to the tool that reads them:
 * Debian's `prometheus` (/usr/bin/prometheus; `.ci/run` installs it when missing), started on a free
 * loopback port with a configuration and a TSDB of its own in a temporary directory, scraping the
 * targets the test gives every second and evaluating the rule files it gives every second. One per
 * test file: it starts in about a second.
 *
 * The configuration is written as JSON, which YAML reads as it is: no YAML library is needed for it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './loc-process.ts';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';

/** How often Prometheus scrapes and evaluates its rules here; Grafana's `$__rate_interval` is 4 of them. */
export const SCRAPE_INTERVAL_S = 1;

/** What one job scrapes: `host:port` addresses, their metrics at /metrics. */
export interface Job {
  job: string;
  targets: string[];
}

/** One series of an instant vector: its labels and its value as a number (NaN and ±Inf included). */
export interface Sample {
  metric: Record<string, string>;
  value: number;
}

/** A group of rules as /api/v1/rules reports it, with what this harness reads of it. */
export interface RuleGroup {
  name: string;
  file: string;
  rules: { name: string; query: string; health: string; lastError?: string; type: string; duration?: number; labels?: Record<string, string>; annotations?: Record<string, string> }[];
}

export interface Prometheus {
  /** Its HTTP API and UI, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The instant vector of `promql` now; throws on an error result, or on a result of another type. */
  query(promql: string): Promise<Sample[]>;
  /** The answer of `GET /api/v1/<path>`'s `data`; throws on an error answer. */
  api<T>(path: string): Promise<T>;
  /** Resolves once the target `instance` (its `host:port`) was scraped, with success, by a scrape that began after `since` (ms since the epoch). */
  scrapedSince(instance: string, since: number, timeoutMs?: number): Promise<void>;
  /** Everything it wrote, for a failure's message. */
  output(): string;
  /** Kills it and removes its directory. */
  stop(): Promise<void>;
}

interface ApiAnswer<T> {
  status: 'success' | 'error';
  data: T;
  errorType?: string;
  error?: string;
}

interface Targets {
  activeTargets: { labels: { job: string; instance: string }; health: string; lastScrape: string; lastError: string }[];
}

/** Starts Prometheus scraping `jobs`, evaluating the rules of `ruleFiles`; resolves once /-/ready answers. */
export async function startPrometheus(jobs: Job[], ruleFiles: string[] = []): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'loc-prometheus-'));
  const config = {
    global: { scrape_interval: `${SCRAPE_INTERVAL_S}s`, scrape_timeout: `${SCRAPE_INTERVAL_S}s`, evaluation_interval: `${SCRAPE_INTERVAL_S}s` },
    rule_files: ruleFiles,
    scrape_configs: jobs.map(({ job, targets }) => ({ job_name: job, static_configs: [{ targets }] })),
  };
  writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.once('error', (error) => (output += `${error.message}\n`));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const api = async <T>(path: string): Promise<T> => {
    const answer = (await (await fetch(`${url}/api/v1/${path}`)).json()) as ApiAnswer<T>;
    if (answer.status !== 'success') throw new Error(`Prometheus answered ${path} with ${answer.errorType}: ${answer.error}`);
    return answer.data;
  };

  try {
    await until(async () => (await fetch(`${url}/-/ready`).catch(() => null))?.ok === true, 10_000, () => `Prometheus was not ready:\n${output}`, () => child.exitCode !== null);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    api,
    output: () => output,
    stop,
    query: async (promql) => {
      const data = await api<{ resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] }>(`query?query=${encodeURIComponent(promql)}`).catch((error: Error) => {
        throw new Error(`${error.message}\nin ${promql}`);
      });
      if (data.resultType !== 'vector') throw new Error(`${promql} is a ${data.resultType}, not an instant vector`);
      return data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
    },
    // The first scrape comes about 5 s after the start: Prometheus hands new targets to its scrapers every 5 s.
    scrapedSince: async (instance, since, timeoutMs = 15_000) => {
      let last: Targets['activeTargets'] = [];
      await until(async () => {
        last = (await api<Targets>('targets?state=active')).activeTargets.filter((target) => target.labels.instance === instance);
        return last.length > 0 && last.every((target) => target.health === 'up' && Date.parse(target.lastScrape) > since);
      }, timeoutMs, () => `${instance} was not scraped after ${new Date(since).toISOString()}: ${JSON.stringify(last)}`);
    },
  };
}

/** Polls `check` until it holds; throws `why()` after `timeoutMs`, or at once when `hopeless()`. */
async function until(check: () => Promise<boolean>, timeoutMs: number, why: () => string, hopeless = () => false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (hopeless() || Date.now() > deadline) throw new Error(why());
    await new Promise((done) => setTimeout(done, 50));
  }
}
