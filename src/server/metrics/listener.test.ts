/**
 * The metrics listener of a server of one process, over real sockets: its own port (LOC_METRICS_PORT=0
 * gets a free one, which the banner and the ready line name), the Prometheus text format there and
 * nowhere on the API's port, a port in use refused at the start, and the listener closed with the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { occupyPort, readyIn } from '../../../test/support/loc-process.ts';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../process/server.ts';
import { StartFailure } from '../process/start-failure.ts';

describe('the metrics listener', () => {
  let dataDir: string;
  let server: RunningServer;
  let banner: string[];
  let metricsUrl: string;

  const env = (more: Record<string, string> = {}) =>
    loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent', LOC_METRICS_PORT: '0', ...more });
  /** A data directory of the test's own, for a second server beside the first. */
  const otherDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-metrics-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'loc-metrics-'));
    banner = [];
    server = await startServer(env(), { print: (line) => banner.push(line) });
    metricsUrl = (JSON.parse(banner.at(-1)!) as { metricsUrl: string }).metricsUrl;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on a port of its own, which the banner and the ready line name', () => {
    expect(readyIn(banner.join('\n'))).not.toBeNull();
    expect(server.config.metricsPort).toBeGreaterThan(0);
    expect(server.config.metricsPort).not.toBe(Number(new URL(server.url).port));
    expect(metricsUrl).toBe(`http://127.0.0.1:${server.config.metricsPort}/metrics`);
    expect(banner.join('\n')).toContain(`metrics    ${metricsUrl}`);
  });

  it('answers GET /metrics in the Prometheus text format with the API’s requests counted', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toMatch(/^loc_http_requests_total\{method="GET",route="\/healthz",status_class="2xx"\} [1-9]/m);
  });

  it('answers nothing else there, and no metrics on the API’s port', async () => {
    expect((await fetch(new URL('/', metricsUrl))).status).toBe(404);
    expect((await fetch(new URL('/metrics/x', metricsUrl))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
    const api = await fetch(`${server.url}/metrics`);
    expect(api.status).toBe(404);
    expect(await api.text()).not.toContain('loc_http_requests_total');
  });

  it('refuses to start on a metrics port in use, naming the setting', async () => {
    const taken = await occupyPort('127.0.0.1');
    try {
      const start = startServer(env({ LOC_METRICS_PORT: String(taken.port), LOC_DATA_DIR: otherDir() }), { print: () => {} });
      await expect(start).rejects.toThrow(StartFailure);
      await expect(start).rejects.toThrow(`cannot listen on 127.0.0.1:${taken.port}: the port is in use (set LOC_METRICS_PORT)`);
    } finally {
      taken.server.close();
    }
  });

  it('closes with the server', async () => {
    const other = await startServer(env({ LOC_DATA_DIR: otherDir() }), { print: () => {} });
    const url = `http://127.0.0.1:${other.config.metricsPort}/metrics`;
    expect((await fetch(url)).status).toBe(200);
    await other.close();
    await expect(fetch(url)).rejects.toThrow();
  });
});
