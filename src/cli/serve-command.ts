/**
 * `loc serve`: runs the API service on the database in LOC_DATA_DIR until SIGTERM or SIGINT.
 * `--seed-dev` seeds an empty database with a development account, and `--demo` also runs the demo
 * integrator on its own origin (http://localhost:5173) with that account's key: `npm start` passes both.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildDemoServer } from '../../demo/server.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { DEMO_ORIGIN, DEV_KEY_FILE } from '../server/dev-seed.ts';
import { closeOnSignal, startServer } from '../server/server.ts';
import { StoreUnavailable } from '../store/store.ts';

/** Why the server cannot listen, for the errors of the address it was given. */
const LISTEN_ERRORS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is in use (EADDRINUSE)',
  EACCES: 'permission denied; ports below 1024 need privileges (EACCES)',
  EADDRNOTAVAIL: 'the address is not one of this machine (EADDRNOTAVAIL)',
  ENOTFOUND: 'the host name does not resolve (ENOTFOUND)',
  EAI_AGAIN: 'the host name could not be resolved now (EAI_AGAIN)',
};

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the API service (configuration from environment variables; see README)')
    .option('--port <n>', 'port to listen on (overrides PORT)')
    .option('--host <host>', 'interface to listen on (overrides HOST)')
    .option('--seed-dev', 'on an empty database, create a development partner account and key', false)
    .option('--demo', `also serve the demo integrator page on ${DEMO_ORIGIN}, using the development key`, false)
    .action(async (options: { port?: string; host?: string; seedDev: boolean; demo: boolean }, command: Command) => {
      let config;
      try {
        // The flags win over PORT and HOST, and a bad value is reported under the flag that gave it.
        config = loadConfig(process.env, {
          ...(options.port !== undefined && { port: { flag: '--port', value: options.port } }),
          ...(options.host !== undefined && { host: { flag: '--host', value: options.host } }),
        });
      } catch (error) {
        if (error instanceof ConfigError) command.error(`error: ${error.message}`, { exitCode: 2 });
        throw error;
      }
      let server;
      try {
        server = await startServer(config, { seedDevelopment: options.seedDev });
      } catch (error) {
        // A disk that cannot hold the database, or an address that cannot be listened on (startServer
        // has closed the app): one line that says where and why, not a stack trace.
        const address = `${config.host}:${config.port} (from ${options.host === undefined ? 'HOST' : '--host'} and ${options.port === undefined ? 'PORT' : '--port'})`;
        const listening = LISTEN_ERRORS[(error as NodeJS.ErrnoException).code ?? ''];
        if (error instanceof StoreUnavailable) process.stderr.write(`error: cannot open the database in ${config.dataDir}: ${error.message}\n`);
        else if (listening !== undefined) process.stderr.write(`error: cannot listen on ${address}: ${listening}\n`);
        else throw error;
        process.exitCode = 1;
        return;
      }
      const demo = options.demo
        ? await buildDemoServer({
            apiUrl: server.url,
            publicApiUrl: config.publicUrl,
            origin: DEMO_ORIGIN,
            keyFile: join(config.dataDir, DEV_KEY_FILE),
          })
        : null;
      if (demo !== null) {
        await demo.listen({ port: Number(new URL(DEMO_ORIGIN).port), host: 'localhost' });
        process.stdout.write(`  demo       ${DEMO_ORIGIN}   (the integrator's page: four styles, live options, callback log)\n`);
      }
      process.exitCode = await closeOnSignal(server, config);
      await demo?.close();
    });
}
