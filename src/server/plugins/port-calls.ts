/**
 * What watches the calls the app makes of its store and its request counters: each port is wrapped
 * once (plugins/store.ts, plugins/rate-limit.ts), and every call of it that returns a promise tells
 * each of the app's watchers how it settled — the outage log (logs/outage-log.ts) always, the metrics
 * (server/metrics/) when they are on. One wrapper, however many watchers: a second Proxy around the
 * first would cost each call twice.
 */
import fp from 'fastify-plugin';
import { performance } from 'node:perf_hooks';

/** The ports watched: the records (store/store.ts) and the request counters (store/counters.ts). */
export type PortName = 'store' | 'counters';

/** A port as its watchers see it: which one, on which engine. */
export interface WatchedPort {
  name: PortName;
  engine: string;
}

/**
 * Told of every settled call. `operation` is the method's path on the port (`findKeyByHash`,
 * `usage.addUsage`, `take`); `startedAt` the call's start on `performance.now()`'s clock.
 */
export interface PortWatcher {
  answered(port: WatchedPort, operation: string, startedAt: number): void;
  failed(port: WatchedPort, operation: string, startedAt: number, error: unknown): void;
}

export interface PortCalls {
  /** Adds a watcher of the ports wrapped after this call: plugins add theirs before the store plugin runs. */
  watchWith(watcher: PortWatcher): void;
  /** `target` (a store, the counters) with each call told to the watchers. */
  watch<T extends { readonly engine: string }>(target: T, name: PortName): T;
}

declare module 'fastify' {
  interface FastifyInstance {
    portCalls: PortCalls;
  }
}

/** The port calls of one app. */
export function portCalls(): PortCalls {
  const watchers: PortWatcher[] = [];
  return {
    watchWith: (watcher) => void watchers.push(watcher),
    watch: (target, name) => watched(target, { name, engine: target.engine }, '', [...watchers]),
  };
}

/**
 * `target` with every method that returns a promise telling `watchers` how it settled, and every
 * object it holds (a store's panel, usage and audit parts) likewise, its methods named by its path.
 */
function watched<T extends object>(target: T, port: WatchedPort, path: string, watchers: readonly PortWatcher[]): T {
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, name) {
      const value: unknown = Reflect.get(object, name, object);
      if (made.has(name)) return made.get(name);
      const operation = `${path}${String(name)}`;
      let wrapped: unknown = value;
      if (typeof value === 'function') {
        wrapped = (...args: unknown[]) => {
          const startedAt = performance.now();
          const result: unknown = (value as (...args: unknown[]) => unknown).apply(object, args);
          if (!(result instanceof Promise)) return result;
          return result.then((answer: unknown) => {
            for (const watcher of watchers) watcher.answered(port, operation, startedAt);
            return answer;
          }, (error: unknown) => {
            for (const watcher of watchers) watcher.failed(port, operation, startedAt, error);
            throw error;
          });
        };
      } else if (typeof value === 'object' && value !== null) {
        wrapped = watched(value, port, `${operation}.`, watchers);
      } else {
        return value;
      }
      made.set(name, wrapped);
      return wrapped;
    },
  });
}

export default fp(
  async (app) => {
    app.decorate('portCalls', portCalls());
  },
  { name: 'loc-port-calls', fastify: '5.x' },
);
