/**
 * What observing loc costs: loc's CPU per counted lookup on PostgreSQL × 1 with metrics on (scraped
 * every 15 s, as a Prometheus would; a scrape's own CPU apart), with tracing on (every request sampled, exported over
 * OTLP/HTTP to a local sink), with one request in ten sampled, and with both on, each against the
 * same with both off, at a steady rate. The modes alternate over several rounds and each takes its
 * median, so a machine that slows down during the run slows every mode alike.
 *
 * One `loc serve` differs from the next by more than metrics cost (the CPU per request of five
 * starts of one mode spreads over ±15 %), so metrics' budget is measured apart, paired: two servers
 * in one process, metrics off and on (paired-servers.ts), loaded in turn in short slices. Tracing
 * patches the drivers for the whole process and cannot be paired so. Run alone with
 * `node --import tsx bench/observability.ts`.
 */
import autocannon from 'autocannon';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { encode } from '../src/code/index.ts';
import { openPostgresStore } from '../src/store/postgres/postgres.ts';
import { createTestDatabase, stopPostgres } from '../test/support/postgres.ts';
import { spawnProcess } from '../test/support/loc-process.ts';
import { cpuMs, family, serveLoc } from './processes.ts';
import { markdownTable, type BenchRow } from './report.ts';
import { seed } from './scale-out.ts';

const DURATION_S = Number(process.env.LOC_BENCH_SECONDS ?? 4);
const ROUNDS = 5;
const CONNECTIONS = 16;
/**
 * Requests per second, well below what one process serves: at saturation a process that gets less
 * of the shared cores answers more requests per turn of its loop, each then cheaper, and the CPU per
 * request would measure the scheduler as much as the mode.
 */
const RATE = 1000;
/** Prometheus' usual scrape interval: a scrape's own cost is measured apart (scrapeCpuMs). */
const SCRAPE_EVERY_MS = 15_000;
/** Scrapes timed back to back after the load, for the cost of one. */
const SCRAPES = 10;
/** Metrics on, or tracing on, may cost at most this much more per request than both off. */
const BUDGET = 1.1;
/** The modes of separate processes the budget is on; the others are context (metrics' is paired). */
const BUDGETED: ReadonlySet<string> = new Set(['tracing on']);
/** The paired measure: slices of load on each server in turn, alternating which goes first. */
const PAIRED_ROUNDS = 16;
const SLICE_S = 1.5;

interface Mode {
  name: string;
  env: (ports: { metrics: number; otlp: number }) => Record<string, string>;
}

const MODES: Mode[] = [
  { name: 'off', env: () => ({}) },
  { name: 'metrics on', env: ({ metrics }) => ({ LOC_METRICS_PORT: String(metrics) }) },
  { name: 'tracing on', env: ({ otlp }) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp}` }) },
  {
    name: 'tracing on, 1 request in 10 sampled',
    env: ({ otlp }) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp}`, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
  },
  // What tracing costs a request before any span is kept: the floor under every sampling ratio.
  { name: 'tracing on, no request sampled', env: ({ otlp }) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp}`, OTEL_TRACES_SAMPLER: 'always_off' }) },
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

interface Cost {
  /** loc's CPU per request, µs. */
  us: number;
  /** loc's CPU per scrape of /metrics after the load, ms; with metrics on only. */
  scrapeMs?: number;
}

/** loc's CPU per scrape of `url`, from SCRAPES back to back; throws when the requests were not counted. */
async function scrapeCpuMs(url: string, pids: number[]): Promise<number> {
  const before = cpuMs(pids);
  let text = '';
  for (let i = 0; i < SCRAPES; i++) text = await (await fetch(url)).text();
  if (!text.includes('loc_http_requests_total')) throw new Error('metrics on: no request counted in /metrics');
  return (cpuMs(pids) - before) / SCRAPES;
}

/** What one mode costs loc under a steady load; throws when tracing on exported nothing. */
async function cost(mode: Mode, databaseUrl: string, requests: autocannon.Request[], sink: { port: number; bytes: () => number }): Promise<Cost> {
  const metricsPort = await freePort();
  const modeEnv = mode.env({ metrics: metricsPort, otlp: sink.port });
  const server = await serveLoc({ LOC_DATABASE_URL: databaseUrl, OTEL_BSP_SCHEDULE_DELAY: '1000', ...modeEnv });
  try {
    const exported = sink.bytes();
    const load = { url: server.url, connections: CONNECTIONS, overallRate: RATE, requests };
    await autocannon({ ...load, duration: 1 });
    const pids = family(server.process.child.pid!);
    const before = cpuMs(pids);
    const result = await autocannon({ ...load, duration: DURATION_S });
    const us = ((cpuMs(pids) - before) * 1000) / result.requests.total;
    if ('OTEL_EXPORTER_OTLP_ENDPOINT' in modeEnv && modeEnv.OTEL_TRACES_SAMPLER !== 'always_off' && sink.bytes() === exported) throw new Error(`${mode.name}: no span exported`);
    if (!('LOC_METRICS_PORT' in modeEnv)) return { us };
    return { us, scrapeMs: await scrapeCpuMs(`http://127.0.0.1:${metricsPort}/metrics`, pids) };
  } finally {
    await server.process.stop();
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Paired {
  off: number[];
  on: number[];
}

/** loc's CPU per request of each slice on each server of one process (paired-servers.ts). */
async function pairedCost(databaseUrl: string, requests: autocannon.Request[]): Promise<Paired> {
  const child = spawnProcess(process.execPath, ['--import', 'tsx', 'bench/paired-servers.ts'], { env: { LOC_DATABASE_URL: databaseUrl } });
  try {
    const urls = JSON.parse((await child.waitFor(/^\{.*\}$/m))[0]) as { off: string; on: string; metrics: string };
    const slice = async (url: string, duration: number): Promise<number> => {
      const before = cpuMs([child.child.pid!]);
      const result = await autocannon({ url, connections: CONNECTIONS, overallRate: RATE, requests, duration });
      return ((cpuMs([child.child.pid!]) - before) * 1000) / result.requests.total;
    };
    for (const url of [urls.off, urls.on]) await slice(url, 2);
    const paired: Paired = { off: [], on: [] };
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const mode of order) paired[mode].push(await slice(urls[mode], SLICE_S));
    }
    if (!(await (await fetch(urls.metrics)).text()).includes('loc_http_requests_total')) throw new Error('metrics on: no request counted in /metrics');
    return paired;
  } finally {
    await child.stop();
  }
}

/** The budgeted row of metrics' cost, from the paired slices. */
function pairedRow({ off, on }: Paired): BenchRow {
  const ratios = on.map((us, i) => us / off[i]).sort((a, b) => a - b);
  return {
    group: 'observability', name: 'loc CPU per counted lookup, PostgreSQL × 1: metrics on, paired in one process', ours: median(on), peerName: 'metrics off, the same process',
    peer: median(off), unit: 'µs', higherIsBetter: false, budget: BUDGET,
    note: `medians of ${PAIRED_ROUNDS} slices of ${SLICE_S} s each, alternating; the slices' ratios run ${ratios[0].toFixed(2)}–${ratios.at(-1)!.toFixed(2)}× (middle half ` +
      `${ratios[Math.floor(ratios.length / 4)].toFixed(2)}–${ratios[Math.floor((ratios.length * 3) / 4)].toFixed(2)}×); ${RATE} requests/s on ${CONNECTIONS} connections; both servers run from source (tsx)`,
  };
}

export async function benchObservability(): Promise<BenchRow[]> {
  const database = await createTestDatabase();
  const sink = await otlpSink();
  try {
    const [key] = await seed(await openPostgresStore(database.url));
    const requests = Array.from({ length: 500 }, () => ({
      method: 'GET' as const, path: `/v1/loc/lookup/${encode(45 + Math.random() * 3, 1 + Math.random() * 4).loc_code}`, headers: { 'x-api-key': key },
    }));
    const runs = new Map<string, Cost[]>(MODES.map((mode) => [mode.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) runs.get(mode.name)!.push(await cost(mode, database.url, requests, sink));
    }
    const us = (name: string): number[] => runs.get(name)!.map((each) => each.us);
    const off = median(us('off'));
    const spread = (name: string): string => us(name).map(Math.round).join(', ');
    const scrape = (name: string): string => {
      const ms = runs.get(name)!.flatMap((each) => each.scrapeMs ?? []);
      return ms.length === 0 ? '' : `; a scrape of /metrics costs loc ${median(ms).toFixed(1)} ms of CPU (median), every ${SCRAPE_EVERY_MS / 1000} s in Prometheus' usual setting`;
    };
    const paired = pairedRow(await pairedCost(database.url, requests));
    return [paired, ...MODES.slice(1).map((mode) => ({
      group: 'observability', name: `loc CPU per counted lookup, PostgreSQL × 1: ${mode.name}`, ours: median(us(mode.name)), peerName: 'the same, metrics and tracing off',
      peer: off, unit: 'µs', higherIsBetter: false, budget: BUDGETED.has(mode.name) ? BUDGET : undefined,
      note: `median of ${ROUNDS} alternating runs (${spread(mode.name)} µs vs off ${spread('off')} µs); ${RATE} requests/s on ${CONNECTIONS} connections` +
        scrape(mode.name) + (BUDGETED.has(mode.name) ? '' : '; no budget of its own: context'),
    }))];
  } finally {
    sink.server.close();
    await database.dispose();
    await stopPostgres();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${markdownTable(await benchObservability())}\n`);
}
