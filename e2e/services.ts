/**
 * The real processes a browser test talks to: the built `loc serve` on a fresh data directory, the
 * operator CLI against that directory (accounts and keys, exactly as an operator makes them), and the
 * demo integrator. Each runs as its own process on a free port and is stopped by the caller.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE } from '../src/store/sqlite/sqlite-files.ts';
import { ROOT, childEnv, freePort, spawnLoc, spawnProcess, type Spawned } from '../test/support/loc-process.ts';

export { ROOT, freePort };

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

/** A running child process of ours, whose output a test may read. */
export interface RunningProcess extends Running {
  /** What it has written to stdout and stderr so far. */
  output(): string;
}

/**
 * `spawned`, once `ready` resolves with its URL, within START_TIMEOUT_MS; stopped and refused when it
 * is not ready by then.
 */
async function runningOnce(name: string, spawned: Spawned, ready: () => Promise<string>): Promise<RunningProcess> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_done, fail) => {
    timer = setTimeout(() => fail(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms:\n${spawned.output()}`)), START_TIMEOUT_MS);
  });
  try {
    const url = await Promise.race([ready(), late]);
    return { url, stop: async () => void (await spawned.stop(STOP_TIMEOUT_MS)), output: () => spawned.output() };
  } catch (error) {
    await spawned.stop(STOP_TIMEOUT_MS);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Usage added up and an open panel page refreshed every 0.5 s, where the defaults (10 s, 3 s) would
 * have a spec wait for its figures.
 */
export const SHORT_INTERVALS = { LOC_USAGE_FLUSH_MS: '500', LOC_PANEL_REFRESH_MS: '500' };

/** A fresh data directory for one service; the caller removes it with `removeDataDir`. */
export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'loc-e2e-'));
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs the operator CLI (`loc …`, built) against `dataDir`, with `env` besides; returns what it printed. Its notes on
 * stderr (a new database) stay out of the suite's output; a failure still shows them in its error.
 */
export function cli(dataDir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, ['dist/cli.js', ...args], {
    cwd: ROOT, env: childEnv({ LOC_DATA_DIR: dataDir, ...env }), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
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
  /** A test key (`loc_test_…`, `loc keys create --test`). */
  test?: boolean;
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
  if (request.test) args.push('--test');
  const created = cliJson<{ key: { id: string }; api_key: string }>(dataDir, args);
  return { apiKey: created.api_key, keyId: created.key.id };
}

/**
 * The built service (`node dist/cli.js serve`) on `dataDir`, at `http://localhost:<port>`, quiet
 * (warnings only) and with offline tiles unless `env` says otherwise.
 */
export async function startService(dataDir: string, env: Record<string, string> = {}): Promise<RunningProcess> {
  const port = await freePort();
  const server = spawnLoc(['serve', '--port', String(port), '--host', 'localhost'], { env: { LOC_DATA_DIR: dataDir, LOC_TILES: 'offline', LOC_LOG_LEVEL: 'warn', ...env } });
  return runningOnce('loc serve', server, async () => (await server.ready()).publicUrl);
}

/**
 * The demo integrator (demo/main.ts: its server, serving the built page script) on its own origin
 * `http://localhost:<port>`, creating sessions at `apiUrl` with `apiKey`. It is run standalone, as an
 * integrator's own server would be, rather than through `npm start`, which seeds a key of its own.
 */
export function startDemo(port: number, apiUrl: string, apiKey: string): Promise<Running> {
  const demo = spawnProcess(process.execPath, ['--import', 'tsx', 'demo/main.ts'], {
    env: { LOC_API_URL: apiUrl, LOC_DEMO_API_KEY: apiKey, LOC_DEMO_PORT: String(port) },
  });
  return runningOnce('the demo', demo, async () => (await demo.waitFor(/loc demo: (http:\/\/\S+)/))[1]);
}
