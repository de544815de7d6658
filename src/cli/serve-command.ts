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
        // A disk that cannot hold the database: one line that says where and why, not a stack trace.
        if (!(error instanceof StoreUnavailable)) throw error;
        process.stderr.write(`error: cannot open the database in ${config.dataDir}: ${error.message}\n`);
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
