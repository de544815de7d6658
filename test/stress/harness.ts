/**
 * The spawned server of the stress suites: the built `loc serve` (dist/cli.js) as a child process on a
 * SQLite data directory in a temporary directory — or, with `engine: 'postgres'`, on a PostgreSQL
 * database of its own (test/support/postgres.ts; the server gets LOC_DATABASE_URL) — seeded with
 * accounts and keys through the store before it starts, and reached over real sockets only. Its stdout and stderr are captured (the logs
 * the secrets suite greps), or go where the test says (a file, a pipe, a terminal); it can be stopped
 * with SIGTERM, killed with SIGKILL at any moment, and started again on the same data. The requests
 * the fault suites send it are here too.
 *
 * `LOC_STRESS=full` (what `npm run stress` sets) scales every suite from its short variant, part of
 * `npm test`, to the long one of `npm run stress`; `scale(short, full)` picks the figure.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueKey } from '../../src/auth/keys.ts';
import { MAX_LIMIT } from '../../src/limits/budgets.ts';
import { openPostgresStore } from '../../src/store/postgres/postgres.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite.ts';
import type { Store } from '../../src/store/store.ts';
import { freePort, readyIn } from '../support/loc-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

const STRESS_FULL = process.env.LOC_STRESS === 'full';

/** The short figure inside `npm test`, the long one under `npm run stress`. */
export const scale = <T>(short: T, full: T): T => (STRESS_FULL ? full : short);

/** How long a server gets to start listening before the suite gives up on it. */
const START_TIMEOUT_MS = 15_000;

export interface KeySpec {
  /** Account name; created as a partner unless `partner` is false. Keys may share an account. */
  account: string;
  partner?: boolean;
  /** The key's limits; each unlimited for practical purposes (a billion) unless given. */
  hourlyLimit?: number;
  embedHourlyLimit?: number;
  sessionLimit?: number;
  origins?: string[];
  /** Seeded disabled (key_inactive). */
  disabled?: boolean;
}

export interface SeededKey {
  id: string;
  accountId: string;
  secret: string;
}

/** Builds dist/ unless it is complete (vitest's global setup has usually done it already). */
export function ensureBuilt(): void {
  execFileSync(process.execPath, ['build.mjs', '--if-missing'], { stdio: 'inherit' });
}

/** The most counts a process may hold leased for a key: a 32nd of the room left, at most 256 (docs/operations.md). */
export const leaseAtMost = (limit: number): number => Math.min(256, Math.floor(limit / 32));

/** The store engines a spawned server runs on: SQLite in its data directory, or a PostgreSQL database. */
export type Engine = 'sqlite' | 'postgres';
export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

/** Where the seeding puts its accounts and keys. */
export interface SeedOptions {
  /** Default sqlite. */
  engine?: Engine;
  /** With postgres: this database instead of a fresh, migrated one of the test server's (createTestDatabase). */
  database?: TestDatabase;
}

export interface Seeded {
  /** The server's data directory: the SQLite database, or on PostgreSQL only what else loc keeps there. */
  dataDir: string;
  keys: SeededKey[];
  engine: Engine;
  /** On postgres, the database; its dispose drops it. */
  database?: TestDatabase;
  /** What `SpawnedServer.start` adds to the environment for the server to run on this store. */
  env: Record<string, string>;
}

/**
 * A new temporary data directory holding the accounts and keys asked for, in order; with
 * `engine: 'postgres'`, a fresh database holding them (cloned from the run's migrated template, or
 * migrated by the store, as `loc serve` would, when given one), and `env` naming it to the server.
 */
export async function seedDataDir(keys: KeySpec[], { engine = 'sqlite', database }: SeedOptions = {}): Promise<Seeded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loc-stress-'));
  if (engine === 'sqlite') {
    const store = openSqliteStore(dataDir);
    try {
      return { dataDir, keys: await seedStore(store, keys), engine, env: {} };
    } finally {
      await store.close();
    }
  }
  const db = database ?? (await createTestDatabase({ migrated: true }));
  const store = await openPostgresStore(db.url);
  try {
    return { dataDir, keys: await seedStore(store, keys), engine, database: db, env: { LOC_DATABASE_URL: db.url } };
  } finally {
    await store.close();
  }
}

/** Creates the accounts and keys asked for, in order, in `store`. */
export async function seedStore(store: Store, keys: KeySpec[]): Promise<SeededKey[]> {
  const seeded: SeededKey[] = [];
  for (const spec of keys) {
    const account = (await store.findAccount(spec.account))
      ?? (await store.createAccount({ name: spec.account, partner: spec.partner ?? true, createdAt: Date.now() }));
    const { key, secret } = await issueKey(store, {
      accountId: account.id, origins: spec.origins ?? ['https://shop.example'], hourlyLimit: spec.hourlyLimit ?? MAX_LIMIT,
      embedHourlyLimit: spec.embedHourlyLimit ?? MAX_LIMIT, sessionLimit: spec.sessionLimit ?? MAX_LIMIT, createdAt: Date.now(),
    });
    if (spec.disabled) await store.setKeyStatus(key.id, 'disabled');
    seeded.push({ id: key.id, accountId: account.id, secret });
  }
  return seeded;
}

/** Where the server's output goes; by default to pipes drained here, whose text `output()` returns. */
export interface ServerStdio {
  /** A file descriptor for its stdout instead: a file, a pipe the test holds. */
  stdout?: number;
  /** Likewise for its stderr. */
  stderr?: number;
  /**
   * Its stdin, stdout and stderr are a terminal of its own, whose output goes to `stdout`: it runs
   * under util-linux `script`, which copies from the terminal to there, and stops reading the
   * terminal while it cannot write.
   */
  terminal?: boolean;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class SpawnedServer {
  private captured = '';
  readonly exited: Promise<ExitStatus>;

  private constructor(
    readonly child: ChildProcess,
    readonly dataDir: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    // Always drained: a child whose pipe fills up blocks on its next log line.
    child.stdout?.on('data', (chunk: Buffer) => void (this.captured += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => void (this.captured += chunk.toString('utf8')));
  }

  /** `url` is set once the server said where it listens. */
  url = '';
  port = 0;

  /**
   * Starts `loc serve` on `dataDir` (127.0.0.1 only) and resolves once it listens. `env` adds to the
   * environment: LOC_LOG_LEVEL defaults to warn. With `stdio.stdout` the ready line is not read here: the
   * port is then chosen here, and the server listens once `/healthz` answers.
   */
  static async start(dataDir: string, env: Record<string, string> = {}, stdio: ServerStdio = {}): Promise<SpawnedServer> {
    const { stdout, stderr, terminal = false } = stdio;
    const port = stdout === undefined ? 0 : await freePort();
    const serve = [process.execPath, 'dist/cli.js', 'serve', '--port', String(port), '--host', '127.0.0.1'];
    // `exec`: the server is the child of `script` itself, not of a shell.
    const [command, ...args] = terminal ? ['script', '--quiet', '--return', '--command', `exec ${serve.map((arg) => `'${arg}'`).join(' ')}`, '/dev/null'] : serve;
    const child = spawn(command, args, {
      env: { ...process.env, LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'warn', LOC_DRAIN_MS: '0', ...env },
      // `script` ends its terminal's input at the end of its own: it gets an input that never ends.
      stdio: [terminal ? 'pipe' : 'ignore', stdout ?? 'pipe', stderr ?? 'pipe'],
    });
    const server = new SpawnedServer(child, dataDir);
    const listening = stdout === undefined ? server.readyPort() : server.healthy(port);
    let timer: NodeJS.Timeout | undefined;
    server.port = await Promise.race([
      listening,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`loc serve did not listen within ${START_TIMEOUT_MS} ms:\n${server.captured}`)), START_TIMEOUT_MS);
      }),
      server.exited.then((status): never => {
        throw new Error(`loc serve exited (${status.code ?? status.signal}) before listening:\n${server.captured}`);
      }),
    ]).finally(() => clearTimeout(timer));
    server.url = `http://127.0.0.1:${server.port}`;
    if (terminal) server.serverPid = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim());
    return server;
  }

  /** The port of the ready line, once it is out. */
  private readyPort(): Promise<number> {
    return new Promise((resolve) => {
      const onData = (): void => {
        const ready = readyIn(this.captured);
        if (ready === null) return;
        this.child.stdout!.off('data', onData);
        resolve(Number(new URL(ready.url).port));
      };
      this.child.stdout!.on('data', onData);
    });
  }

  /** `port`, once `/healthz` answers there while the server runs. */
  private async healthy(port: number): Promise<number> {
    while (this.running) {
      const status = await fetch(`http://127.0.0.1:${port}/healthz`).then((response) => response.status, () => 0);
      if (status === 200) return port;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('loc serve exited before /healthz answered');
  }

  /** Under `script`, the server's own pid. */
  private serverPid: number | undefined;

  /** The server's pid. */
  get pid(): number {
    return this.serverPid ?? this.child.pid!;
  }

  /** Whether the server process has ended, reaped or not: under `script`, `exited` waits for `script` too. */
  get ended(): boolean {
    try {
      // The state follows the command name, which is in parentheses; Z: ended, not yet reaped.
      return readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
    } catch {
      return true;
    }
  }

  /** Everything the server wrote so far to the stdout and stderr drained here. */
  output(): string {
    return this.captured;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resident memory of the server process, MiB (Linux /proc). */
  rssMiB(): number {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
    if (match === null) throw new Error(`no VmRSS for process ${this.pid}`);
    return Number(match[1]) / 1024;
  }

  /** Sends a signal and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ExitStatus> {
    if (!this.running) return this.exited;
    if (this.serverPid === undefined) {
      this.child.kill(signal);
    } else {
      if (!this.ended) process.kill(this.serverPid, signal);
      // Held up by output nobody reads, `script` would not see the server end.
      if (signal === 'SIGKILL') this.child.kill(signal);
    }
    return this.exited;
  }

  /** Stops the server gracefully (SIGTERM) and waits for its exit. */
  stop(): Promise<ExitStatus> {
    return this.kill('SIGTERM');
  }
}

/** Stops the server if it still runs and deletes its data directory, and its database if it has one. */
export async function dispose(server: SpawnedServer | undefined, dataDir: string | undefined, database?: TestDatabase): Promise<void> {
  if (server !== undefined) await server.kill('SIGKILL');
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  await database?.dispose();
}

/** A POST of `body` as JSON with the key `key`. */
export const post = (server: SpawnedServer, path: string, key: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Status, code and message of a generate for the n-th point. */
export async function generate(server: SpawnedServer, key: string, n: number): Promise<{ status: number; code?: string; message?: string; retryAfter: string | null }> {
  const response = await post(server, '/v1/loc/generate', key, { latitude: 45 + n * 0.001, longitude: 4.8, label: `fault ${n}` });
  const body = (await response.json()) as { code?: string; message?: string };
  return { status: response.status, code: body.code, message: body.message, retryAfter: response.headers.get('retry-after') };
}

export const lookupStatus = async (server: SpawnedServer, key: string): Promise<number> =>
  (await fetch(`${server.url}/v1/loc/lookup/FR-0RMB-CLY0`, { headers: { 'x-api-key': key } })).status;

export const healthStatus = async (server: SpawnedServer): Promise<number> => (await fetch(`${server.url}/healthz`)).status;

/** The processes a server's pid started (a cluster's workers), from /proc. */
export const childPids = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

/**
 * How many established IPv4 connections on its local port `port` process `pid` holds (Linux /proc):
 * which of a cluster's workers a client's connection was dealt to.
 */
export function connectionsOn(pid: number, port: number): number {
  const inodes = new Set(readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
    } catch {
      return undefined; // closed meanwhile
    }
  }));
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync(`/proc/${pid}/net/tcp`, 'utf8').trim().split('\n').slice(1)
    .map((line) => line.trim().split(/\s+/))
    // local address, state 01 (ESTABLISHED), inode
    .filter((fields) => fields[1].endsWith(local) && fields[3] === '01' && inodes.has(fields[9])).length;
}

/** The JSON log lines of `servers` (a cluster's: every process's) whose `msg` is `msg`. */
export const logEntries = <T = Record<string, unknown>>(servers: readonly SpawnedServer[], msg: string): T[] =>
  servers
    .flatMap((server) => server.output().split('\n'))
    .filter((line) => line.startsWith('{') && line.includes(JSON.stringify(msg)))
    .map((line) => JSON.parse(line) as T & { msg?: string })
    .filter((entry) => entry.msg === msg);

/** Sets the file-size limit (bytes, or unlimited) of a running process: every write past it fails with EFBIG. */
export const limitFileSize = (pid: number, limit: number | 'unlimited'): void =>
  void execFileSync('prlimit', ['--pid', String(pid), `--fsize=${limit}:unlimited`]);

/** How a write storm of the crash suites ended: writes acknowledged, in flight at the kill, when it came. */
export interface Storm {
  acknowledged: number;
  inFlight: number;
  killedAfterMs: number;
}

/**
 * The crash suites' storm: 16 writers call `write` as fast as they can while `running()` holds; once
 * 50 writes are acknowledged, `kill` comes at a random moment within the next 600 ms (so that every
 * cycle kills a storm in full flow). `write` answers the acknowledged write, or null.
 */
export async function stormUntilKilled<Ack>(
  write: () => Promise<Ack | null>,
  onAck: (ack: Ack) => void,
  running: () => boolean,
  kill: () => Promise<ExitStatus>,
): Promise<Storm> {
  const WRITERS = 16;
  const MIN_ACKS_BEFORE_KILL = 50;
  const KILL_WITHIN_MS = 600;
  let acknowledged = 0;
  let inFlight = 0;
  let enough!: () => void;
  const enoughAcks = new Promise<void>((resolve) => (enough = resolve));
  const started = performance.now();
  const writers = Array.from({ length: WRITERS }, async () => {
    while (running()) {
      inFlight++;
      const ack = await write();
      inFlight--;
      if (ack === null) continue;
      onAck(ack);
      if (++acknowledged === MIN_ACKS_BEFORE_KILL) enough();
    }
  });
  await enoughAcks;
  await new Promise((resolve) => setTimeout(resolve, Math.random() * KILL_WITHIN_MS));
  const killedAfterMs = performance.now() - started;
  const inFlightAtKill = inFlight;
  const exit = await kill();
  if (exit.signal !== 'SIGKILL') throw new Error(`the server was to be killed with SIGKILL, and ended with ${JSON.stringify(exit)}`);
  await Promise.all(writers);
  return { acknowledged, inFlight: inFlightAtKill, killedAfterMs };
}
