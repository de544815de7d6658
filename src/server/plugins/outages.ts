/**
 * The outage log of the app (logs/outage-log.ts): the store and the counters are watched through it
 * (plugins/store.ts, plugins/rate-limit.ts), and whatever fails because of them — a request, a batch of
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
    app.addHook('onClose', async () => outages.close());
  },
  { name: 'loc-outages', fastify: '5.x', dependencies: ['loc-config'] },
);
