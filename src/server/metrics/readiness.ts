/**
 * Readiness as a metric: `loc_ready` is 1 while `/readyz` would answer 200, else 0, read at each
 * scrape from the same checks (plugins/readiness.ts), so that an alert can see an instance leave
 * and rejoin rotation, which a probe's answers, seen only by the load balancer, never show. With
 * workers the primary keeps the lowest: one worker not ready makes the machine not ready.
 */
import type { MetricGroup } from './metric-group.ts';

export const readinessMetrics: MetricGroup = (app, registry, prom) => {
  new prom.Gauge({
    name: 'loc_ready', help: '1 while /readyz answers 200 (tables loaded, store and counters answering, not draining, not overloaded), else 0.',
    aggregator: 'min', registers: [registry],
    async collect() {
      this.set((await app.readiness.check()).ready ? 1 : 0);
    },
  });
};
