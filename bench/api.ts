/**
 * API benchmarks: req/s and p99 latency of resolve, lookup and generate on the real
 * server — the built `loc serve` on SQLite in a temporary directory — against a bare Fastify route
 * that returns a constant JSON body, both in child processes, loaded by autocannon from this process
 * with the same settings in the same run. Also the time from spawning `loc serve` to listening.
 *
 * Run alone with `node --import tsx bench/api.ts`; `npm run bench` includes it.
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { issueKey } from '../src/auth/keys.ts';
import { encode } from '../src/code/index.ts';
import { READY_MESSAGE } from '../src/server/process/ready-line.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite.ts';
import { spawnProcess, type Spawned } from '../test/support/loc-process.ts';
import { markdownTable, type BenchRow } from './report.ts';

/** Seconds each target is loaded, per round. */
const DURATION_S = Number(process.env.LOC_BENCH_SECONDS ?? 3);
/** Rounds: targets are measured in turn, each round, and the best round counts (less noise on a busy machine). */
const ROUNDS = 2;
const CONNECTIONS = 10;
/** Linux's USER_HZ, the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS = 100;
/** Distinct requests per target, cycled. */
const VARIANTS = 500;

/**
 * The peer: the least a Fastify JSON route can do (`/`). For context it also serves, at `/same/<i>`,
 * a constant copy of what target i answers, to tell the cost of our work from the cost of the bytes.
 */
const bareServer = (bodies: string[]): string => `
import Fastify from 'fastify';
const app = Fastify();
const bodies = ${JSON.stringify(bodies)};
app.get('/', async () => ({ success: true, hello: 'world' }));
app.get('/same/:i', async (request, reply) => reply.type('application/json; charset=utf-8').send(bodies[Number(request.params.i)]));
await app.listen({ port: 0, host: '127.0.0.1' });
// The ready line loc serve writes (src/server/process/ready-line.ts), so that one wait serves both.
const url = 'http://127.0.0.1:' + app.server.address().port;
console.log(JSON.stringify({ msg: ${JSON.stringify(READY_MESSAGE)}, url, publicUrl: url }));
`;

interface Server {
  url: string;
  process: Spawned;
  startMs: number;
}

/** Spawns a server (node with `args`) and waits for its ready line. */
async function spawnServer(args: string[], env: Record<string, string> = {}): Promise<Server> {
  const started = performance.now();
  const server = spawnProcess(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const { url } = await server.ready();
  return { url, process: server, startMs: performance.now() - started };
}

async function stop(server: Server): Promise<void> {
  await server.process.stop();
}

const build = (): void => void execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });

/** A data directory with a partner key whose hourly limit no benchmark reaches. */
async function seededDataDir(): Promise<{ dataDir: string; key: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loc-bench-'));
  const store = openSqliteStore(dataDir);
  const account = await store.createAccount({ name: 'bench', partner: true, createdAt: Date.now() });
  const { secret } = await issueKey(store, { accountId: account.id, hourlyLimit: 1_000_000_000, createdAt: Date.now() });
  await store.close();
  return { dataDir, key: secret };
}

/** A point in France (all land), different for each request. */
const randomPoint = (): { lat: number; lng: number } => ({ lat: 45 + Math.random() * 3, lng: 1 + Math.random() * 4 });

/**
 * What is measured against the bare route. No budget: the service does real work per request, and
 * its capacity comes from more processes, not from a ratio to a route that does none; the rows show
 * the server CPU each request costs.
 */
interface Target {
  name: string;
  requests: autocannon.Request[];
}

interface Measure {
  rps: number;
  p99: number;
  failures: number;
  /** CPU time the server process spent per request, µs (null where /proc is missing). */
  cpuUs: number | null;
}

/** User + system CPU time of a process, ms, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

async function load(options: autocannon.Options, server?: Server): Promise<Measure> {
  const before = server ? cpuMs(server.process.child.pid!) : null;
  const result = await autocannon({ connections: CONNECTIONS, pipelining: 1, duration: DURATION_S, ...options });
  const after = server ? cpuMs(server.process.child.pid!) : null;
  const cpuUs = before === null || after === null ? null : ((after - before) * 1000) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts, cpuUs };
}

const cpu = (ours: Measure, peer: Measure): string =>
  ours.cpuUs === null || peer.cpuUs === null ? '' : `; server CPU ${Math.round(ours.cpuUs)} µs/request vs ${Math.round(peer.cpuUs)} µs`;

export async function benchApi(): Promise<BenchRow[]> {
  build();
  const { dataDir, key } = await seededDataDir();
  // Requests are built once and cycled: building each in autocannon's setupRequest would make the
  // load generator, not the server, the bottleneck.
  const points = Array.from({ length: VARIANTS }, randomPoint);
  const json = { 'content-type': 'application/json', 'x-api-key': key };
  const targets: Target[] = [
    {
      name: 'POST /v1/embed/resolve (save false)',
      requests: points.map((p) => ({ method: 'POST', path: '/v1/embed/resolve', headers: json, body: JSON.stringify({ ...p, save: false }) })),
    },
    {
      name: 'GET /v1/loc/lookup/{code}',
      requests: points.map((p) => ({ method: 'GET', path: `/v1/loc/lookup/${encode(p.lat, p.lng).loc_code}`, headers: { 'x-api-key': key } })),
    },
    {
      // What a map full of visitors sends: every click a cell not asked before, so its address is
      // searched instead of remembered. autocannon's connections each cycle the same request list, so
      // a list would repeat points; this one request draws a new point each time it is sent (in the
      // load generator, which costs it a little throughput).
      name: 'POST /v1/embed/resolve (save false, every point new)',
      requests: [{
        method: 'POST', path: '/v1/embed/resolve', headers: json,
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ ...randomPoint(), save: false }) }),
      }],
    },
    {
      // Distinct points per request would need setupRequest (see above); the variants repeat, so
      // after the first pass this measures the idempotent path: the cell exists, is_existing true.
      name: 'POST /v1/loc/generate (500 cells, mostly is_existing)',
      requests: points.map((p) => ({ method: 'POST', path: '/v1/loc/generate', headers: json, body: JSON.stringify({ latitude: p.lat, longitude: p.lng, label: 'bench' }) })),
    },
  ];

  const ours = await spawnServer(['dist/cli.js', 'serve', '--port', '0', '--host', '127.0.0.1'], { LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'warn' });
  const bodies = await Promise.all(targets.map(async (target) => {
    const first = target.requests[0];
    const { method, path, headers, body } = typeof first.setupRequest === 'function' ? first.setupRequest(first, {}) : first;
    return (await fetch(`${ours.url}${path}`, { method, headers: headers as Record<string, string>, body: body as string | undefined })).text();
  }));
  const bare = await spawnServer(['--input-type=module', '-e', bareServer(bodies)]);
  try {
    // Warm both: JIT, the address index, SQLite's page cache.
    await load({ url: bare.url, duration: 1 });
    for (const target of targets) await load({ url: ours.url, requests: target.requests, duration: 1 });

    const best = new Map<string, Measure>();
    const keep = (name: string, measure: Measure): void => {
      const previous = best.get(name);
      if (previous === undefined || measure.rps > previous.rps) best.set(name, measure);
    };
    for (let round = 0; round < ROUNDS; round++) {
      keep('bare', await load({ url: bare.url }, bare));
      for (const [i, target] of targets.entries()) {
        keep(target.name, await load({ url: ours.url, requests: target.requests }, ours));
        keep(`same ${i}`, await load({ url: `${bare.url}/same/${i}` }, bare));
      }
    }
    const peer = best.get('bare')!;
    return targets.map((target, i) => {
      const measure = best.get(target.name)!;
      const same = best.get(`same ${i}`)!;
      const failures = measure.failures > 0 ? `; ${measure.failures} failed requests` : '';
      return {
        group: 'api',
        name: target.name,
        ours: measure.rps,
        peerName: 'bare Fastify route, constant JSON',
        peer: peer.rps,
        unit: 'req/s',
        higherIsBetter: true,
        note: `p99 ${measure.p99} ms vs ${peer.p99} ms; ${(measure.rps / same.rps).toFixed(2)}× a bare route sending the same ` +
          `${bodies[i].length}-byte body (${Math.round(same.rps)} req/s)${cpu(measure, peer)}; ${CONNECTIONS} connections${failures}`,
      };
    });
  } finally {
    await Promise.all([stop(bare), stop(ours)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Spawn of `loc serve` (Node start, modules, database open and migrations) to listening; median of 5. */
/** Budget of the start-up: at most this many times a bare Fastify server's spawn to listening. */
const STARTUP_BUDGET = 3;

/**
 * `loc serve` from spawn to listening, on a fresh database each time, against a bare Fastify server
 * spawned the same way (node, a module, its ready line): five rounds, the two alternating. The note
 * gives loc's spawn to its first answer that needs the code table, which the start leaves to just
 * after the ready line.
 */
export async function measureStartup(): Promise<BenchRow> {
  build();
  const ours: number[] = [];
  const bare: number[] = [];
  const answered: number[] = [];
  for (let i = 0; i < 5; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'loc-start-'));
    const spawned = performance.now();
    const server = await spawnServer(['dist/cli.js', 'serve', '--port', '0', '--host', '127.0.0.1'], { LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'warn' });
    ours.push(server.startMs);
    // What the start left to just after the ready line: the grid table is the code table's.
    await (await fetch(`${server.url}/embed/grid.json`)).arrayBuffer();
    answered.push(performance.now() - spawned);
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    const peer = await spawnServer(['--input-type=module', '-e', bareServer([])]);
    bare.push(peer.startMs);
    await stop(peer);
  }
  const ms = (times: number[]) => times.map((t) => Math.round(t)).join(', ');
  for (const times of [ours, bare, answered]) times.sort((a, b) => a - b);
  return {
    group: 'start', name: 'loc serve: spawn to listening', ours: ours[2], peerName: 'a bare Fastify server spawned the same way', peer: bare[2], unit: 'ms',
    higherIsBetter: false, budget: STARTUP_BUDGET, note: `median of 5 each (${ms(ours)} ms vs ${ms(bare)} ms), alternating; loc on a fresh database each; spawn to the first answer that needs the code table: ${Math.round(answered[2])} ms (median)`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = [...(await benchApi()), await measureStartup()];
  process.stdout.write(`${markdownTable(rows)}\n`);
}
