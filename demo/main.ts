/**
 * Runs the demo integrator on its own, against a loc service that is already running elsewhere
 * (`npm start` runs both together). Configuration from the environment: see demo/server.ts.
 */
import { buildDemoServer, demoOptionsFromEnv } from './server.ts';

const options = demoOptionsFromEnv(process.env);
const app = await buildDemoServer(options);
await app.listen({ port: options.port, host: 'localhost' });
console.log(`loc demo: http://localhost:${options.port} (sessions from ${options.apiUrl} for ${options.origin})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
