/**
 * Overload answered early: while the event loop's mean delay over the last second passes
 * LOC_MAX_EVENT_LOOP_DELAY_MS, every request is answered 503 `service_unavailable` with `Retry-After`
 * before any work is spent on it — no key read, no count — rather than every request waiting longer
 * still. @fastify/under-pressure measures the delay and runs the check; its own status route is not
 * exposed (`/livez` and `/readyz` are the service's). A route that must answer anyway — liveness, and
 * readiness, which reports the overload among its checks — takes ANSWERED_UNDER_PRESSURE as its config.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LocError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/under-pressure's handler for the route: one that returns nothing lets the request through. */
    pressureHandler?: (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => Promise<void> | void;
  }
}

/**
 * When an overloaded server is worth asking again: under-pressure measures the delay once a second, so
 * by then it has measured at least once more.
 */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;

/** The config of a route answered under pressure too. */
export const ANSWERED_UNDER_PRESSURE = { pressureHandler: (): void => undefined };

/** The event loop's mean delay over the last second as under-pressure measured it, ms; null when the check is off. */
export function eventLoopDelay(app: FastifyInstance): number | null {
  return app.hasDecorator('memoryUsage') ? app.memoryUsage().eventLoopDelay : null;
}

export default fp(
  async (app) => {
    const bound = app.config.maxEventLoopDelayMs;
    if (bound === 0) return;
    await app.register(underPressure, {
      maxEventLoopDelay: bound,
      // Thrown, it reaches the one error handler: the catalogue's body, the Retry-After header, the request line.
      pressureHandler: async (_request, _reply, _type, delay) => {
        throw new LocError('service_unavailable', `The service is overloaded (its event loop lags ${Math.round(delay ?? 0)} ms); retry in a moment.`)
          .retryAfter(OVERLOAD_RETRY_AFTER_SECONDS);
      },
    });
  },
  { name: 'loc-overload', fastify: '5.x', dependencies: ['loc-config'] },
);
