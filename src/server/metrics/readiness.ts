/**
 * Readiness as a metric: `loc_ready` is 1 while `/readyz` would answer 200, else 0, so that an alert
 * can see an instance leave and rejoin rotation, which the probes' answers, seen only by the load
 * balancer, never show. A scrape reads what is known (plugins/readiness.ts `known`): the tables, the
 * drain and the overload now, the database and the counters as the last `/readyz` found them — a
 * scrape never calls the engines itself. With workers the primary keeps the lowest: one worker not
 * ready makes the machine not ready.
 */
import type { MetricGroup } from './metric-group.ts';

export const readinessMetrics: MetricGroup = (app, registry, prom) => {
  new prom.Gauge({
    name: 'loc_ready', help: '1 while /readyz answers 200 (tables loaded, not draining, not overloaded, and the store and counters answering at the last /readyz), else 0.',
    aggregator: 'min', registers: [registry],
    collect() {
      this.set(app.readiness.known().ready ? 1 : 0);
    },
  });
};
