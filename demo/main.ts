/**
 * Runs the demo integrator on its own, against a loc service that is already running elsewhere
 * (`npm start` runs both together). Configuration from the environment: see demo/server.ts.
 */
import { ConfigError } from '../src/server/config.ts';
import { buildDemoServer, demoOptionsFromEnv } from './server.ts';

let options: ReturnType<typeof demoOptionsFromEnv>;
try {
  options = demoOptionsFromEnv(process.env);
} catch (error) {
  // A bad setting is the operator's to fix: one line that names it, as loc serve says it (exit 2).
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
}
const app = await buildDemoServer(options);
await app.listen({ port: options.port, host: 'localhost' });
console.log(`loc demo: http://localhost:${options.port} (sessions from ${options.apiUrl} for ${options.origin})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
