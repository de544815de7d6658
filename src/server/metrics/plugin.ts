/**
 * The metrics plugin: makes every metric group's metrics (groups.ts) on the app's registry, and
 * exposes the registry as `app.metrics` — what the metrics listener (listener.ts) or a cluster's
 * primary (cluster.ts) answers scrapes from, and what tests read. Registered only with
 * LOC_METRICS_PORT set (app.ts): with metrics off, prom-client is not loaded and no hook is added.
 * One registry per app, never prom-client's global one: apps built side by side (the tests) keep
 * their counts apart.
 */
import fp from 'fastify-plugin';
import { METRIC_GROUPS } from './groups.ts';
import type { Registry } from './metric-group.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics; absent when metrics are off. */
    metrics?: Registry;
  }
}

export interface MetricsPluginOptions {
  registry: Registry;
}

/** A registry of its own for an app: prom-client is loaded here, on the first call. */
export async function newRegistry(): Promise<Registry> {
  const { Registry } = await import('prom-client');
  return new Registry();
}

export default fp<MetricsPluginOptions>(
  async (app, { registry }) => {
    const prom = await import('prom-client');
    for (const group of METRIC_GROUPS) group(app, registry, prom);
    app.decorate('metrics', registry);
  },
  { name: 'loc-metrics', fastify: '5.x', dependencies: ['loc-config', 'loc-port-calls'] },
);
