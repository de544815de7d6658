/**
 * The request counters' metrics: how long each call of the counter port takes (`take`: a request
 * waiting for its count, which a shared engine may answer from a lease or in a step it shares with
 * other requests, shared-counters.ts), and the calls that failed because the engine could not serve,
 * by engine and operation. Told by the port's one wrapper (plugins/port-calls.ts).
 *
 * A shared engine (PostgreSQL, Redis) also shows how its batching and its leases behave: the steps it
 * sent, how long each took and how many requests and budget sets it carried, the requests a lease
 * answered, the counts leased, and the requests refused here without asking the engine. The totals
 * are the counters' own (`stats`), read at each scrape; the steps' durations and sizes come from an
 * observer set here, so that with the metrics off no step is timed. The counters in memory have none
 * of these: no series at all, rather than figures that would read as a shared engine idle.
 */
import type { Counters } from '../../store/counters.ts';
import { StoreUnavailable } from '../../store/store.ts';
import type { MetricGroup, PromClient, Registry } from './metric-group.ts';
import { followed } from './parts.ts';
import { PORT_CALL_BUCKETS, callsOf } from './store.ts';

/** Requests in one step: one alone when the engine keeps up, hundreds when many wait for it. */
const STEP_REQUEST_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/** Budget sets in one step, one per key or session, up to the most a step takes (256). */
const STEP_SET_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** The metrics of a shared engine's steps, leases and refusals here. */
function stepMetrics(counters: Counters, registry: Registry, prom: PromClient): void {
  const { stats, observeSteps } = counters;
  if (stats === undefined || observeSteps === undefined) return;
  const labels = { engine: counters.engine };
  const histogram = (name: string, help: string, buckets: number[]) => new prom.Histogram({ name, help, labelNames: ['engine'] as const, buckets, registers: [registry] });
  const seconds = histogram('loc_counters_step_duration_seconds', 'Time the shared counters’ engine took for one step, answered or failed.', PORT_CALL_BUCKETS);
  const requests = histogram('loc_counters_step_requests', 'Requests one step of the shared counters counted or refused together.', STEP_REQUEST_BUCKETS);
  const sets = histogram('loc_counters_step_sets', 'Budget sets (one per key or session) one step of the shared counters carried.', STEP_SET_BUCKETS);
  observeSteps((step) => {
    seconds.observe(labels, step.seconds);
    requests.observe(labels, step.requests);
    sets.observe(labels, step.sets);
  });
  const total = (name: string, help: string, read: () => number) => followed(prom, registry, name, help, () => [[labels, read()]], ['engine']);
  followed(prom, registry, 'loc_counters_steps_total', 'Steps the shared counters sent their engine, answered (ok) or failed (failed).', () => {
    const { steps, failedSteps } = stats();
    return [[{ ...labels, result: 'ok' }, steps - failedSteps], [{ ...labels, result: 'failed' }, failedSteps]];
  }, ['engine', 'result']);
  total('loc_counters_leased_requests_total', 'Requests the shared counters answered from a lease, with no step of their own.', () => stats().leased);
  total('loc_counters_leased_counts_total', 'Counts the shared counters’ engine granted beyond a step’s requests, as a lease to hand out.', () => stats().leaseCounts);
  total('loc_counters_refused_here_total', 'Requests the shared counters refused without asking their engine, by a budget it had said was used up.', () => stats().refusedHere);
}

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
  // The counters are opened after the metrics plugin registers (plugins/rate-limit.ts).
  app.addHook('onReady', async () => stepMetrics(app.counters, registry, prom));
};
