/**
 * `loc serve`: runs the API service on the database in LOC_DATA_DIR until SIGTERM or SIGINT.
 * `--seed-dev` seeds an empty database with a development account whose key allows the origins of
 * `--dev-origin` (what `npm start` runs, for its demo page). A start that cannot go on prints one line
 * and exits 1. With LOC_WORKERS above 1 it is a cluster: a primary and its workers (server/cluster.ts),
 * each process running this command. The server itself (run-service.ts, which `loc mock` runs too) is
 * loaded when the command runs: the other commands start without Fastify and its plugins, in a
 * quarter of the time.
 */
import type { Command } from 'commander';
import { CAP_OPTIONS, ConfigError, OPTIONS, loadConfig } from '../server/config.ts';
import { DEFAULT_DEV_ORIGIN, devOrigins } from '../server/process/dev-seed.ts';
import { collect, ioOf, setExitCode } from './cli-io.ts';

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
      const [{ runService }, { isClusterWorker, joinCluster }] = await Promise.all([import('./run-service.ts'), import('../server/process/cluster.ts')]);
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
