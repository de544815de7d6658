/**
 * Overload answered early: while the event loop's mean delay has passed LOC_MAX_EVENT_LOOP_DELAY_MS
 * in SUSTAINED_SAMPLES measures in a row, every request is answered 503 `service_unavailable` with
 * `Retry-After` before any work is spent on it — no key read, no count — rather than every request
 * waiting longer still. One measure past the bound is a stall, not a load: a synchronous wait (SQLite
 * waiting out another process's lock), a long garbage collection; once over, the loop is free, and
 * refusing the requests after it would only stretch the stall. @fastify/under-pressure measures the delay and runs the check; its own status route is not
 * exposed (`/livez` and `/readyz` are the service's). A route that must answer anyway — liveness, and
 * readiness, which reports the overload among its checks — takes ANSWERED_UNDER_PRESSURE as its config.
 *
 * under-pressure measures from its registration, while the process is still starting: the app being
 * built, then the codec's table read in one step just after the server listens (process/server.ts) —
 * a quarter of a second, seconds on a machine short of CPU. A second in which the loop hardly turned
 * reads as a delay past any bound (one in which it did not turn at all, as an infinite one). What
 * counts is the delay while serving, so the measures are heeded from WARM_UP_SAMPLES intervals after
 * the process has loaded what it serves from (the table and the address index, as readiness checks).
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { loadedPlaces } from '../../address/offline.ts';
import { coverageLoaded } from '../../code/shipped-table.ts';
import { LocError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The event loop's mean delay over the last second, ms, as the overload check reads it; null when the check is off or not heeded yet. */
    eventLoopDelay(): number | null;
    /** Whether requests are refused for overload now: the delay past the bound in SUSTAINED_SAMPLES measures in a row. */
    overloaded(): boolean;
  }
  interface FastifyContextConfig {
    /** @fastify/under-pressure's handler for the route: one that returns nothing lets the request through. */
    pressureHandler?: (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => Promise<void> | void;
  }
}

/** How often under-pressure measures the delay, ms (its default, said here since the warm-up counts in it). */
const SAMPLE_INTERVAL_MS = 1000;

/** Measures taken once the process has loaded what it serves from before the check is heeded: the first may cover the loading. */
const WARM_UP_SAMPLES = 2;

/** Measures in a row past the bound that make an overload. */
const SUSTAINED_SAMPLES = 2;

/** How often a starting process is looked at for whether it has loaded the table and the index, ms. */
const LOADED_CHECK_MS = 100;

/** When an overloaded server is worth asking again: by then the delay has been measured at least once more. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;

/** The config of a route answered under pressure too. */
export const ANSWERED_UNDER_PRESSURE = { pressureHandler: (): void => undefined };

export default fp(
  async (app) => {
    const bound = app.config.maxEventLoopDelayMs;
    let heeded = false;
    /** Measures in a row past the bound, read just after under-pressure takes each (its timer is older). */
    let over = 0;
    app.decorate('eventLoopDelay', () => (heeded ? app.memoryUsage().eventLoopDelay : null));
    // And still past it: the measure that ended the overload is taken before the count is.
    app.decorate('overloaded', () => over >= SUSTAINED_SAMPLES && app.memoryUsage().eventLoopDelay > bound);
    if (bound === 0) return;
    let counting: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      const starting = setInterval(() => {
        if (!coverageLoaded() || loadedPlaces() === undefined) return;
        clearInterval(starting);
        setTimeout(() => (heeded = true), WARM_UP_SAMPLES * SAMPLE_INTERVAL_MS).unref();
      }, LOADED_CHECK_MS).unref();
      counting = setInterval(() => (over = heeded && app.memoryUsage().eventLoopDelay > bound ? over + 1 : 0), SAMPLE_INTERVAL_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(counting));
    await app.register(underPressure, {
      maxEventLoopDelay: bound,
      sampleInterval: SAMPLE_INTERVAL_MS,
      // Thrown, it reaches the one error handler: the catalogue's body, the Retry-After header, the request line.
      pressureHandler: async (_request, _reply, _type, delay) => {
        if (!app.overloaded()) return;
        throw new LocError('service_unavailable', `The service is overloaded (its event loop lags ${Math.round(delay ?? 0)} ms); retry in a moment.`)
          .retryAfter(OVERLOAD_RETRY_AFTER_SECONDS);
      },
    });
  },
  { name: 'loc-overload', fastify: '5.x', dependencies: ['loc-config'] },
);
