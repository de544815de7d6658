/**
 * Draining on shutdown: once closing begins, requests that still arrive on open connections get a
 * 503 `service_unavailable` in the catalogue's shape (Fastify's own 503 body is not), and keep-alive
 * connections are closed as soon as their in-flight response is out — otherwise one busy when
 * closing began would hold `close()` open until its keep-alive timeout.
 */
import fp from 'fastify-plugin';
import { LocError } from '../../errors.ts';

/** How often idle connections are reaped while closing, ms. */
const REAP_EVERY_MS = 25;

export default fp(
  async (app) => {
    let closing = false;
    let reaper: NodeJS.Timeout | undefined;
    app.addHook('preClose', async () => {
      closing = true;
      reaper = setInterval(() => app.server.closeIdleConnections(), REAP_EVERY_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(reaper));
    app.addHook('onRequest', (_request, _reply, done) => {
      done(closing ? new LocError('service_unavailable', 'The service is shutting down; retry the request.').retryAfter(1) : undefined);
    });
  },
  { name: 'loc-draining', fastify: '5.x' },
);
