/**
 * The outage log of the app (logs/outage-log.ts): it watches the calls of the store and the counters
 * (plugins/port-calls.ts), and whatever fails because of them — a request, a batch of
 * usage, a sweep — is logged through it, each cause once in full and then counted.
 */
import fp from 'fastify-plugin';
import { outageLog, type OutageLog } from '../logs/outage-log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    outages: OutageLog;
  }
}

export default fp(
  async (app) => {
    const outages = outageLog(app.log, app.config.outageLogMs, app.now);
    app.decorate('outages', outages);
    app.portCalls.watchWith(outages.watcher);
    app.addHook('onClose', async () => outages.close());
  },
  { name: 'loc-outages', fastify: '5.x', dependencies: ['loc-config', 'loc-port-calls'] },
);
