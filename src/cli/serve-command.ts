/**
 * `loc serve`: runs the API service on the database in LOC_DATA_DIR until SIGTERM or SIGINT.
 * `--seed-dev` seeds an empty database with a development account, and `--demo` also runs the demo
 * integrator on its own origin (http://localhost:5173) with that account's key: `npm start` passes both.
 * A start that cannot go on prints one line and exits 1.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildDemoServer } from '../../demo/server.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { DEMO_ORIGIN, DEV_KEY_FILE } from '../server/dev-seed.ts';
import { shutdownOnSignal, startServer } from '../server/server.ts';
import { StartFailure } from '../server/start-failure.ts';

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
        config = loadConfig({ ...process.env, PORT: options.port ?? process.env.PORT, HOST: options.host ?? process.env.HOST });
      } catch (error) {
        if (error instanceof ConfigError) command.error(`error: ${error.message}`, { exitCode: 2 });
        throw error;
      }
      const signals = shutdownOnSignal(config);
      let server;
      try {
        server = await startServer(config, { seedDevelopment: options.seedDev });
      } catch (error) {
        signals.stop();
        return fail(error);
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
      process.exitCode = await signals.closeOn(server);
      await demo?.close();
    });
}

/** A failed start: its one line and exit code 1; anything else is a bug, with its stack. */
function fail(error: unknown): void {
  if (!(error instanceof StartFailure)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exitCode = 1;
}
