/**
 * Scale-out benchmarks, each in one run on this machine:
 *
 * - the same counted requests (lookups with a key) on SQLite × 1 process, PostgreSQL × 1 (one key,
 *   and 100 keys), PostgreSQL × 2 workers, and PostgreSQL + Redis × 1 and × 2 workers: requests per
 *   second, loc's CPU per request (every process of the server) and the database's own
 *   (PostgreSQL's backends, Redis), with what a core serves; SQLite × 1 is the peer, and the budgets
 *   are PostgreSQL × 1's share of its throughput, loc's and PostgreSQL's CPU per request, and two
 *   workers against one;
 * - the speed-up from 1 to 2 workers on resolving never-seen cells, CPU-bound (the address search);
 * - revocation: two servers on one PostgreSQL, each asked every 10 ms; a key disabled through the
 *   store; the time until neither answers 2xx any more, over 20 trials, against the 1 s budget.
 *
 * The load generator, PostgreSQL and Redis share the machine's cores with loc: on 2 cores the
 * throughput rows say little about a bigger machine, the CPU per request says how it would scale.
 * Run alone with `node --import tsx bench/scale-out.ts`; `npm run bench` includes it.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { issueKey } from '../src/auth/keys.ts';
import { hashSecret } from '../src/auth/secrets.ts';
import { encode } from '../src/code/index.ts';
import { openPostgresStore } from '../src/store/postgres/postgres.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite.ts';
import type { Store } from '../src/store/store.ts';
import { createTestDatabase, stopPostgres } from '../test/support/postgres.ts';
import { redisServer, stopRedis } from '../test/support/redis.ts';
import { cpuMs, family, processesNamed, serveLoc } from './processes.ts';
import { markdownTable, type BenchRow } from './report.ts';

const DURATION_S = Number(process.env.LOC_BENCH_SECONDS ?? 3);
const CONNECTIONS = 16;
const TRIALS = 20;
const REVOCATION_BUDGET_MS = 1000;
/** Keys of the many-keys case: the load spread over them rather than one hot key. */
const MANY_KEYS = 100;

/** The scale-out budgets, each a ratio within one run: what moving from SQLite to PostgreSQL and workers may cost. */
const BUDGETS = {
  /** Counted lookups on PostgreSQL × 1, of SQLite × 1's requests per second: at least. */
  postgresThroughput: 0.6,
  /** loc's CPU per counted lookup on PostgreSQL, of SQLite's: at most. */
  postgresLocCpu: 1.5,
  /** PostgreSQL's own CPU per counted lookup, µs: at most. */
  databaseCpuUs: 50,
  /** Two workers, of one: at least (a second worker must not slow the service down). */
  workers: 1,
};

interface Setup {
  name: string;
  env: Record<string, string>;
  /** The keys the load spreads over, request by request. */
  keys: string[];
  /** The database's processes, whose CPU is the database's per request. */
  database: () => number[];
}

interface Measure {
  rps: number;
  locUs: number;
  databaseUs: number;
  failures: number;
}

const serve = (setup: Setup): ReturnType<typeof serveLoc> => serveLoc(setup.env);

async function measure(setup: Setup, requests: autocannon.Request[]): Promise<Measure> {
  const server = await serve(setup);
  try {
    await autocannon({ url: server.url, connections: CONNECTIONS, duration: 1, requests });
    const pids = family(server.process.child.pid!);
    const database = setup.database();
    const before = [cpuMs(pids), cpuMs(database)];
    const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: DURATION_S, requests });
    const after = [cpuMs(pids), cpuMs(database)];
    const n = result.requests.total;
    return {
      rps: result.requests.average, failures: result.non2xx + result.errors + result.timeouts,
      locUs: ((after[0] - before[0]) * 1000) / n, databaseUs: ((after[1] - before[1]) * 1000) / n,
    };
  } finally {
    await server.process.stop();
  }
}

/** `count` keys of one partner account whose limits no benchmark reaches; the store is closed. */
export async function seed(store: Store, count = 1): Promise<string[]> {
  const account = await store.createAccount({ name: 'bench', partner: true, createdAt: Date.now() });
  const secrets: string[] = [];
  for (let i = 0; i < count; i++) {
    secrets.push((await issueKey(store, { accountId: account.id, hourlyLimit: 1_000_000_000, embedHourlyLimit: 1_000_000_000, createdAt: Date.now() })).secret);
  }
  await store.close();
  return secrets;
}

/** What the figures say a machine of `cores` would serve, the cores shared by loc and the database as the request shares its CPU. */
const capacity = (m: Measure): string => {
  const perCore = 1_000_000 / (m.locUs + m.databaseUs);
  return `per CPU-second: ${Math.round(1_000_000 / m.locUs)} of loc's, ${m.databaseUs > 0 ? Math.round(1_000_000 / m.databaseUs) : '—'} of the database's; ` +
    `16 cores ≈ ${Math.round(16 * perCore)} req/s, 64 ≈ ${Math.round(64 * perCore)}`;
};

const randomPoint = (): { lat: number; lng: number } => ({ lat: 45 + Math.random() * 3, lng: 1 + Math.random() * 4 });

/** Time from a key's disabling to the last 2xx either of two servers gave, ms; one trial. */
async function revocation(urls: string[], path: string, store: Store, secret: string, keyId: string): Promise<number> {
  await store.setKeyStatus(keyId, 'active');
  await new Promise((done) => setTimeout(done, 1200));
  let lastOk = 0;
  let stop = false;
  const loops = urls.map(async (url) => {
    while (!stop) {
      const answer = await fetch(`${url}${path}`, { headers: { 'x-api-key': secret } }).catch(() => null);
      if (answer !== null && answer.status < 300) lastOk = Math.max(lastOk, performance.now());
      await answer?.arrayBuffer();
      await new Promise((done) => setTimeout(done, 10));
    }
  });
  await new Promise((done) => setTimeout(done, 200 + Math.random() * 300));
  await store.setKeyStatus(keyId, 'disabled');
  const disabledAt = performance.now();
  await new Promise((done) => setTimeout(done, REVOCATION_BUDGET_MS * 2));
  stop = true;
  await Promise.all(loops);
  return Math.max(0, lastOk - disabledAt);
}

/**
 * The counted lookups' rows: each setup's requests per second against SQLite × 1's (PostgreSQL × 1's
 * with its budget), loc's and PostgreSQL's CPU per request against their budgets, and two workers
 * against one, in PostgreSQL and in Redis; each with what a core serves.
 */
function lookupRows(measured: { name: string; measure: Measure }[]): BenchRow[] {
  const get = (name: string): Measure => measured.find((each) => each.name === name)!.measure;
  const sqlite = get('SQLite × 1');
  const row = (name: string, ours: number, peerName: string, peer: number, unit: string, higherIsBetter: boolean, budget: number | undefined, note: string): BenchRow =>
    ({ group: 'scale-out', name, ours, peerName, peer, unit, higherIsBetter, budget, note });
  const rows = measured.slice(1).map(({ name, measure: m }) =>
    row(`GET /v1/loc/lookup/{code}, counted: ${name}`, m.rps, 'the same on SQLite × 1', sqlite.rps, 'req/s', true, name === 'PostgreSQL × 1' ? BUDGETS.postgresThroughput : undefined,
      `loc CPU ${Math.round(m.locUs)} µs/request (SQLite × 1: ${Math.round(sqlite.locUs)}), database CPU ${Math.round(m.databaseUs)} µs/request; ` +
        `${CONNECTIONS} connections${m.failures > 0 ? `; ${m.failures} failed` : ''}; ${capacity(m)}`));
  const pg = get('PostgreSQL × 1');
  const many = get(`PostgreSQL × 1, ${MANY_KEYS} keys`);
  rows.push(
    row('loc CPU per counted lookup: PostgreSQL × 1', pg.locUs, 'the same on SQLite × 1', sqlite.locUs, 'µs', false, BUDGETS.postgresLocCpu, `${CONNECTIONS} connections, one key`),
    row('PostgreSQL CPU per counted lookup: one key', pg.databaseUs, 'budget', BUDGETS.databaseCpuUs, 'µs', false, 1, `${CONNECTIONS} connections on one key, PostgreSQL × 1`),
    row(`PostgreSQL CPU per counted lookup: ${MANY_KEYS} keys`, many.databaseUs, 'budget', BUDGETS.databaseCpuUs, 'µs', false, 1, `${CONNECTIONS} connections, request i with key i mod ${MANY_KEYS}`),
    row('counted lookups: PostgreSQL × 2 workers', get('PostgreSQL × 2 workers').rps, 'the same, × 1', pg.rps, 'req/s', true, BUDGETS.workers, 'the load generator and PostgreSQL share the 2 cores'),
    row('counted lookups: PostgreSQL + Redis × 2 workers', get('PostgreSQL + Redis × 2 workers').rps, 'the same, × 1', get('PostgreSQL + Redis × 1').rps, 'req/s', true, BUDGETS.workers,
      'the load generator, PostgreSQL and Redis share the 2 cores'),
  );
  return rows;
}

export async function benchScaleOut(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loc-bench-'));
  const database = await createTestDatabase();
  const redis = await redisServer();
  const postgres = () => processesNamed('postgres');
  try {
    const sqliteKeys = await seed(openSqliteStore(dataDir));
    const pgKeys = await seed(await openPostgresStore(database.url), MANY_KEYS);
    const [pgKey] = pgKeys;
    const pg = { LOC_DATABASE_URL: database.url };
    const redisCounting = { ...pg, LOC_REDIS_URL: redis.url };
    const withRedis = () => [...postgres(), ...processesNamed('redis-server')];
    const setups: Setup[] = [
      { name: 'SQLite × 1', env: { LOC_DATA_DIR: dataDir }, keys: sqliteKeys, database: () => [] },
      { name: 'PostgreSQL × 1', env: pg, keys: [pgKey], database: postgres },
      { name: 'PostgreSQL × 2 workers', env: { ...pg, LOC_WORKERS: '2' }, keys: [pgKey], database: postgres },
      { name: `PostgreSQL × 1, ${MANY_KEYS} keys`, env: pg, keys: pgKeys, database: postgres },
      { name: 'PostgreSQL + Redis × 1', env: redisCounting, keys: [pgKey], database: withRedis },
      { name: 'PostgreSQL + Redis × 2 workers', env: { ...redisCounting, LOC_WORKERS: '2' }, keys: [pgKey], database: withRedis },
    ];
    const codes = Array.from({ length: 500 }, () => encode(randomPoint().lat, randomPoint().lng).loc_code);
    const lookups = (keys: string[]): autocannon.Request[] =>
      codes.map((code, i) => ({ method: 'GET', path: `/v1/loc/lookup/${code}`, headers: { 'x-api-key': keys[i % keys.length] } }));
    const measures = new Map<string, Measure>();
    for (const setup of setups) measures.set(setup.name, await measure(setup, lookups(setup.keys)));
    const rows = lookupRows(setups.map((setup) => ({ name: setup.name, measure: measures.get(setup.name)! })));

    // Never-seen cells: every request a new point, whose address is searched (CPU in loc).
    const resolve = (key: string): autocannon.Request[] => [{
      method: 'POST', path: '/v1/embed/resolve', headers: { 'content-type': 'application/json', 'x-api-key': key },
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ ...randomPoint(), save: false }) }),
    }];
    const one = await measure(setups[1], resolve(pgKey));
    const two = await measure(setups[2], resolve(pgKey));
    rows.push({
      group: 'scale-out', name: 'POST /v1/embed/resolve, every point new: PostgreSQL × 2 workers', ours: two.rps, peerName: 'the same, × 1', peer: one.rps,
      unit: 'req/s', higherIsBetter: true, budget: BUDGETS.workers,
      note: `loc CPU ${Math.round(two.locUs)} vs ${Math.round(one.locUs)} µs/request; the load generator and PostgreSQL share the 2 cores`,
    });

    // Revocation: two servers on one database, the key disabled through a store of the test's own.
    const servers = [await serve(setups[1]), await serve(setups[1])];
    const store = await openPostgresStore(database.url);
    try {
      const { key } = (await store.findKeyByHash(hashSecret(pgKey)))!;
      const times: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) times.push(await revocation(servers.map((s) => s.url), `/v1/loc/lookup/${codes[0]}`, store, pgKey, key.id));
      times.sort((a, b) => a - b);
      rows.push({
        group: 'scale-out', name: 'revocation: a disabled key refused by two servers (worst of 20)', ours: times[times.length - 1], peerName: 'budget',
        peer: REVOCATION_BUDGET_MS, unit: 'ms', higherIsBetter: false, budget: 1,
        note: `median ${Math.round(times[TRIALS / 2])} ms, best ${Math.round(times[0])} ms; each server asked every 10 ms`,
      });
    } finally {
      await store.close();
      await Promise.all(servers.map((s) => s.process.stop()));
    }
    return rows;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await database.dispose();
    await stopPostgres();
    await stopRedis();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${markdownTable(await benchScaleOut())}\n`);
}
