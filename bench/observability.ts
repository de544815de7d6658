/**
 * What observing loc costs: loc's CPU per counted lookup on PostgreSQL × 1 with metrics on (scraped
 * every second, as a Prometheus would), with tracing on (every request sampled, exported over
 * OTLP/HTTP to a local sink), and with both, each against the same with both off. The modes
 * alternate over several rounds and each takes its median, so a machine that slows down during the
 * run slows every mode alike. Run alone with `node --import tsx bench/observability.ts`.
 */
import autocannon from 'autocannon';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { encode } from '../src/code/index.ts';
import { openPostgresStore } from '../src/store/postgres/postgres.ts';
import { createTestDatabase, stopPostgres } from '../test/support/postgres.ts';
import { cpuMs, family, serveLoc } from './processes.ts';
import { markdownTable, type BenchRow } from './report.ts';
import { seed } from './scale-out.ts';

const DURATION_S = Number(process.env.LOC_BENCH_SECONDS ?? 3);
const ROUNDS = 3;
const CONNECTIONS = 16;
const SCRAPE_EVERY_MS = 1000;
/** Metrics on, or tracing on, may cost at most this much more per request than both off. */
const BUDGET = 1.1;

interface Mode {
  name: string;
  env: (ports: { metrics: number; otlp: number }) => Record<string, string>;
}

const MODES: Mode[] = [
  { name: 'off', env: () => ({}) },
  { name: 'metrics on', env: ({ metrics }) => ({ LOC_METRICS_PORT: String(metrics) }) },
  { name: 'tracing on', env: ({ otlp }) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp}` }) },
  { name: 'metrics and tracing on', env: ({ metrics, otlp }) => ({ LOC_METRICS_PORT: String(metrics), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp}` }) },
];

/** An OTLP/HTTP receiver that takes every export and keeps only its size. */
async function otlpSink(): Promise<{ server: Server; port: number; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port, bytes: () => bytes };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

/** loc's CPU µs per request under load in one mode; throws when the mode did not observe anything. */
async function cpuPerRequest(mode: Mode, databaseUrl: string, requests: autocannon.Request[], sink: { port: number; bytes: () => number }): Promise<number> {
  const metricsPort = await freePort();
  const modeEnv = mode.env({ metrics: metricsPort, otlp: sink.port });
  const server = await serveLoc({ LOC_DATABASE_URL: databaseUrl, OTEL_BSP_SCHEDULE_DELAY: '1000', ...modeEnv });
  let scraped = '';
  const scraper = setInterval(() => {
    void fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((answer) => answer.text()).then((text) => (scraped = text), () => {});
  }, SCRAPE_EVERY_MS);
  try {
    const exported = sink.bytes();
    await autocannon({ url: server.url, connections: CONNECTIONS, duration: 1, requests });
    const pids = family(server.process.child.pid!);
    const before = cpuMs(pids);
    const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: DURATION_S, requests });
    const after = cpuMs(pids);
    if ('LOC_METRICS_PORT' in modeEnv && !scraped.includes('loc_http_requests_total')) throw new Error(`${mode.name}: no request counted in /metrics`);
    if ('OTEL_EXPORTER_OTLP_ENDPOINT' in modeEnv && sink.bytes() === exported) throw new Error(`${mode.name}: no span exported`);
    return ((after - before) * 1000) / result.requests.total;
  } finally {
    clearInterval(scraper);
    await server.process.stop();
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchObservability(): Promise<BenchRow[]> {
  const database = await createTestDatabase();
  const sink = await otlpSink();
  try {
    const [key] = await seed(await openPostgresStore(database.url));
    const requests = Array.from({ length: 500 }, () => ({
      method: 'GET' as const, path: `/v1/loc/lookup/${encode(45 + Math.random() * 3, 1 + Math.random() * 4).loc_code}`, headers: { 'x-api-key': key },
    }));
    const runs = new Map<string, number[]>(MODES.map((mode) => [mode.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) runs.get(mode.name)!.push(await cpuPerRequest(mode, database.url, requests, sink));
    }
    const off = median(runs.get('off')!);
    const spread = (name: string): string => runs.get(name)!.map((us) => Math.round(us)).join(', ');
    return MODES.slice(1).map((mode) => ({
      group: 'observability', name: `loc CPU per counted lookup, PostgreSQL × 1: ${mode.name}`, ours: median(runs.get(mode.name)!), peerName: 'the same, metrics and tracing off',
      peer: off, unit: 'µs', higherIsBetter: false, budget: mode.name === 'metrics and tracing on' ? undefined : BUDGET,
      note: `median of ${ROUNDS} alternating runs (${spread(mode.name)} µs vs off ${spread('off')} µs); ${CONNECTIONS} connections` +
        (mode.name === 'metrics and tracing on' ? '; no budget of its own: the two budgets above add up' : ''),
    }));
  } finally {
    sink.server.close();
    await database.dispose();
    await stopPostgres();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${markdownTable(await benchObservability())}\n`);
}
