/**
 * The spawned server of the stress suites: the built `loc serve` (dist/cli.js) as a child process on a
 * SQLite data directory in a temporary directory, seeded with accounts and keys through the store
 * before it starts, and reached over real sockets only. Its stdout and stderr are captured (the logs
 * the secrets suite greps); it can be stopped with SIGTERM, killed with SIGKILL at any moment, and
 * started again on the same data.
 *
 * `LOC_STRESS=full` (what `npm run stress` sets) scales every suite from its short variant, part of
 * `npm test`, to the long one the issue asks for; `scale(short, full)` picks the figure.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueKey } from '../auth/keys.ts';
import { MAX_LIMIT } from '../limits/budgets.ts';
import { openSqliteStore } from '../store/sqlite.ts';

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

/** A new temporary data directory holding the accounts and keys asked for, in order. */
export async function seedDataDir(keys: KeySpec[]): Promise<{ dataDir: string; keys: SeededKey[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loc-stress-'));
  const store = openSqliteStore(dataDir);
  try {
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
    return { dataDir, keys: seeded };
  } finally {
    await store.close();
  }
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
    child.stdout!.on('data', (chunk: Buffer) => void (this.captured += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => void (this.captured += chunk.toString('utf8')));
  }

  /** `url` is set once the server said where it listens. */
  url = '';
  port = 0;

  /**
   * Starts `loc serve` on `dataDir` (port chosen by the system, 127.0.0.1 only) and resolves once it
   * listens. `env` adds to the environment: LOC_LOG_LEVEL defaults to warn.
   */
  static async start(dataDir: string, env: Record<string, string> = {}): Promise<SpawnedServer> {
    const child = spawn(process.execPath, ['dist/cli.js', 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: { ...process.env, LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new SpawnedServer(child, dataDir);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`loc serve did not listen within ${START_TIMEOUT_MS} ms:\n${server.captured}`)), START_TIMEOUT_MS);
      const onData = (): void => {
        const match = /loc is listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(server.captured);
        if (match === null) return;
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        server.url = match[1];
        server.port = Number(match[2]);
        resolve();
      };
      child.stdout!.on('data', onData);
      void server.exited.then((status) => {
        clearTimeout(timer);
        reject(new Error(`loc serve exited (${status.code ?? status.signal}) before listening:\n${server.captured}`));
      });
    });
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Everything the server wrote to stdout and stderr so far. */
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
    if (this.running) this.child.kill(signal);
    return this.exited;
  }

  /** Stops the server gracefully (SIGTERM) and waits for its exit. */
  stop(): Promise<ExitStatus> {
    return this.kill('SIGTERM');
  }
}

/** Stops the server if it still runs and deletes its data directory. */
export async function dispose(server: SpawnedServer | undefined, dataDir: string | undefined): Promise<void> {
  if (server !== undefined) await server.kill('SIGKILL');
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
}
