/**
 * Runs the demo integrator against a loc service that is already running (`npm start` starts both:
 * start.ts). Configuration from the environment: see settings.ts. Prints `loc demo: <url> …` once it
 * listens; a bad setting is one line and exit 2, a port it cannot listen on one line and exit 1.
 */
import { buildDemoServer } from './server.ts';
import { demoOptionsFromEnv, settingsOrExit, strayVariables } from './settings.ts';

/** Why a listen failed, for the errors an operator can act on; a bug keeps its stack. */
const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the port is in use (set LOC_DEMO_PORT)',
  EACCES: 'permission denied; ports below 1024 need privileges (set LOC_DEMO_PORT)',
};

// Listened for before the server is built: a signal while the demo starts closes it once it
// listens. Ctrl-C signals every process of the terminal's group and `npm start` forwards it too, so
// the copies of a signal are one request.
let signalled = false;
let close: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    close?.();
  });
}

for (const warning of strayVariables(process.env)) process.stderr.write(`${warning}\n`);
const options = settingsOrExit(demoOptionsFromEnv);
const app = await buildDemoServer(options);
try {
  await app.listen({ port: options.port, host: 'localhost' });
} catch (error) {
  const why = LISTEN_FAILURES[(error as NodeJS.ErrnoException).code ?? ''];
  if (why === undefined) throw error;
  process.stderr.write(`error: the demo cannot listen on localhost:${options.port}: ${why}\n`);
  process.exit(1);
}
close = () => void app.close();
if (signalled) close();
else console.log(`loc demo: http://localhost:${options.port} (sessions from ${options.apiUrl} for ${options.origin})`);
