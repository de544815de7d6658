/**
 * `loc serve`: runs the API service on the database in LOC_DATA_DIR until SIGTERM or SIGINT.
 * `--seed-dev` (what `npm start` passes) also seeds an empty database with a development account.
 */
import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../server/config.ts';
import { closeOnSignal, startServer } from '../server/server.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the API service (configuration from environment variables; see README)')
    .option('--port <n>', 'port to listen on (overrides PORT)')
    .option('--host <host>', 'interface to listen on (overrides HOST)')
    .option('--seed-dev', 'on an empty database, create a development partner account and key', false)
    .action(async (options: { port?: string; host?: string; seedDev: boolean }, command: Command) => {
      let config;
      try {
        config = loadConfig({ ...process.env, PORT: options.port ?? process.env.PORT, HOST: options.host ?? process.env.HOST });
      } catch (error) {
        if (error instanceof ConfigError) command.error(`error: ${error.message}`, { exitCode: 2 });
        throw error;
      }
      const server = await startServer(config, { seedDevelopment: options.seedDev });
      process.exitCode = await closeOnSignal(server, config);
    });
}
