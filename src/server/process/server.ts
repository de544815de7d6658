/**
 * Runs the service: builds the app, listens — with LOC_METRICS_PORT, the metrics listener beside it
 * (metrics/listener.ts) — says where, and shuts down gracefully on SIGTERM or SIGINT — on SIGTERM it
 * first drains for LOC_DRAIN_MS (readiness fails while every request is still served, so that a load
 * balancer stops sending before connections are refused), then no new connections, in-flight
 * requests finish (up to LOC_SHUTDOWN_TIMEOUT_MS), the database is closed and the process exits.
 * While it runs on the store of its data directory it holds
 * that directory's lock (server-lock.ts); a store handed in (`loc mock`'s, in memory) is not there.
 * A start that cannot go on throws a StartFailure: one line for the operator.
 */
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadPlaces } from '../../address/offline.ts';
import { PlacesFileError } from '../../address/places-file.ts';
import { coverage } from '../../code/shipped-table.ts';
import { storePlace } from '../../store/open-store.ts';
import { StoreUnavailable } from '../../store/store.ts';
import type { LogDestination } from '../logs/log-destination.ts';
import { buildApp, type AppOptions } from '../app.ts';
import { bannerLines, type BannerOptions } from './banner.ts';
import { embedDir } from '../embed/files.ts';
import { defaultPublicUrl, type Config } from '../config.ts';
import { seedDevelopment } from './dev-seed.ts';
import { lockDataDir, type ServerLock } from './server-lock.ts';
import { listenForScrapes, type MetricsListener } from '../metrics/listener.ts';
import type { Registry } from '../metrics/metric-group.ts';
import { StartFailure, hostPort, listenFailure, type ListenTarget } from './start-failure.ts';

export interface StartOptions extends AppOptions, BannerOptions {
  /** On an empty database, create a development partner account and key (what `npm start` does). */
  seedDevelopment?: boolean;
  /** The origins of the pages the development key allows (`--dev-origin`); default DEFAULT_DEV_ORIGIN. */
  devOrigins?: readonly string[];
  /** Where the banner goes; default stdout. */
  print?: (line: string) => void;
  /** Whether to print the banner once listening; default true. A cluster's workers leave it to the primary. */
  banner?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  /** The address it listens on, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** The configuration it runs with: with PORT=0, the port it got and the public URL made from it; with LOC_METRICS_PORT=0, the metrics port it got. */
  config: Config;
  /** Closes the app (in-flight requests finish, the database closes), then releases the data directory it held. */
  close(): Promise<void>;
}

export async function startServer(requested: Config, options: StartOptions = {}): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  // The embed's built files are read on their first request: a server without them would start and
  // fail its first map. Said now, in one line.
  try {
    embedDir();
  } catch (error) {
    throw new StartFailure((error as Error).message);
  }
  // The address index, built with the service, is read before the first request: none waits for it.
  try {
    loadPlaces();
  } catch (error) {
    throw error instanceof PlacesFileError ? new StartFailure(error.message) : error;
  }
  const config = await withRealPort(requested);
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { ...options, metrics: await workerMetrics(config, options) });
  } catch (error) {
    throw databaseFailure(error, config);
  }
  // Taken once the database opened, so that a directory that cannot be created or written is
  // reported as the database's failure, with SQLite's reason.
  let lock: ServerLock | undefined;
  let scrapes: MetricsListener | undefined;
  try {
    // The lock guards SQLite's file, one process's database. A PostgreSQL database takes any number of
    // servers: what they count is shared there (store/postgres/postgres-counters.ts).
    if (options.store === undefined && config.databaseUrl === null) lock = lockDataDir(config.dataDir);
    if (options.seedDevelopment) {
      for (const line of await seedDevelopment(app.store, config, options.now?.() ?? Date.now(), options.devOrigins)) print(line);
    }
    // Its own port, never the API's; a cluster's worker has none: its primary answers for it (cluster.ts).
    if (config.metricsPort !== null && options.worker === undefined) scrapes = await listenForScrapes(config, app.metrics!);
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenFailure(error, apiTarget(config));
    });
  } catch (error) {
    await scrapes?.close();
    await app.close();
    lock?.release();
    throw databaseFailure(error, config);
  }
  // The codec's table (a quarter of a second to index) is read just after the ready line rather than
  // before it: a request in that moment waits for it, as it would have waited for the start.
  setImmediate(() => void coverage());
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const running = { ...config, metricsPort: scrapes?.port ?? config.metricsPort };
  if (options.banner ?? true) for (const line of bannerLines(running, port, options)) print(line);
  const held = lock;
  const listener = scrapes;
  return {
    app,
    url: `http://${hostPort(config.host, port)}`,
    config: running,
    close: async () => {
      try {
        await app.close();
      } finally {
        // Last: the monitoring sees the shutdown through to its end.
        await listener?.close();
        held?.release();
      }
    },
  };
}

/**
 * The registry of a cluster's worker with metrics on, which the primary's scrapes read
 * (metrics/cluster.ts); otherwise what the caller gave, or nothing: buildApp makes its own.
 */
async function workerMetrics(config: Config, options: StartOptions): Promise<Registry | undefined> {
  if (config.metricsPort === null || options.worker === undefined || options.metrics !== undefined) return options.metrics;
  const { workerRegistry } = await import('../metrics/cluster.ts');
  return workerRegistry();
}

/** A disk that cannot hold the database: one line that says where and why, not a stack trace. */
export function databaseFailure(error: unknown, config: Config): unknown {
  return error instanceof StoreUnavailable ? new StartFailure(`cannot open the database in ${storePlace(config)}: ${error.message}`) : error;
}

function apiTarget(config: Config): ListenTarget {
  return { host: config.host, port: config.port, portSetting: 'set PORT or --port', hostSetting: 'set HOST or --host' };
}

/**
 * PORT=0 asks for any free port. The public URL, when it is the default made from the port, must
 * name the port the server gets — and it is needed before the app is built (links, the OpenAPI
 * servers, the embed's files are made from it). So the kernel is asked for a free port first, and
 * the server then listens on that one. Another program binding that very port in between is
 * reported as a port in use. With an explicit LOC_PUBLIC_URL nothing depends on the port: the
 * server listens on port 0 itself — unless `always`, for a cluster's workers, which must all be
 * told the one port they share.
 */
export async function withRealPort(config: Config, { always = false }: { always?: boolean } = {}): Promise<Config> {
  const derived = config.publicUrl === defaultPublicUrl(0);
  if (config.port !== 0 || !(derived || always)) return config;
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, config.host, () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  }).catch((error: unknown) => {
    throw listenFailure(error, apiTarget(config));
  });
  return { ...config, port, publicUrl: derived ? defaultPublicUrl(port) : config.publicUrl };
}

/**
 * A repeat of the first signal within this time is the same request, not a second one. Ctrl-C in a
 * terminal signals every process of the foreground group — npm, its launcher and the server under
 * `npm start` — and npm and the launcher forward the SIGINT they got as well; a systemd stop does the
 * same with SIGTERM. The copy arrives within milliseconds; a person pressing Ctrl-C again takes longer.
 */
export const REPEATED_SIGNAL_MS = 500;

/**
 * Ends the process with `code` without waiting for anything but the lines `output` holds — the one
 * saying why among them — for as long as a close gives them (at most a second). The log writes without
 * blocking: process.exit alone drops every line behind one still being written, and a write may take
 * a tenth of a second and more while the process is busy, as just after its start.
 */
export function exitNow(output: LogDestination, code: number): void {
  void output.close().then(() => process.exit(code));
}

export interface ShutdownSignals {
  /**
   * Closes `server` on the first SIGTERM (after the drain) or SIGINT — at once if one came while it
   * started, when no balancer sends it anything yet — and resolves with the exit code once closed.
   */
  closeOn(server: RunningServer): Promise<number>;
  /** Stops listening for signals: the start failed, and the process ends by itself. */
  stop(): void;
}

/**
 * Listens for SIGTERM and SIGINT from the moment it is called, before the server starts: a signal
 * sent as soon as the banner is out — or during the start — is then never met by Node's default,
 * which ends the process on the spot. A second signal, during the drain too, or in-flight requests
 * outliving the timeout, end the process at once. Only SIGTERM drains: it is how an orchestrator or
 * systemd stops a service behind a balancer, while Ctrl-C (SIGINT) is a person who wants it gone.
 */
export function shutdownOnSignal(config: Config, output: LogDestination): ShutdownSignals {
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  let server: RunningServer | undefined;
  let done: (code: number) => void = () => {};
  const closing = new Promise<number>((resolve) => (done = resolve));

  const close = (running: RunningServer, signal: NodeJS.Signals): void => {
    running.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      running.app.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'in-flight requests did not finish in time; exiting');
      exitNow(output, 1);
    }, config.shutdownTimeoutMs).unref();
    running.close().then(
      () => {
        clearTimeout(timer);
        running.app.log.info('closed');
        done(0);
      },
      (error: unknown) => {
        running.app.log.error({ err: error }, 'error while closing');
        done(1);
      },
    );
  };

  const drainThenClose = (running: RunningServer, signal: NodeJS.Signals): void => {
    if (signal !== 'SIGTERM' || config.drainMs === 0) return close(running, signal);
    running.app.drain();
    running.app.log.info({ signal, drainMs: config.drainMs }, 'draining: readiness fails, requests are still served');
    setTimeout(() => close(running, signal), config.drainMs);
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (first !== undefined) {
      if (signal === first.signal && performance.now() - first.at < REPEATED_SIGNAL_MS) return;
      if (server === undefined) process.stderr.write(`${signal} again: exiting without waiting\n`);
      else server.app.log.warn({ signal }, 'second signal: exiting without waiting');
      return exitNow(output, 1);
    }
    first = { signal, at: performance.now() };
    if (server !== undefined) drainThenClose(server, signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  return {
    closeOn: (running) => {
      server = running;
      if (first !== undefined) close(running, first.signal);
      return closing;
    },
    stop: () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
}
