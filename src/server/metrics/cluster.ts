/**
 * Metrics with workers (LOC_WORKERS > 1, process/cluster.ts): one scrape of the primary answers for
 * the whole machine. The primary alone listens on LOC_METRICS_PORT; for each scrape it asks every
 * worker for its registry over the cluster's IPC channel and sums them (prom-client's
 * AggregatorRegistry: counters and histograms summed, gauges too unless a metric names another
 * aggregator, as process.ts does). prom-client's messages carry a `type` of its own, which the
 * primary's and the workers' own messages (process/cluster.ts) never have, so each side ignores the
 * other's.
 */
import type { Registry } from './metric-group.ts';
import type { Scrape } from './listener.ts';

/**
 * In a worker: a registry for its app, which the primary's scrapes read from now on. Made before the
 * app, so that a scrape while the worker starts finds it answering, not silent until prom-client's
 * five-second timeout.
 */
export async function workerRegistry(): Promise<Registry> {
  const { AggregatorRegistry, Registry } = await import('prom-client');
  const registry = new Registry();
  // Constructing one adds prom-client's answer to the primary's requests, once per process.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  return registry;
}

/** In the primary: every worker's metrics, summed, for its listener. */
export async function clusterScrape(): Promise<Scrape> {
  const { AggregatorRegistry } = await import('prom-client');
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
}
