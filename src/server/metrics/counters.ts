/**
 * The request counters' metrics: how long each call of the counter port takes (`take`: a request
 * waiting for its count, which a shared engine may answer from a lease or in a step it shares with
 * other requests, shared-counters.ts), and the calls that failed because the engine could not serve,
 * by engine and operation. Told by the port's one wrapper (plugins/port-calls.ts).
 */
import { StoreUnavailable } from '../../store/store.ts';
import type { MetricGroup } from './metric-group.ts';
import { PORT_CALL_BUCKETS, callsOf } from './store.ts';

export const counterMetrics: MetricGroup = (app, registry, prom) => {
  const durations = new prom.Histogram({
    name: 'loc_counters_operation_duration_seconds', help: 'Time a call of the request counters took, answered or failed, by engine and operation.',
    labelNames: ['engine', 'operation'] as const, buckets: PORT_CALL_BUCKETS, registers: [registry],
  });
  const unreachable = new prom.Counter({
    name: 'loc_counters_unreachable_total', help: 'Calls of the request counters that failed because their engine could not be reached or could not serve, by engine and operation.',
    labelNames: ['engine', 'operation'] as const, registers: [registry],
  });
  app.portCalls.watchWith(callsOf('counters', (labels, seconds) => durations.observe(labels, seconds), (labels, error) => {
    if (error instanceof StoreUnavailable) unreachable.inc(labels);
  }));
};
