/**
 * Two loc servers in one process on one PostgreSQL database (LOC_DATABASE_URL), the first with
 * metrics off, the second with them on; prints one line, `{"off":url,"on":url,"metrics":url}`, and
 * serves until SIGTERM. The observability bench loads one at a time and reads the process's CPU
 * (observability.ts): both run the same compiled code in the same heap, so what differs between
 * their requests is what metrics add to one, without the few percent one process differs from the
 * next. Run by the bench, not by hand.
 */
import { loadConfig } from '../src/server/config.ts';
import { startServer, type RunningServer } from '../src/server/process/server.ts';

const serve = (env: Record<string, string>): Promise<RunningServer> =>
  startServer(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'warn', LOC_DRAIN_MS: '0', ...env }), { banner: false });

const off = await serve({});
const on = await serve({ LOC_METRICS_PORT: '0' });
process.stdout.write(`${JSON.stringify({ off: off.url, on: on.url, metrics: `http://127.0.0.1:${on.config.metricsPort}/metrics` })}\n`);
process.once('SIGTERM', () => void Promise.all([off.close(), on.close()]).then(() => process.exit(0)));
