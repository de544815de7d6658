/**
 * The load run: autocannon against the built server at 100 connections, resolve, lookup and generate
 * mixed, with several keys and an embed session — one key with a small hourly limit, so the expected
 * 429s are part of the mix. It reports every status, connection errors and timeouts, latency
 * percentiles, and the server's resident memory after a warm-up, at its peak during the run, and
 * after it. test/stress/load.test.ts asserts on it (3 s in `npm test`, 20 s under `npm run stress`);
 * `node --import tsx test/stress/load.ts [seconds] [sqlite|postgres]` runs it alone and prints the figures.
 */
import autocannon from 'autocannon';
import { pathToFileURL } from 'node:url';
import { encode } from '../../src/code/index.ts';
import { SpawnedServer, dispose, ensureBuilt, scale, seedDataDir, type Engine } from './harness.ts';

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** The store the server runs on; default sqlite. */
  engine?: Engine;
}

export interface LoadReport {
  engine: Engine;
  seconds: number;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  /** Latency, ms. */
  p50: number;
  p99: number;
  max: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts seen by the load generator. */
  errors: number;
  timeouts: number;
  /** Resident memory of the server, MiB: after the warm-up, the highest sampled during the run, after it. */
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  /** Whether /healthz still answered 200 after the run. */
  healthyAfter: boolean;
}

/**
 * Keys of the run: four with limits no run reaches, the last limited to this many requests an hour.
 * Small in `npm test`: every connection walks the request list from its start, and a 3 s run on a
 * busy 2-core machine (or on PostgreSQL, where the server shares the cores with the database) may
 * serve only a few hundred requests, a handful per connection; the 429s must still be part of it.
 */
export const LIMITED_KEY_HOURLY = scale(25, 500);
/** Distinct requests per key and endpoint, cycled by every connection. */
const VARIANTS = 40;

/** A point in France (land), different for each variant. */
const point = (i: number): { lat: number; lng: number } => ({ lat: 45 + (i * 0.0731) % 3, lng: 1 + (i * 0.1173) % 4 });

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  ensureBuilt();
  const engine = options.engine ?? 'sqlite';
  const { dataDir, keys, env, database } = await seedDataDir([
    { account: 'acme' }, { account: 'acme' }, { account: 'beta' }, { account: 'gamma' }, { account: 'delta', hourlyLimit: LIMITED_KEY_HOURLY },
  ], { engine });
  const server = await SpawnedServer.start(dataDir, env);
  try {
    const created = await fetch(`${server.url}/v1/embed/sessions`, {
      method: 'POST', headers: { 'x-api-key': keys[0].secret, 'content-type': 'application/json' },
      body: JSON.stringify({ origin: 'https://shop.example', ttl: 3600 }),
    });
    const token = ((await created.json()) as { session_token: string }).session_token;

    const requests: autocannon.Request[] = [];
    for (let i = 0; i < VARIANTS; i++) {
      const { lat, lng } = point(i);
      // The limited key first: each connection starts at the top of the list, and a short run on a busy
      // machine may not get much further than that (the 429s are then met from the warm-up on).
      for (const k of keys.map((_, j) => (j + keys.length - 1) % keys.length)) {
        const { secret } = keys[k];
        const json = { 'content-type': 'application/json', 'x-api-key': secret };
        requests.push(
          { method: 'POST', path: '/v1/embed/resolve', headers: json, body: JSON.stringify({ lat, lng, save: false }) },
          { method: 'GET', path: `/v1/loc/lookup/${encode(lat, lng).loc_code}`, headers: { 'x-api-key': secret } },
          { method: 'POST', path: '/v1/loc/generate', headers: json, body: JSON.stringify({ latitude: lat, longitude: lng, label: `load ${k}.${i}` }) },
        );
      }
      requests.push({
        method: 'POST', path: '/v1/embed/resolve', body: JSON.stringify({ lat, lng, save: true }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, origin: 'https://shop.example' },
      });
    }

    // Warm-up: JIT, the address index, the database's pages (and on PostgreSQL its connections), the request caches; memory is measured after it.
    await autocannon({ url: server.url, connections: 10, duration: 1, requests });
    const rssBefore = server.rssMiB();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => void (rssPeak = Math.max(rssPeak, server.rssMiB())), 250);
    let result: autocannon.Result;
    try {
      result = await autocannon({ url: server.url, connections: options.connections, duration: options.seconds, requests });
    } finally {
      clearInterval(sampler);
    }
    const rssAfter = server.rssMiB();
    const healthyAfter = (await fetch(`${server.url}/healthz`)).status === 200;

    const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count ?? 0]));
    return {
      engine,
      seconds: options.seconds,
      connections: options.connections,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      statuses,
      errors: result.errors,
      timeouts: result.timeouts,
      rssBefore,
      rssPeak: Math.max(rssPeak, rssAfter),
      rssAfter,
      healthyAfter,
    };
  } finally {
    await dispose(server, dataDir, database);
  }
}

/** The figures in a few lines. */
export function describeLoad(report: LoadReport): string {
  const mib = (n: number): string => `${n.toFixed(0)} MiB`;
  return [
    `load on ${report.engine}: ${report.connections} connections for ${report.seconds} s against resolve, lookup and generate with 5 keys and a session`,
    `  ${report.requests.toLocaleString('en-US')} requests, ${Math.round(report.requestsPerSecond).toLocaleString('en-US')} req/s; ` +
      `latency p50 ${report.p50} ms, p99 ${report.p99} ms, max ${report.max} ms`,
    `  statuses ${JSON.stringify(report.statuses)}; connection errors ${report.errors}, timeouts ${report.timeouts}`,
    `  server RSS ${mib(report.rssBefore)} after warm-up, peak ${mib(report.rssPeak)}, ${mib(report.rssAfter)} after; ` +
      `healthy after: ${report.healthyAfter ? 'yes' : 'NO'}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] ?? 20);
  const engine = process.argv[3] === 'postgres' ? 'postgres' : 'sqlite';
  process.stdout.write(`${describeLoad(await runLoad({ seconds, connections: 100, engine }))}\n`);
  if (engine === 'postgres') await (await import('../support/postgres.ts')).stopPostgres();
}
