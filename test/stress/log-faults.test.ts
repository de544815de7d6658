/**
 * Logging never stops the service: the built server with its stdout on a file whose size limit is
 * hit, on a pipe whose reader is gone, and on a pipe or a terminal nobody reads. Each time the server
 * answers — `/healthz`, a lookup, a generate (503 while the disk refuses writes, as for any write) —
 * lives on, and exits 0 on SIGTERM. Lines it could not write are dropped and counted, and the count
 * is written once the destination takes writes again.
 *
 * How the faults are made: the file's limit is the server's file-size limit (`prlimit --pid`), set to
 * the log file's size, so that its next line fails with EFBIG. The limit holds for every file the
 * process writes, its database's included: a generate answers 503 meanwhile, as in faults.test.ts.
 * The same with LOC_WORKERS=2 on PostgreSQL, where each process writes its own lines.
 * The pipes are named pipes (named-pipe.ts), blocking on the server's side as a shell's pipe is. The
 * terminal is made by util-linux `script` (harness.ts), whose output goes to a pipe nobody reads.
 */
import { openSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { DROPPED_MESSAGE } from '../../src/server/logs/log-destination.ts';
import { NamedPipe } from '../support/named-pipe.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../support/postgres.ts';
import { SpawnedServer, childPids, dispose, ensureBuilt, generate, healthStatus, limitFileSize, lookupStatus, seedDataDir, type ExitStatus } from './harness.ts';

/** Short, so that a server that cannot stop fails the test well within its time. */
const SHUTDOWN_TIMEOUT_MS = 2000;

/** How long a request may take here before the server counts as not answering. */
const ANSWER_TIMEOUT_MS = 5000;

/** At info, every request writes a line. */
const ENV = { LOC_LOG_LEVEL: 'info', LOC_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) };

/** `promise`, or a failure naming `what` once `ms` passed. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** SIGTERM, then its exit: the graceful shutdown and the last writes get their time, and a second more. */
const stop = (server: SpawnedServer): Promise<ExitStatus> =>
  within(SHUTDOWN_TIMEOUT_MS + 2000, 'exit after SIGTERM', server.stop());

let server: SpawnedServer | undefined;
let dataDir: string | undefined;
let pipe: NamedPipe | undefined;
afterEach(async () => {
  await dispose(server, dataDir);
  pipe?.close();
  server = dataDir = pipe = undefined;
});

async function seeded(): Promise<string> {
  ensureBuilt();
  const seed = await seedDataDir([{ account: 'acme' }]);
  dataDir = seed.dataDir;
  return seed.keys[0].secret;
}

/** The server answers: health, a read, a write with the status `writeStatus`, each in time. */
async function expectAnswers(running: SpawnedServer, key: string, n: number, writeStatus: number): Promise<void> {
  expect(await within(ANSWER_TIMEOUT_MS, 'GET /healthz', healthStatus(running))).toBe(200);
  expect(await within(ANSWER_TIMEOUT_MS, 'a lookup', lookupStatus(running, key))).toBe(200);
  expect(await within(ANSWER_TIMEOUT_MS, 'a generate', generate(running, key, n))).toMatchObject({ status: writeStatus });
  expect(running.running).toBe(true);
}

/**
 * The file-size limit is the server's: with LOC_WORKERS=2, each of its processes (the primary and
 * the workers, which write their own lines to the one file) gets it. On PostgreSQL the database is
 * written by PostgreSQL, not by loc: a generate is then answered as usual while the log is full.
 */
const FULL_LOG_VARIANTS = [
  { name: 'one process on SQLite', workers: 1, writeStatusWhileFull: 503 },
  { name: 'LOC_WORKERS=2 on PostgreSQL', workers: 2, writeStatusWhileFull: 200 },
];

describe.each(FULL_LOG_VARIANTS)('stdout on a file whose size limit is hit: $name', ({ workers, writeStatusWhileFull }) => {
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await db?.dispose();
    db = undefined;
  });
  afterAll(() => stopPostgres());

  it('the server answers and lives; once the file may grow, the line that failed is written, then how many were dropped; SIGTERM exits 0', async () => {
    const env = { ...ENV, LOC_WORKERS: String(workers) };
    let key: string;
    if (workers === 1) {
      key = await seeded();
    } else {
      ensureBuilt();
      db = await createTestDatabase();
      const seed = await seedDataDir([{ account: 'acme' }], { engine: 'postgres', database: db });
      dataDir = seed.dataDir;
      key = seed.keys[0].secret;
      Object.assign(env, seed.env);
    }
    const logFile = join(dataDir!, 'stdout.log');
    server = await SpawnedServer.start(dataDir!, env, { stdout: openSync(logFile, 'a') });
    const log = (): string => readFileSync(logFile, 'utf8');
    const processes = (): number[] => [server!.pid, ...(workers > 1 ? childPids(server!.pid) : [])];
    expect(processes()).toHaveLength(workers === 1 ? 1 : workers + 1);
    /** A /healthz on a connection of its own (a cluster deals connections out in turn), answered in time: its Request-Id, which its log line carries. */
    const health = async (): Promise<string> => {
      const response = await within(ANSWER_TIMEOUT_MS, 'GET /healthz', getFresh(server!.port, '/healthz'));
      expect(response.status).toBe(200);
      return response.id;
    };
    // Once the banner is out (a cluster's primary prints it when every worker listens) and the line
    // of a request to each process made now, nothing else is on its way to the file.
    await vi.waitFor(() => expect(log()).toContain('"msg":"listening"'), { timeout: 5000 });
    const settled = await Promise.all(Array.from({ length: workers }, () => health()));
    await vi.waitFor(() => expect(settled.every((id) => log().includes(id))).toBe(true));
    const limit = statSync(logFile).size;
    for (const pid of processes()) limitFileSize(pid, limit);
    const limitedAt = Date.now();

    const failed = await health();
    const later = [await health(), await health(), await health()];
    await expectAnswers(server, key, 1, writeStatusWhileFull);
    const requestsAfter = later.length + 3;
    expect(statSync(logFile).size).toBe(limit);

    for (const pid of processes()) limitFileSize(pid, 'unlimited');
    type Report = { level: number; dropped: number; since: number; error: string; worker?: number };
    const reports = (): Report[] =>
      log().split('\n').filter((entry) => entry.includes(DROPPED_MESSAGE)).map((entry) => JSON.parse(entry) as Report);
    await vi.waitFor(() => expect(reports()).not.toEqual([]), { timeout: 5000 });
    // The line that failed was kept and written. A line that came before the failure was known
    // waited with it; every later one was dropped and counted — by the process that dropped it, each
    // reporting its own once it writes again — and each request logged one line, the refused
    // generate also its error.
    await vi.waitFor(() => expect(log()).toContain(failed), { timeout: 5000 });
    // In a cluster, read again until each process wrote what it kept and its report.
    const missing = (): number => later.filter((id) => !log().includes(id)).length;
    const dropped = (): number => reports().reduce((sum, report) => sum + report.dropped, 0);
    await vi.waitFor(() => expect(dropped()).toBeGreaterThanOrEqual(missing()), { timeout: 5000 });
    console.log(`stdout on a file at its size limit (${workers} worker(s)): ${dropped()} lines dropped over ${requestsAfter + 1} requests; the reports: ${JSON.stringify(reports())}`);
    for (const report of reports()) {
      expect(report).toMatchObject({ level: 40, error: 'EFBIG' });
      expect(report.since).toBeGreaterThanOrEqual(limitedAt);
      if (workers > 1) expect(report.worker).toBeGreaterThanOrEqual(1);
    }
    expect(dropped()).toBeLessThanOrEqual(2 * requestsAfter);

    await expectAnswers(server, key, 2, 200);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
    expect(log().match(/"msg":"closed"/g)).toHaveLength(workers);
    // A cluster's start is seconds of two whole services starting on two cores.
  }, 40_000);
});

/** GET `path` on a connection of its own: status and Request-Id. */
const getFresh = (port: number, path: string): Promise<{ status: number; id: string }> =>
  new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, id: String(response.headers['request-id']) }));
    }).on('error', reject).end();
  });

describe('stdout and stderr on a pipe whose reader is gone (EPIPE)', () => {
  it('the server starts, answers and lives, and SIGTERM exits 0', async () => {
    const key = await seeded();
    pipe = new NamedPipe();
    pipe.closeReader();
    // A misspelled setting, so that the start writes a warning to stderr as well.
    server = await SpawnedServer.start(dataDir!, { ...ENV, LOC_DATADIR: dataDir! }, { stdout: pipe.writer, stderr: pipe.writer });
    pipe.closeWriter();
    await expectAnswers(server, key, 1, 200);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  });
});

/** `count` lookups at once, each answered 200 in time. */
async function lookups(running: SpawnedServer, key: string, count: number): Promise<void> {
  const statuses = await Promise.all(Array.from({ length: count }, () => within(ANSWER_TIMEOUT_MS, 'a lookup', lookupStatus(running, key))));
  expect(statuses).toEqual(Array(count).fill(200));
}

describe('stdout on a pipe nobody reads', () => {
  it('once the pipe is full, requests are still answered, and SIGTERM still exits 0', async () => {
    const key = await seeded();
    pipe = new NamedPipe();
    server = await SpawnedServer.start(dataDir!, ENV, { stdout: pipe.writer });
    pipe.closeWriter();
    pipe.fill();
    // Their lines wait for the pipe, and so does the log line of every request after them.
    await lookups(server, key, 200);
    for (let n = 1; n <= 3; n++) await expectAnswers(server, key, n, 200);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  });
});

describe('stdout on a terminal nobody reads', () => {
  it('requests are still answered, and SIGTERM still ends the server, exit code 0', async () => {
    const key = await seeded();
    pipe = new NamedPipe();
    server = await SpawnedServer.start(dataDir!, ENV, { stdout: pipe.writer, terminal: true });
    pipe.closeWriter();
    const running = server;
    // With the pipe full `script` waits on it, and the terminal's own buffer (64 KB and a little)
    // fills behind it with the lines of these requests.
    pipe.fill();
    for (let n = 0; n < 30; n++) await lookups(running, key, 20);
    await expectAnswers(running, key, 1, 200);

    process.kill(running.pid, 'SIGTERM');
    await vi.waitFor(() => expect(running.ended).toBe(true), { timeout: SHUTDOWN_TIMEOUT_MS + 2000 });
    // Read at last, `script` writes out what it holds, sees its child's end and exits with its code.
    let output = '';
    const status = await vi.waitFor(async () => {
      output += pipe!.read();
      expect(running.running).toBe(false);
      return running.exited;
    }, { timeout: 5000 });
    expect(status).toEqual({ code: 0, signal: null });
    // The terminal was still stuck at the end: the server's last line never got out.
    expect(output).toContain('loc is listening');
    expect(output).not.toContain('"msg":"closed"');
  });
});
