/**
 * `loc serve` with LOC_WORKERS=2 on PostgreSQL, as an operator runs it: the built CLI as a child
 * process. The primary seeds once and prints the banner once; both workers answer, each line tagged
 * with its worker; a killed worker is started again, one that keeps failing at its start stops the
 * service; SIGTERM drains every worker and lets in-flight requests finish, Ctrl-C (the whole process
 * group) too, with no worker started again meanwhile; a second signal ends everything at once.
 *
 * A cluster is three processes, seconds of CPU on two cores, and a test that ends it by a signal uses
 * it up: what a running cluster shows is looked at on the one a shutdown's test then stops, in the
 * order written (the tests of a describe share its cluster), and each shutdown has a cluster of its own.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Balancer, expectDrained, type Outcome } from '../../../test/support/balancer.ts';
import { finished, occupyPort, spawnLoc, type Spawned } from '../../../test/support/loc-process.ts';
import { admin, createTestDatabase, startCluster, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';
import { DEV_KEY_FILE } from './dev-seed.ts';

interface LogLine {
  msg?: string;
  pid?: number;
  worker?: number;
  reqId?: string;
  signal?: string;
  req?: { url?: string };
  status?: number;
}

/** The JSON lines of `output`. */
const lines = (output: string): LogLine[] => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);

/** The pid of each worker, by number, from their "Server listening" lines; the last one of each number. */
const workerPids = (output: string): Map<number, number> =>
  new Map(lines(output).filter((line) => line.msg?.startsWith('Server listening')).map((line) => [line.worker!, line.pid!]));

/** GET `path` on a connection of its own (fetch would keep one alive, and so one worker): status and Request-Id. */
const get = (port: number, path: string): Promise<{ status: number; id: string }> =>
  new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, id: String(response.headers['request-id']) }));
    }).on('error', reject).end();
  });

const rows = async (url: string, sql: string): Promise<unknown[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
};

let db: TestDatabase;
let dataDir: string;
let server: Spawned | undefined;
/** A fresh database and data directory for the next cluster. */
async function freshPlace(): Promise<void> {
  db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'loc-cluster-'));
}
/** Ends what is left of the cluster and removes its place. */
async function cleanUp(): Promise<void> {
  if (server !== undefined && server.child.exitCode === null) {
    // The whole group: the workers too, should the primary be stuck.
    process.kill(-server.child.pid!, 'SIGKILL');
    await finished(server);
  }
  server = undefined;
  rmSync(dataDir, { recursive: true, force: true });
  await db.dispose();
}
afterAll(() => stopPostgres());

const serve = (args: string[] = [], env: Record<string, string> = {}, databaseUrl = db.url): Spawned =>
  spawnLoc(['serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { LOC_DATA_DIR: dataDir, LOC_DATABASE_URL: databaseUrl, LOC_WORKERS: '2', LOC_LOG_LEVEL: 'info', LOC_SHUTDOWN_TIMEOUT_MS: '3000', ...env },
    // A group of its own, to signal it as a terminal's Ctrl-C does, and to kill what is left of it.
    detached: true,
  });

/** The port of its ready line. */
const readyPort = async (spawned: Spawned): Promise<number> => Number(new URL((await spawned.ready()).url).port);

/**
 * The port, once both workers' own "Server listening" lines are out too: each process writes its own
 * lines, and a worker's may come after the primary's ready line.
 */
async function listening(spawned: Spawned): Promise<number> {
  const port = await readyPort(spawned);
  await vi.waitFor(() => expect([...workerPids(spawned.output()).keys()].sort()).toEqual([1, 2]), FROM_WORKERS);
  return port;
}

/**
 * A wait on what the workers write or answer: they are other processes, which a machine running other
 * test files beside this one may serve seconds late; vi.waitFor's own second is for code in this process.
 */
const FROM_WORKERS = { timeout: 10_000 };

/** The drain of the test that sends requests through it, and how long its balancer still sends after the SIGTERM. */
const DRAIN_MS = 1500;
const BALANCER_LAG_MS = 1000;

/** Longer than REPEATED_SIGNAL_MS (server.ts): the same signal again is then a second one, not the first delivered twice. */
const PAST_REPEAT_MS = 700;

// Each start forks two whole services on a machine of two cores: seconds, not milliseconds.
describe('loc serve with LOC_WORKERS=2', { timeout: 60_000 }, () => {
  describe('seeded at its start, then drained', () => {
    beforeAll(async () => {
      await freshPlace();
      server = serve(['--seed-dev'], { LOC_DRAIN_MS: String(DRAIN_MS) });
    });
    afterAll(cleanUp);

    it('seeds once and prints the banner once; both workers answer, every line saying which', async () => {
      const port = await listening(server!);
      const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
      expect((await get(port, '/healthz')).status).toBe(200);
      const answered = await Promise.all(Array.from({ length: 12 }, () => get(port, '/healthz')));
      expect(answered.map(({ status }) => status)).toEqual(Array(12).fill(200));
      await vi.waitFor(() => expect(lines(server!.output()).filter((line) => line.msg === 'request')).toHaveLength(13), FROM_WORKERS);

      const output = server!.output();
      expect(output.match(/^loc is listening on /gm)).toHaveLength(1);
      expect(output.match(/"msg":"listening"/g)).toHaveLength(1);
      expect(output.match(/^Empty database: created the partner account "development"/gm)).toHaveLength(1);
      expect(output.match(/^Development API key: /gm)).toHaveLength(1);
      expect(await rows(db.url, 'SELECT name FROM accounts')).toEqual([{ name: 'development' }]);
      expect(await rows(db.url, 'SELECT count(*)::int AS n FROM loc_schema')).toEqual([{ n: 1 }]);
      expect((await fetch(`http://127.0.0.1:${port}/v1/loc/lookup/FR-0RMB-CLY0`, { headers: { 'x-api-key': key } })).status).toBe(200);

      const pids = workerPids(output);
      expect(new Set([server!.child.pid, ...pids.values()]).size).toBe(3);
      // Each request's line comes from the worker that answered it: both did.
      const requests = lines(output).filter((line) => line.msg === 'request');
      expect(new Set(requests.map((line) => line.worker))).toEqual(new Set([1, 2]));
      for (const line of requests) expect(line.pid).toBe(pids.get(line.worker!));
      // The primary's own lines say so; the banner's ready line is one of them.
      for (const line of lines(output)) expect(line.worker, JSON.stringify(line)).toBe(line.pid === server!.child.pid ? 0 : [...pids.entries()].find(([, pid]) => pid === line.pid)?.[0]);
    });

    it('on SIGTERM drains every worker: each fails /readyz at once, every request is served through the drain, and the primary exits 0 after it', async () => {
      const balancer = new Balancer(await listening(server!));
      // Each worker is ready once its codec's tables are loaded, just after the ready line: both, before the balancer starts.
      await vi.waitFor(async () => {
        await balancer.get('/readyz', false, 'readyz');
        const ready = lines(server!.output()).filter((line) => line.msg === 'request' && line.req?.url === '/readyz' && line.status === 200);
        expect(new Set(ready.map((line) => line.worker))).toEqual(new Set([1, 2]));
      }, FROM_WORKERS);
      await balancer.sendThrough(() => server!.child.kill('SIGTERM'), BALANCER_LAG_MS);
      const code = await finished(server!);
      const exitedAt = balancer.since();

      const output = server!.output();
      // Which worker answered: the request's log line says, its Request-Id as `reqId`; 0, the primary's, if none does.
      const answeredBy = new Map(lines(output).filter((line) => line.msg === 'request').map((line) => [line.reqId, line.worker!]));
      const workerOf = ({ id }: Outcome): number => answeredBy.get(id) ?? 0;
      expectDrained(balancer.outcomes, BALANCER_LAG_MS, workerOf);
      // The primary deals connections out to both: the balancer's probe reached each, and each failed it.
      const probed = balancer.outcomes.filter(({ via, sentAt }) => via === 'readyz' && sentAt > 0).map(workerOf);
      expect(new Set(probed)).toEqual(new Set([1, 2]));
      expect(lines(output).filter((line) => line.msg?.startsWith('draining')).map((line) => line.worker).sort()).toEqual([1, 2]);
      expect(lines(output).filter((line) => line.msg === 'closed').map((line) => line.worker).sort()).toEqual([1, 2]);
      expect({ code, afterTheDrain: exitedAt >= DRAIN_MS }).toEqual({ code: 0, afterTheDrain: true });
    });
  });

  describe('with a worker killed, then stopped with requests in flight', () => {
    beforeAll(async () => {
      await freshPlace();
      server = serve(['--seed-dev']);
    });
    afterAll(cleanUp);

    it('starts again a worker killed with SIGKILL, saying so, and the service goes on answering', async () => {
      const port = await listening(server!);
      const before = workerPids(server!.output());
      process.kill(before.get(1)!, 'SIGKILL');
      await server!.waitFor(/"worker":0,[^\n]*"msg":"worker 1 exited \(signal SIGKILL\); starting it again"/);
      await vi.waitFor(() => expect(workerPids(server!.output()).get(1)).not.toBe(before.get(1)), FROM_WORKERS);
      const answered = await Promise.all(Array.from({ length: 8 }, () => get(port, '/healthz')));
      expect(answered.map(({ status }) => status)).toEqual(Array(8).fill(200));
      expect(server!.output().match(/^loc is listening on /gm)).toHaveLength(1);
    });

    it('on SIGTERM lets the in-flight requests of both workers finish, starts none again, and exits 0', async () => {
      const port = await listening(server!);
      const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
      // Two requests whose bodies are still on their way when the signal comes, one per worker (the
      // primary deals connections out in turn). Node answers 100 Continue once it took the request in.
      const body = JSON.stringify({ latitude: 1.2834, longitude: 103.8607 });
      const inFlight = await Promise.all([0, 1].map(async () => {
        const socket = connect(port, '127.0.0.1');
        let response = '';
        socket.on('data', (chunk) => void (response += chunk));
        const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
        socket.write(`POST /v1/loc/generate HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n${body.slice(0, 10)}`);
        await vi.waitFor(() => expect(response).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/), FROM_WORKERS);
        return { socket, closed, response: () => response };
      }));
      // What the cluster writes from the signal on: the in-flight requests' lines, the shutdown's.
      const signalledAt = server!.output().length;
      const sinceSignal = () => server!.output().slice(signalledAt);
      server!.child.kill('SIGTERM');
      await vi.waitFor(() => expect(lines(sinceSignal()).filter((line) => line.msg?.startsWith('shutting down: finishing')).map((line) => line.worker).sort()).toEqual([1, 2]), FROM_WORKERS);
      for (const { socket } of inFlight) socket.end(body.slice(10));
      for (const { closed, response } of inFlight) {
        await closed;
        expect(response()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
      }
      expect(await finished(server!)).toBe(0);
      const generated = lines(sinceSignal()).filter((line) => line.msg === 'request' && line.req?.url === '/v1/loc/generate');
      expect(new Set(generated.map((line) => line.worker))).toEqual(new Set([1, 2]));
      expect(sinceSignal()).not.toContain('starting it again');
      expect(lines(sinceSignal()).filter((line) => line.msg === 'closed')).toHaveLength(2);
    });
  });

  describe('stopped at once', () => {
    beforeEach(freshPlace);
    afterEach(cleanUp);

    it('on a second SIGTERM during the drain, ends the primary and the workers at once, exit 1', async () => {
      server = serve([], { LOC_DRAIN_MS: '30000' });
      await server.ready();
      server.child.kill('SIGTERM');
      await vi.waitFor(() => expect(lines(server!.output()).filter((line) => line.msg?.startsWith('draining')).map((line) => line.worker).sort()).toEqual([1, 2]), FROM_WORKERS);
      // Past the time within which the same signal again is a forwarded copy of the first, for the workers too.
      await new Promise((resolve) => setTimeout(resolve, PAST_REPEAT_MS));
      server.child.kill('SIGTERM');
      // Far sooner than the drain would end: the output is complete once every process of the service has ended.
      const ended = await Promise.race([finished(server), new Promise((resolve) => setTimeout(resolve, 10_000, 'still running 10 s after the second signal'))]);
      expect(ended).toBe(1);
      const output = server.output();
      expect(lines(output).filter((line) => line.msg === 'second signal: exiting without waiting').map((line) => line.worker)).toContain(0);
      expect(output).not.toContain('"msg":"closed"');
    });

    it('on Ctrl-C, which signals every process of the group, shuts each worker down once and exits 0', async () => {
      server = serve();
      await server.ready();
      process.kill(-server.child.pid!, 'SIGINT');
      expect(await finished(server)).toBe(0);
      const output = server.output();
      expect(lines(output).filter((line) => line.msg?.startsWith('shutting down')).map((line) => line.worker).sort()).toEqual([0, 1, 2]);
      expect(lines(output).filter((line) => line.msg === 'closed').map((line) => line.worker).sort()).toEqual([1, 2]);
      expect(output).not.toContain('second signal');
      expect(output).not.toContain('starting it again');
    });
  });
});

describe('a cluster that cannot start', { timeout: 60_000 }, () => {
  beforeEach(freshPlace);
  afterEach(cleanUp);

  it('on a database of a newer loc: the primary says so in one line, before any worker starts, exit 1', async () => {
    await rows(db.url, 'CREATE TABLE loc_schema (one boolean PRIMARY KEY DEFAULT true, version integer NOT NULL, compatible_from integer NOT NULL)');
    await rows(db.url, 'INSERT INTO loc_schema VALUES (true, 999, 999)');
    server = serve();
    expect(await finished(server)).toBe(1);
    expect(server.output()).toMatch(/^error: cannot open the database in postgres:\/\/[^\n]*: the database has schema version 999[^\n]*\n$/);
  });

  it('on a port in use: one line for both workers, exit 1', async () => {
    const { port, server: occupied } = await occupyPort('127.0.0.1');
    try {
      server = spawnLoc(['serve', '--port', String(port), '--host', '127.0.0.1'], { env: { LOC_DATA_DIR: dataDir, LOC_DATABASE_URL: db.url, LOC_WORKERS: '2' }, detached: true });
      expect(await finished(server)).toBe(1);
      expect(server.output()).toBe(`error: cannot listen on 127.0.0.1:${port}: the port is in use (set PORT or --port)\n`);
    } finally {
      occupied.close();
    }
  });

  it('stops the service, exit 1, when a worker started again keeps failing at its start, saying why in one line', async () => {
    // A PostgreSQL of this test's own, stopped under the running service.
    const own = await startCluster();
    let stopped = false;
    try {
      await admin(own.adminUrl, 'CREATE DATABASE loc');
      server = serve([], {}, own.adminUrl.replace(/\/postgres$/, '/loc'));
      await server.ready();
      own.stop();
      stopped = true;
      // Past its first second: this end is a crash, not a failed start; the five failed starts follow.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      process.kill(workerPids(server.output()).get(1)!, 'SIGKILL');
      expect(await finished(server)).toBe(1);
      const output = server.output();
      expect(output.match(/"msg":"worker 1 exited [^"]*; starting it again"/g)).toHaveLength(5);
      expect(output).toMatch(/\nerror: worker 1 failed at its start 5 times in a row \(last: cannot open the database in postgres:\/\/[^\n]*ECONNREFUSED[^\n]*\); stopping the service\n$/);
    } finally {
      if (!stopped) own.stop();
    }
  }, 60_000);
});
