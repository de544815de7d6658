/**
 * `loc serve`: runs the API service on the database in LOC_DATA_DIR until SIGTERM or SIGINT.
 * `--seed-dev` seeds an empty database with a development account, and `--demo` also runs the demo
 * integrator on its own origin (http://localhost:5173, or LOC_DEMO_PORT) with that account's key:
 * `npm start` passes both. A start that cannot go on prints one line and exits 1.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildDemoServer, demoAddressFromEnv, DEFAULT_DEMO_PORT, DEMO_VARIABLES } from '../../demo/server.ts';
import { collect } from './operator-io.ts';
import { ConfigError, loadConfig, misspelledSettings, type Config } from '../server/config.ts';
import { DEFAULT_DEV_ORIGIN, DEV_KEY_FILE, devOrigins } from '../server/dev-seed.ts';
import { openLogDestination, type LogDestination } from '../server/logs/log-destination.ts';
import { shutdownOnSignal, startServer, type RunningServer } from '../server/server.ts';
import { listenFailure, StartFailure } from '../server/start-failure.ts';

interface ServeOptions {
  port?: string;
  host?: string;
  seedDev: boolean;
  devOrigin: string[];
  demo: boolean;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the API service (configuration from environment variables; see README)')
    .option('--port <n>', 'port to listen on (overrides PORT)')
    .option('--host <host>', 'interface to listen on (overrides HOST)')
    .option('--seed-dev', 'on an empty database, create a development partner account and key', false)
    .option('--dev-origin <origin>', `with --seed-dev: an origin the development key allows, repeatable (default ${DEFAULT_DEV_ORIGIN})`, collect, [])
    .option('--demo', `also serve the demo integrator page on http://localhost:LOC_DEMO_PORT (default ${DEFAULT_DEMO_PORT}), using the development key`, false)
    .action(async (options: ServeOptions, command: Command) => {
      let config;
      let demoAddress;
      let origins;
      try {
        // The flags win over PORT and HOST, and a bad value is reported under the flag that gave it.
        config = loadConfig(process.env, {
          ...(options.port !== undefined && { port: { flag: '--port', value: options.port } }),
          ...(options.host !== undefined && { host: { flag: '--host', value: options.host } }),
        });
        // Read only when used: a stray LOC_DEMO_PORT does not stop a production start.
        demoAddress = options.demo || options.seedDev ? demoAddressFromEnv(process.env) : undefined;
        if (options.devOrigin.length > 0 && !options.seedDev) throw new ConfigError('--dev-origin is used only with --seed-dev');
        // Checked before the database is opened: a bad one would otherwise stop the seed half done.
        origins = options.demo && demoAddress ? [demoAddress.origin] : devOrigins(options.devOrigin);
      } catch (error) {
        if (error instanceof ConfigError) command.error(`error: ${error.message}`, { exitCode: 2 });
        throw error;
      }
      // The service's own output goes through the log destination. What is written to Node's
      // streams — a few lines on stderr, anything a worker thread prints — is lost when nobody can
      // read it any more (EPIPE) or it cannot be stored (ENOSPC, EFBIG), and the service goes on.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
      for (const warning of misspelledSettings(process.env, DEMO_VARIABLES)) process.stderr.write(`${warning}\n`);
      const output = openLogDestination();
      let failure: StartFailure | undefined;
      try {
        await serve(config, options, origins, demoAddress, output);
      } catch (error) {
        // A failed start is one line for the operator; anything else is a bug, with its stack.
        if (!(error instanceof StartFailure)) throw error;
        failure = error;
      } finally {
        await output.close();
      }
      // After the banner is out: the reason a start failed is the last line the operator sees.
      if (failure !== undefined) {
        process.stderr.write(`error: ${failure.message}\n`);
        process.exitCode = 1;
      }
    });
}

/** Runs the service (and the demo page) until a signal has closed it; the banner and the logs go to `output`. */
async function serve(config: Config, options: ServeOptions, origins: string[], demoAddress: ReturnType<typeof demoAddressFromEnv> | undefined, output: LogDestination): Promise<void> {
  const print = (line: string): void => output.write(`${line}\n`);
  const signals = shutdownOnSignal(config);
  let server: RunningServer;
  try {
    server = await startServer(config, { seedDevelopment: options.seedDev, devOrigins: origins, logStream: output, print });
  } catch (error) {
    signals.stop();
    throw error;
  }
  let demo = null;
  if (demoAddress !== undefined && options.demo) {
    const { port, origin } = demoAddress;
    demo = await buildDemoServer({
      apiUrl: server.url,
      publicApiUrl: server.config.publicUrl,
      origin,
      keyFile: join(config.dataDir, DEV_KEY_FILE),
    });
    try {
      await demo.listen({ port, host: 'localhost' }).catch((error: unknown) => {
        throw listenFailure(error, { subject: 'the demo cannot listen', host: 'localhost', port, portSetting: 'set LOC_DEMO_PORT, or start without --demo', hostSetting: null });
      });
    } catch (error) {
      // `--demo` asked for both: an API without its demo page is not the start that was asked
      // for, and a warning would scroll away under the request log. Stop, and say why.
      await Promise.all([demo.close(), server.close()]);
      signals.stop();
      throw error;
    }
    print(`  demo       http://localhost:${port}   (the integrator's page: four styles, live options, callback log)`);
  }
  process.exitCode = await signals.closeOn(server);
  await demo?.close();
}
