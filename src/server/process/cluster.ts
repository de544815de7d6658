/**
 * Workers on one machine (LOC_WORKERS > 1): `loc serve` becomes a node:cluster primary. The primary
 * prepares the database once — migrates it, seeds it with `--seed-dev` — resolves PORT=0 to one real
 * port, and forks the workers that serve on it, each a whole service (server.ts) without seed or
 * banner; connections are dealt out round-robin by the primary (Node 20 ignores `reusePort`). The
 * primary prints the banner once every worker listens, starts again a worker that exits unasked, and
 * stops everything (exit 1) when one keeps failing at its start rather than fork it forever. It
 * forwards SIGTERM and SIGINT to the workers, which shut down as a single process does (each drains
 * on SIGTERM), and exits once they all have: 0 if each closed cleanly. Every process writes its own lines to the stdout they
 * share, so that a stuck destination holds up no other process; the lines say which process wrote
 * them: `worker` 1..N, and 0 for the primary. With LOC_METRICS_PORT the primary alone listens for
 * scrapes, and answers each with every worker's metrics (metrics/cluster.ts).
 *
 * Not src/workers/: those are the threads that draw tiles, inside each process.
 */
import type { Cluster, Worker } from 'node:cluster';
import { hostname } from 'node:os';
import { openStore } from '../../store/open-store.ts';
import type { LogDestination } from '../logs/log-destination.ts';
import { bannerLines } from './banner.ts';
import type { Config } from '../config.ts';
import { seedDevelopment } from './dev-seed.ts';
import { REPEATED_SIGNAL_MS, databaseFailure, exitNow, withRealPort, type StartOptions } from './server.ts';
import { StartFailure } from './start-failure.ts';
import { listenForScrapes, type MetricsListener } from '../metrics/listener.ts';

/** The `worker` of the primary's own log lines. */
export const PRIMARY = 0;

/** Where the primary tells a worker its number and the address it resolved: the worker's environment. */
const WORKER_ENV = 'LOC_CLUSTER_WORKER';

/** A worker that exits before it listens, or within this time of listening, failed to start. */
const START_GRACE_MS = 1000;

/** Failed starts in a row of one worker after which the primary stops everything. */
const MAX_FAILED_STARTS = 5;

/** Past the workers' own shutdown timeout, how long the primary waits for their last lines before it kills them. */
const EXIT_GRACE_MS = 3000;

/** pino's level numbers, for the primary's lines. */
const INFO = 30;
const ERROR = 50;

interface Assignment {
  worker: number;
  port: number;
  publicUrl: string;
}

/** What a worker whose start failed sends the primary: the line to print once, for all of them. */
interface StartFailed {
  startFailure: string;
}

/** What the primary sends a worker that listens, rather than a signal, to stop it (see joinCluster). */
interface Stop {
  stop: NodeJS.Signals;
}

/** This process as one of the cluster's workers. */
export interface ClusterWorker {
  /** 1..N; a worker started again keeps its number. */
  number: number;
  /** The configuration, with the port and public URL the primary resolved. */
  config: Config;
  /** Tells the primary why the start failed: it prints the line, once for every worker. */
  reportFailure(message: string): Promise<void>;
  /** Ends the process with `code` once the service closed: the channel to the primary would keep it alive. */
  exit(code: number): never;
}

/**
 * Whether this process is a worker `runPrimary` forked: the variable it gave it, read without loading
 * node:cluster, which a service of one process would pay for at every start (5–15 ms). (Node's own
 * mark, NODE_UNIQUE_ID, is gone from the environment once the worker runs.)
 */
export const isClusterWorker = (): boolean => process.env[WORKER_ENV] !== undefined;

/**
 * In a worker forked by `runPrimary`: the part the primary gave it. From now on the worker also
 * stops when the primary tells it to (its signal, passed on), unless a signal of its own came first:
 * Ctrl-C and a systemd stop signal every process at once, and the primary's word, however late,
 * must not then count as a second signal, which would cut the in-flight requests short.
 */
export function joinCluster(config: Config): ClusterWorker {
  const { worker, port, publicUrl } = JSON.parse(process.env[WORKER_ENV] ?? 'null') as Assignment;
  let signalled = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => (signalled = true));
  process.on('message', (message: Partial<Stop>) => {
    // Sent to itself: the shutdown of server.ts, as for any signal.
    if (!signalled && (message?.stop === 'SIGTERM' || message?.stop === 'SIGINT')) process.kill(process.pid, message.stop);
  });
  return {
    number: worker,
    config: { ...config, port, publicUrl },
    reportFailure: (message) =>
      new Promise<void>((resolve) => {
        const failed: StartFailed = { startFailure: message };
        process.send!(failed, undefined, undefined, () => resolve());
      }),
    exit: (code) => process.exit(code),
  };
}

interface Slot {
  number: number;
  worker: Worker;
  /** When it first listened; undefined while it starts. */
  listenedAt?: number;
  /** Failed starts in a row of this number's workers, this one's not counted yet. */
  failedStarts: number;
  /** Why its start failed, as the worker said. */
  failure?: string;
}

/**
 * Runs the cluster's primary until its workers have exited; resolves with the exit code. A start that
 * cannot go on — the database, the port, a worker that cannot start — is a StartFailure, thrown once
 * every worker has stopped.
 */
export async function runPrimary(requested: Config, options: StartOptions, output: LogDestination): Promise<number> {
  const { default: cluster } = await import('node:cluster');
  const primary = new Primary(cluster, options, output);
  process.on('SIGTERM', (signal) => primary.onSignal(signal));
  process.on('SIGINT', (signal) => primary.onSignal(signal));

  const config = await withRealPort(requested, { always: true });
  await prepareDatabase(config, options, (line) => primary.print(line));
  const scrapes = await listenForWorkersMetrics(config);
  try {
    if (primary.first === undefined) await primary.run({ ...config, metricsPort: scrapes?.port ?? config.metricsPort });
  } finally {
    await scrapes?.close();
  }
  if (primary.failure !== undefined) throw new StartFailure(primary.failure);
  return primary.exitCode;
}

/** With LOC_METRICS_PORT: the primary's listener, which answers each scrape for every worker (metrics/cluster.ts). */
async function listenForWorkersMetrics(config: Config): Promise<MetricsListener | undefined> {
  if (config.metricsPort === null) return undefined;
  const { clusterScrape } = await import('../metrics/cluster.ts');
  return listenForScrapes(config, await clusterScrape());
}

/**
 * The primary at work: its workers, each in the slot of its number, and what it does when a signal
 * comes or a worker exits — stop them all, start one again, or give up.
 */
class Primary {
  private readonly slots = new Map<number, Slot>();
  first: { signal: NodeJS.Signals; at: number } | undefined;
  /** Why the primary gives up; set, it stops the workers as a signal does. */
  failure: string | undefined;
  exitCode = 0;
  /** Whether every worker has listened once: the banner is printed then. */
  private ready = false;
  /** The configuration with the port resolved: set before the first worker is forked. */
  private config!: Config;
  private settle: () => void = () => {};
  private readonly ended = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(private readonly cluster: Cluster, private readonly options: StartOptions, private readonly output: LogDestination) {}

  /** Writes `line` to the output every process shares. */
  print(line: string): void {
    this.output.write(`${line}\n`);
  }

  /** A line of the primary's own, shaped as pino's lines are. */
  private log(level: number, msg: string, fields: object = {}): void {
    this.print(JSON.stringify({ level, time: Date.now(), pid: process.pid, hostname: hostname(), worker: PRIMARY, ...fields, msg }));
  }

  /** Forks the workers on the port `config` names; resolves once they have all exited. */
  run(config: Config): Promise<void> {
    this.config = config;
    for (let number = 1; number <= config.workers; number++) this.fork(number, 0);
    return this.ended;
  }

  /** Whether the workers are being stopped: a signal came, or the primary gave up. */
  private stopping(): boolean {
    return this.first !== undefined || this.failure !== undefined;
  }

  /** SIGTERM or SIGINT: the first stops the workers; a second one ends everything at once. */
  onSignal(signal: NodeJS.Signals): void {
    if (this.first !== undefined) {
      // Ctrl-C signals the whole group and npm forwards its copy: the same request, not a second one.
      if (signal === this.first.signal && performance.now() - this.first.at < REPEATED_SIGNAL_MS) return;
      this.log(ERROR, 'second signal: exiting without waiting', { signal });
      // A worker exits at once on its second signal, as a single process does.
      for (const slot of this.slots.values()) slot.worker.process.kill(signal);
      return exitNow(this.output, 1);
    }
    this.first = { signal, at: performance.now() };
    this.log(INFO, 'shutting down: stopping the workers', { signal });
    if (this.slots.size > 0) this.stopWorkers(signal);
  }

  /** Passes `signal` on to every worker, and kills those still running well past their drain and shutdown timeout. */
  private stopWorkers(signal: NodeJS.Signals): void {
    // A worker still starting may not listen for the word yet: it gets the signal, which it keeps.
    for (const slot of this.slots.values()) {
      if (slot.listenedAt === undefined) slot.worker.process.kill(signal);
      else slot.worker.send({ stop: signal } satisfies Stop);
    }
    // Each worker ends itself after its drain (SIGTERM only) and LOC_SHUTDOWN_TIMEOUT_MS; one that does not is killed.
    const drainMs = signal === 'SIGTERM' ? this.config.drainMs : 0;
    setTimeout(() => {
      for (const slot of this.slots.values()) {
        this.log(ERROR, `worker ${slot.number} did not exit in time; killing it`, { of: { worker: slot.number, pid: slot.worker.process.pid } });
        slot.worker.process.kill('SIGKILL');
      }
    }, drainMs + this.config.shutdownTimeoutMs + EXIT_GRACE_MS).unref();
  }

  /**
   * Stops everything for `why`, the failure runPrimary throws once the workers have stopped: as Ctrl-C
   * does, without a drain — a service that cannot start keeps the operator waiting for nothing.
   */
  private giveUp(why: string): void {
    this.failure = why;
    if (this.slots.size === 0) this.settle();
    else this.stopWorkers('SIGINT');
  }

  /** A worker has exited and said its last: one of a stop, or one to start again unless it keeps failing. */
  private onEnd(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    this.slots.delete(slot.number);
    const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
    const exited = { worker: slot.number, pid: slot.worker.process.pid, code, signal };
    if (this.stopping()) {
      // Killed by the signal it was sent before it could handle it (still starting): ended as asked.
      if (code !== 0 && !(signal !== null && signal === this.first?.signal)) this.exitCode = 1;
      if (this.slots.size === 0) this.settle();
      return;
    }
    if (!this.ready) return this.giveUp(slot.failure ?? `worker ${slot.number} exited (${how}) before it listened`);
    const failedStart = slot.listenedAt === undefined || Date.now() - slot.listenedAt < START_GRACE_MS;
    const failedStarts = failedStart ? slot.failedStarts + 1 : 0;
    if (failedStarts >= MAX_FAILED_STARTS) {
      return this.giveUp(`worker ${slot.number} failed at its start ${failedStarts} times in a row (last: ${slot.failure ?? how}); stopping the service`);
    }
    this.log(ERROR, `worker ${slot.number} exited (${how}); starting it again`, { exited });
    this.fork(slot.number, failedStarts);
  }

  /** Forks worker `number`, which has failed `failedStarts` starts in a row, into its slot. */
  private fork(number: number, failedStarts: number): void {
    const assignment: Assignment = { worker: number, port: this.config.port, publicUrl: this.config.publicUrl };
    const worker = this.cluster.fork({ [WORKER_ENV]: JSON.stringify(assignment) });
    const slot: Slot = { number, worker, failedStarts };
    this.slots.set(number, slot);
    // EPIPE, a message to a worker that is gone: its exit says what happened.
    worker.on('error', () => {});
    worker.on('message', (message: Partial<StartFailed>) => {
      if (typeof message?.startFailure === 'string') slot.failure = message.startFailure;
    });
    worker.on('listening', () => {
      slot.listenedAt ??= Date.now();
      if (this.ready || [...this.slots.values()].some((each) => each.listenedAt === undefined)) return;
      this.ready = true;
      for (const line of bannerLines(this.config, this.config.port, { ...this.options, worker: PRIMARY })) this.print(line);
    });
    // What it said last comes before the end of its channel, which may come after its exit.
    worker.once('exit', (code, signal) => {
      const end = (): void => this.onEnd(slot, code, signal as NodeJS.Signals | null);
      if (worker.isConnected()) worker.once('disconnect', end);
      else end();
    });
  }
}

/** Migrates the database once for every worker, and seeds it with `--seed-dev`, printing what the seed says. */
async function prepareDatabase(config: Config, options: StartOptions, print: (line: string) => void): Promise<void> {
  let store;
  try {
    store = await openStore(config);
  } catch (error) {
    throw databaseFailure(error, config);
  }
  try {
    if (options.seedDevelopment) {
      for (const line of await seedDevelopment(store, config, options.now?.() ?? Date.now(), options.devOrigins)) print(line);
    }
  } catch (error) {
    throw databaseFailure(error, config);
  } finally {
    await store.close();
  }
}
