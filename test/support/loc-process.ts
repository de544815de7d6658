/**
 * `loc` as a child process, for the suites that run the built CLI as an operator would: spawn it, read
 * what it writes, wait until the server is ready, stop it. Ready means the banner's machine-readable
 * line (src/server/process/ready-line.ts): one JSON line whose `msg` is READY_MESSAGE, with the
 * address it listens on and its public URL — the one signal every suite waits for.
 */
import { execFile, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { READY_MESSAGE } from '../../src/server/process/ready-line.ts';
import { LOCK_FILE } from '../../src/server/process/server-lock.ts';
import { DATABASE_FILE } from '../../src/store/sqlite/sqlite-files.ts';

/** The repository: the built CLI is dist/cli.js below it. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** What a child's exit was. */
export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What the ready line says. */
export interface Ready {
  /** Where the server listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Its public URL (LOC_PUBLIC_URL, or `http://localhost:<port>`). */
  publicUrl: string;
  /** The pid of the server process (under npm, not the pid of the child spawned). */
  pid: number;
  /** Where its metrics are scraped, with LOC_METRICS_PORT set. */
  metricsUrl?: string;
}

export interface Spawned {
  child: ChildProcess;
  /** Everything written so far to stdout and stderr, where they are pipes read here. */
  output(): string;
  /** Its exit, once it exited. */
  exited: Promise<ExitStatus>;
  /** Once its output is complete: its pipes are closed, also by any process it left behind. */
  closed: Promise<void>;
  /** The first match of `pattern` in the output; rejects when the output ends without one. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** The ready line, once written; rejects when the output ends without one. */
  ready(): Promise<Ready>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<ExitStatus>;
}

export interface SpawnOptions {
  /** Added to the environment, which holds no `LOC_` setting, `PORT` or `HOST` of this one (childEnv). */
  env?: Record<string, string>;
  /** Default: stdin ignored, stdout and stderr read here. */
  stdio?: StdioOptions;
  /** Its own process group (to signal it as a terminal's Ctrl-C would). */
  detached?: boolean;
  /** Where it runs; default the repository. */
  cwd?: string;
}

/**
 * The environment for a child: this one without any loc setting (a developer's shell may set
 * LOC_PUBLIC_URL or PORT for their own server), with no drain on SIGTERM (a test stops its server at
 * once; the drain's own test sets one), plus `extra`.
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('LOC_') && name !== 'PORT' && name !== 'HOST') env[name] = value;
  }
  return { ...env, LOC_DRAIN_MS: '0', ...extra };
}

/** The ready line in `output`, if it is there. */
export function readyIn(output: string): Ready | null {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{') || !line.includes(READY_MESSAGE)) continue;
    try {
      const fields = JSON.parse(line) as { msg?: string; url?: string; publicUrl?: string; pid?: number; metricsUrl?: string };
      if (fields.msg === READY_MESSAGE && fields.url !== undefined && fields.publicUrl !== undefined) {
        return { url: fields.url, publicUrl: fields.publicUrl, pid: fields.pid ?? 0, metricsUrl: fields.metricsUrl };
      }
    } catch {
      // A line that only looks like it: not the one.
    }
  }
  return null;
}

/** Spawns `command` with `args`, in the repository unless `options.cwd` says otherwise; see Spawned. */
export function spawnProcess(command: string, args: string[], options: SpawnOptions = {}): Spawned {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: childEnv(options.env), stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'], detached: options.detached });
  let output = '';
  const listeners = new Set<() => void>();
  // Always drained: a child whose pipe fills up blocks on its next line.
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<ExitStatus>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const closed = new Promise<void>((done) => child.once('close', () => done()));

  const when = <T>(find: () => T | null, what: string): Promise<T> =>
    new Promise<T>((done, fail) => {
      const check = () => {
        const found = find();
        if (found === null) return;
        listeners.delete(check);
        done(found);
      };
      listeners.add(check);
      check();
      void closed.then(() => {
        if (listeners.delete(check)) fail(new Error(`${command} ${args.join(' ')} ended before ${what}:\n${output}`));
      });
    });

  return {
    child,
    output: () => output,
    exited,
    closed,
    waitFor: (pattern) => when(() => pattern.exec(output), `printing ${pattern}`),
    ready: () => when(() => readyIn(output), 'it was ready'),
    stop: async (graceMs = 5000) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
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

/** A port something listens on, on `host`, until closed: to see what a start does on a port in use. */
export async function occupyPort(host: string): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, host, done));
  return { port: (server.address() as { port: number }).port, server };
}

/** Its exit code, once its output is complete. */
export async function finished(spawned: Spawned): Promise<number | null> {
  await spawned.closed;
  return (await spawned.exited).code;
}

/**
 * What a stopped server left in its data directory that a clean stop removes: the database's WAL
 * (SQLite removes it when the database is closed) and the lock file.
 */
export function leftBehind(dataDir: string): string[] {
  return [`${DATABASE_FILE}-wal`, LOCK_FILE].filter((file) => existsSync(join(dataDir, file)));
}

/** The built `loc` (dist/cli.js) with `args`. */
export function spawnLoc(args: string[], options: SpawnOptions = {}): Spawned {
  return spawnProcess(process.execPath, ['dist/cli.js', ...args], options);
}

/** What a finished command printed, and its exit code. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

const execute = promisify(execFile);

export interface RunOptions {
  /** Added to childEnv (no loc setting of this shell's). */
  env?: Record<string, string>;
  /** Default: the repository. */
  cwd?: string;
  /** Ends the process with SIGTERM after this many milliseconds; its code is then null. */
  timeout?: number;
}

/** Runs `command` with `args` to its end: its exit code and what it printed. */
export async function runProcess(command: string, args: string[], { env = {}, cwd = ROOT, timeout }: RunOptions = {}): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await execute(command, args, { cwd, env: childEnv(env), timeout });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CommandResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * Runs the built `loc` to its end with `env` over childEnv, as a process of its own: for what only
 * one shows (src/cli/cli-process.test.ts). The other suites run it in-process (cli.ts).
 */
export const runLoc = (env: Record<string, string>, ...args: string[]): Promise<CommandResult> => runProcess(process.execPath, ['dist/cli.js', ...args], { env });
