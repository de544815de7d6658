/**
 * Metrics with workers, as an operator runs them: the built `loc serve` with LOC_WORKERS=2 on
 * PostgreSQL and LOC_METRICS_PORT=0, one process group for the whole file. The primary alone
 * listens for scrapes, on its own port, and one scrape counts the requests every worker answered.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { finished, spawnLoc, type Spawned } from '../../../test/support/loc-process.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';

/** GET `path` on a connection of its own, so that the primary deals the requests out to both workers. */
const get = (url: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    request(url, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    }).on('error', reject).end();
  });

/** The value of the sample `series` (name and labels, as the text format writes them) in a scrape. */
const sample = (scrape: string, series: string): number | undefined => {
  const line = scrape.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

const REFUSED_LOOKUPS = 'loc_http_requests_total{method="GET",route="/v1/loc/lookup/:code",status_class="4xx"}';

describe('metrics of a cluster', () => {
  let db: TestDatabase;
  let dataDir: string;
  let server: Spawned;
  let api: string;
  let metrics: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'loc-cluster-metrics-'));
    server = spawnLoc(['serve', '--port', '0', '--host', '127.0.0.1'], {
      env: { LOC_DATA_DIR: dataDir, LOC_DATABASE_URL: db.url, LOC_WORKERS: '2', LOC_LOG_LEVEL: 'info', LOC_SHUTDOWN_TIMEOUT_MS: '3000', LOC_METRICS_PORT: '0' },
      // A group of its own, to kill what is left of it.
      detached: true,
    });
    const ready = JSON.parse((await server.waitFor(/^\{.*"msg":"listening".*$/m))[0]) as { url: string; metricsUrl: string };
    api = ready.url;
    metrics = ready.metricsUrl;
  });
  afterAll(async () => {
    if (server.child.exitCode === null) {
      process.kill(-server.child.pid!, 'SIGTERM');
      await finished(server);
    }
    rmSync(dataDir, { recursive: true, force: true });
    await db.dispose();
    await stopPostgres();
  });

  it('answers scrapes on the primary’s port, for every worker, and none on the API’s port', async () => {
    expect(new URL(metrics).port).not.toBe(new URL(api).port);
    expect((await get(`${api}/metrics`)).status).toBe(404);
    const requests = 20;
    const answers = await Promise.all(Array.from({ length: requests }, () => get(`${api}/v1/loc/lookup/US-550M-RQ5L`)));
    expect(answers.map(({ status }) => status)).toEqual(Array(requests).fill(401));
    // Each worker answered some of them (their request lines say which): the sum below is of both.
    const workers = () => new Set(server.output().split('\n').filter((line) => line.includes('"msg":"request"')).map((line) => (JSON.parse(line) as { worker: number }).worker));
    await vi.waitFor(() => expect([...workers()].sort()).toEqual([1, 2]));

    const scrape = await get(metrics);
    expect(scrape.status).toBe(200);
    expect(sample(scrape.body, REFUSED_LOOKUPS)).toBe(requests);
    expect(sample(scrape.body, 'loc_refusals_total{reason="missing_api_key"}')).toBe(requests);
    expect(sample(scrape.body, `loc_http_request_duration_seconds_count{method="GET",route="/v1/loc/lookup/:code",status_class="4xx"}`)).toBe(requests);
    // Summed but for what says otherwise: one build, the workers' average utilisation.
    expect(scrape.body.match(/^loc_build_info\{.*\} (\S+)$/m)?.[1]).toBe('1');
    expect(sample(scrape.body, 'loc_event_loop_utilization')).toBeLessThanOrEqual(1);
  });
});
