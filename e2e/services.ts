/**
 * The real processes a browser test talks to: the built `loc serve` on a fresh data directory, the
 * operator CLI against that directory (accounts and keys, exactly as an operator makes them), and the
 * demo integrator. Each runs as its own process on a free port and is stopped by the caller.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DATABASE_FILE } from '../src/store/sqlite.ts';

/** The repository root: the CLI and the demo are started from here. */
export const ROOT = resolve(import.meta.dirname, '..');

/** Longest wait for a process to say it listens; a cold start takes about a second. */
const START_TIMEOUT_MS = 30_000;
/** How long a process gets to exit on SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 5_000;

/** A running child process. */
export interface Running {
  /** Its base URL, e.g. `http://localhost:41234`. */
  url: string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the kernel's choice; the caller binds it at once). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * The environment for a child: this one without any loc setting (a developer's shell may set
 * LOC_PUBLIC_URL or PORT for their own server), plus the given ones.
 */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('LOC_') && name !== 'PORT' && name !== 'HOST') env[name] = value;
  }
  return { ...env, ...extra };
}

/** Spawns `node …args` and resolves once its output matches `ready`; its output is kept for errors. */
function spawnUntil(name: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<Running> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      void stop();
      fail(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      // Keep draining both pipes: a child blocked on a full pipe would stop answering requests.
      child.stdout.resume();
      done({ url: match[1], stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${output}`));
    });
  });
}

/** A fresh data directory for one service; the caller removes it with `removeDataDir`. */
export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'loc-e2e-'));
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs the operator CLI (`loc …`, built) against `dataDir`; returns what it printed. Its notes on
 * stderr (a new database) stay out of the suite's output; a failure still shows them in its error.
 */
export function cli(dataDir: string, args: string[]): string {
  return execFileSync(process.execPath, ['dist/cli.js', ...args], {
    cwd: ROOT, env: childEnv({ LOC_DATA_DIR: dataDir }), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The same with `--json`, parsed. */
function cliJson<T>(dataDir: string, args: string[]): T {
  return JSON.parse(cli(dataDir, [...args, '--json'])) as T;
}

export interface KeyRequest {
  /** The account, created as a partner when it does not exist yet. */
  account: string;
  origins: string[];
  hourlyLimit?: number;
  embedHourlyLimit?: number;
  sessionLimit?: number;
}

/** Creates a partner account (if needed) and an API key with the CLI; returns the key's secret and id. */
export function createKey(dataDir: string, request: KeyRequest): { apiKey: string; keyId: string } {
  // A data directory without a database yet: the operator commands other than accounts create refuse it.
  const accounts = existsSync(join(dataDir, DATABASE_FILE)) ? cliJson<{ name: string }[]>(dataDir, ['accounts', 'list']) : [];
  if (!accounts.some((account) => account.name === request.account)) cliJson(dataDir, ['accounts', 'create', '--name', request.account, '--partner']);
  const args = ['keys', 'create', '--account', request.account, ...request.origins.flatMap((origin) => ['--origin', origin])];
  if (request.hourlyLimit !== undefined) args.push('--hourly-limit', String(request.hourlyLimit));
  if (request.embedHourlyLimit !== undefined) args.push('--embed-hourly-limit', String(request.embedHourlyLimit));
  if (request.sessionLimit !== undefined) args.push('--session-limit', String(request.sessionLimit));
  const created = cliJson<{ key: { id: string }; api_key: string }>(dataDir, args);
  return { apiKey: created.api_key, keyId: created.key.id };
}

/**
 * The built service (`node dist/cli.js serve`) on `dataDir`, at `http://localhost:<port>`, quiet
 * (warnings only) and with offline tiles unless `env` says otherwise.
 */
export async function startService(dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const args = ['dist/cli.js', 'serve', '--port', String(port), '--host', 'localhost'];
  return spawnUntil('loc serve', args, { LOC_DATA_DIR: dataDir, LOC_TILES: 'offline', LOC_LOG_LEVEL: 'warn', ...env }, /public URL (http:\/\/\S+)\)/);
}

/**
 * The demo integrator (demo/main.ts: its server, serving the built page script) on its own origin
 * `http://localhost:<port>`, creating sessions at `apiUrl` with `apiKey`. It is run standalone, as an
 * integrator's own server would be, rather than through `loc serve --demo`.
 */
export function startDemo(port: number, apiUrl: string, apiKey: string): Promise<Running> {
  return spawnUntil('the demo', ['--import', 'tsx', 'demo/main.ts'], {
    LOC_API_URL: apiUrl,
    LOC_DEMO_API_KEY: apiKey,
    LOC_DEMO_PORT: String(port),
  }, /loc demo: (http:\/\/\S+)/);
}
