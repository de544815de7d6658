/**
 * The store's metrics: how long each call of the store port takes and how it fails, by engine and
 * operation (the method's path on the port: `findKeyByHash`, `usage.addUsage`), told by the port's
 * one wrapper (plugins/port-calls.ts) beneath the request cache — what the database did, not what the
 * cache answered; and a PostgreSQL pool's connections, read from the store at each scrape.
 */
import { performance } from 'node:perf_hooks';
import { CapReached, StoreConflict, StoreUnavailable } from '../../store/store.ts';
import type { PortName, PortWatcher } from '../plugins/port-calls.ts';
import type { MetricGroup } from './metric-group.ts';

/** Seconds: from a cached SQLite read (a tenth of a millisecond) to a statement near its timeout. */
export const PORT_CALL_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** Why a call failed: the engine could not serve it, what it holds refused the write (a name taken, a cap reached), or anything else. */
export type FailureKind = 'unavailable' | 'conflict' | 'other';

export function failureKind(error: unknown): FailureKind {
  if (error instanceof StoreUnavailable) return 'unavailable';
  if (error instanceof StoreConflict || error instanceof CapReached) return 'conflict';
  return 'other';
}

/** A watcher of one port's calls: each call's duration to `observe`, each failure to `failed`. */
export function callsOf(
  name: PortName,
  observe: (labels: { engine: string; operation: string }, seconds: number) => void,
  failed: (labels: { engine: string; operation: string }, error: unknown) => void,
): PortWatcher {
  const settled = (engine: string, operation: string, startedAt: number) => {
    const labels = { engine, operation };
    observe(labels, (performance.now() - startedAt) / 1000);
    return labels;
  };
  return {
    answered(port, operation, startedAt) {
      if (port.name === name) settled(port.engine, operation, startedAt);
    },
    failed(port, operation, startedAt, error) {
      if (port.name === name) failed(settled(port.engine, operation, startedAt), error);
    },
  };
}

export const storeMetrics: MetricGroup = (app, registry, prom) => {
  const durations = new prom.Histogram({
    name: 'loc_store_operation_duration_seconds', help: 'Time a call of the store took, answered or failed, by engine and operation.',
    labelNames: ['engine', 'operation'] as const, buckets: PORT_CALL_BUCKETS, registers: [registry],
  });
  const errors = new prom.Counter({
    name: 'loc_store_errors_total', help: 'Calls of the store that failed, by engine, operation and kind (unavailable, conflict, other).',
    labelNames: ['engine', 'operation', 'kind'] as const, registers: [registry],
  });
  app.portCalls.watchWith(callsOf('store', (labels, seconds) => durations.observe(labels, seconds), (labels, error) => errors.inc({ ...labels, kind: failureKind(error) })));

  // Only a store with a pool has these: none at all on SQLite, rather than a pool that seems empty.
  app.addHook('onReady', async () => {
    const { store } = app;
    if (store.poolStats === undefined) return;
    new prom.Gauge({
      name: 'loc_store_pool_connections', help: 'The PostgreSQL store’s connections, in use or idle.', labelNames: ['state'] as const, registers: [registry],
      collect() {
        const { total, idle } = store.poolStats!();
        this.set({ state: 'in_use' }, total - idle);
        this.set({ state: 'idle' }, idle);
      },
    });
    new prom.Gauge({
      name: 'loc_store_pool_waiting', help: 'Calls waiting for a connection of the PostgreSQL store, none being free.', registers: [registry],
      collect() {
        this.set(store.poolStats!().waiting);
      },
    });
  });
};
