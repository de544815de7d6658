/**
 * `loc serve`: runs the API service on the database in LOC_DATA_DIR until SIGTERM or SIGINT.
 * `--seed-dev` seeds an empty database with a development account whose key allows the origins of
 * `--dev-origin` (what `npm start` runs, for its demo page). A start that cannot go on prints one line
 * and exits 1. `runService` is the part `loc mock` runs too. With LOC_WORKERS above 1 it is a cluster:
 * a primary and its workers (server/cluster.ts), each process running this command.
 */
import type { Command } from 'commander';
import { PRIMARY, isClusterWorker, joinCluster, runPrimary, type ClusterWorker } from '../server/process/cluster.ts';
import { CAP_OPTIONS, ConfigError, OPTIONS, loadConfig, type Config } from '../server/config.ts';
import { misspelledSettings } from '../server/misspelled-settings.ts';
import { DEFAULT_DEV_ORIGIN, devOrigins } from '../server/process/dev-seed.ts';
import { openLogDestination, type LogDestination } from '../server/logs/log-destination.ts';
import { shutdownOnSignal, startServer, type RunningServer, type StartOptions } from '../server/process/server.ts';
import { StartFailure } from '../server/process/start-failure.ts';
import { collect, ioOf, setExitCode, type CliIo } from './cli-io.ts';

interface ServeOptions extends Partial<Record<keyof typeof CAP_OPTIONS, string>> {
  port?: string;
  host?: string;
  seedDev: boolean;
  devOrigin: string[];
}

export function registerServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .description('run the API service (configuration from environment variables; see README)')
    .option('--port <n>', 'port to listen on (overrides PORT)')
    .option('--host <host>', 'interface to listen on (overrides HOST)');
  for (const [key, flag] of Object.entries(CAP_OPTIONS) as [keyof typeof CAP_OPTIONS, string][]) serve.option(`${flag} <n>`, `${OPTIONS[key].doc} (overrides ${OPTIONS[key].env})`);
  serve
    .option('--seed-dev', 'on an empty database, create a development partner account and key', false)
    .option('--dev-origin <origin>', `with --seed-dev: an origin the development key allows, repeatable (default ${DEFAULT_DEV_ORIGIN})`, collect, [])
    .action(async (options: ServeOptions, command: Command) => {
      const io = ioOf(command);
      let config;
      let origins;
      try {
        config = loadConfig(io.env, { ...listenFlags(options), ...capFlags(options) });
        if (options.devOrigin.length > 0 && !options.seedDev) throw new ConfigError('--dev-origin is used only with --seed-dev');
        // Checked before the database is opened: a bad one would otherwise stop the seed half done.
        origins = devOrigins(options.devOrigin);
      } catch (error) {
        if (error instanceof ConfigError) command.error(`error: ${error.message}`, { exitCode: 2 });
        throw error;
      }
      const start = { seedDevelopment: options.seedDev, devOrigins: origins };
      if (config.workers === 1) return setExitCode(command, await runService(config, start, io));
      // LOC_WORKERS > 1: this process is the cluster's primary, or one of the workers it forked.
      if (!isClusterWorker()) return setExitCode(command, await runService(config, start, io, 'primary'));
      const worker = joinCluster(config);
      worker.exit(await runService(worker.config, { worker: worker.number, banner: false }, io, worker));
    });
}

/** `--port` and `--host`, which win over PORT and HOST: a bad value is reported under the flag that gave it. */
export function listenFlags(options: { port?: string; host?: string }): Parameters<typeof loadConfig>[1] {
  return {
    ...(options.port !== undefined && { port: { flag: '--port', value: options.port } }),
    ...(options.host !== undefined && { host: { flag: '--host', value: options.host } }),
  };
}

/** The caps given as flags (`--max-keys-per-account 100`), which win over their variables. */
function capFlags(options: ServeOptions): Parameters<typeof loadConfig>[1] {
  const given = (Object.entries(CAP_OPTIONS) as [keyof typeof CAP_OPTIONS, string][]).filter(([key]) => options[key] !== undefined);
  return Object.fromEntries(given.map(([key, flag]) => [key, { flag, value: options[key]! }]));
}

/**
 * Runs the service until a signal has closed it, its banner and logs on stdout (the log destination);
 * resolves with the exit code. A start that cannot go on is one line on `io`'s stderr and exit code 1;
 * anything else is a bug, thrown with its stack. In a cluster (server/cluster.ts) the primary runs the
 * workers instead of a server, and a worker leaves the warnings and the reason its start failed to
 * the primary, which says them once.
 */
export async function runService(config: Config, options: StartOptions, io: CliIo, role?: 'primary' | ClusterWorker): Promise<number> {
  // The service's own output goes through the log destination. What is written to Node's
  // streams — a few lines on stderr, anything a worker thread prints — is lost when nobody can
  // read it any more (EPIPE) or it cannot be stored (ENOSPC, EFBIG), and the service goes on.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const worker = typeof role === 'object' ? role : undefined;
  if (worker === undefined) for (const warning of misspelledSettings(io.env)) io.stderr(`${warning}\n`);
  const output = openLogDestination({ worker: role === 'primary' ? PRIMARY : worker?.number });
  let ended: number | StartFailure;
  try {
    ended = role === 'primary' ? await runPrimary(config, options, output) : await serve(config, options, output);
  } catch (error) {
    if (!(error instanceof StartFailure)) throw error;
    ended = error;
  } finally {
    await output.close();
  }
  if (typeof ended === 'number') return ended;
  if (worker !== undefined) await worker.reportFailure(ended.message);
  // After the banner is out: the reason a start failed is the last line the operator sees.
  else io.stderr(`error: ${ended.message}\n`);
  return 1;
}

/** Runs one server until a signal has closed it; resolves with the exit code. */
async function serve(config: Config, options: StartOptions, output: LogDestination): Promise<number> {
  const print = (line: string): void => output.write(`${line}\n`);
  const signals = shutdownOnSignal(config, output);
  let server: RunningServer;
  try {
    server = await startServer(config, { ...options, logStream: output, print });
  } catch (error) {
    signals.stop();
    throw error;
  }
  return signals.closeOn(server);
}
