/**
 * Draining on shutdown, in two steps. The drain (`app.drain()`, on SIGTERM for LOC_DRAIN_MS, see
 * process/server.ts): readiness fails (plugins/readiness.ts) so that a load balancer stops sending,
 * while every request is still served, new connections too; each answer carries `Connection: close`,
 * so that a keep-alive client opens its next connection where the balancer now sends it, rather than
 * keep this one until closing cuts it. Then closing: requests that still arrive on open connections
 * get a 503 `service_unavailable` in the catalogue's shape (Fastify's own 503 body is not), and
 * keep-alive connections are closed as soon as their in-flight response is out — otherwise one busy
 * when closing began would hold `close()` open until its keep-alive timeout.
 */
import fp from 'fastify-plugin';
import { LocError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the server drains or closes: from `drain()` (or the start of closing) on, never again false. */
    readonly draining: boolean;
    /** Begins the drain: readiness fails from now on, and every answer closes its connection. */
    drain(): void;
  }
}

/** How often idle connections are reaped while closing, ms. */
const REAP_EVERY_MS = 25;

export default fp(
  async (app) => {
    let draining = false;
    let closing = false;
    let reaper: NodeJS.Timeout | undefined;
    app.decorate('draining', { getter: () => draining });
    app.decorate('drain', () => void (draining = true));
    app.addHook('preClose', async () => {
      draining = closing = true;
      reaper = setInterval(() => app.server.closeIdleConnections(), REAP_EVERY_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(reaper));
    app.addHook('onRequest', (_request, reply, done) => {
      if (draining) reply.header('connection', 'close');
      done(closing ? new LocError('service_unavailable', 'The service is shutting down; retry the request.').retryAfter(1) : undefined);
    });
  },
  { name: 'loc-draining', fastify: '5.x' },
);
