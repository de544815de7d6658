/**
 * The process metrics: prom-client's defaults (CPU, memory, heap, event-loop delay, …), the event
 * loop's utilisation since the previous scrape, and what is running (`loc_build_info`). With workers,
 * the primary sums what each reports (metrics/cluster.ts) but for the two that say otherwise here.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { coverage } from '../../code/shipped-table.ts';
import { VERSION } from '../version.ts';
import type { MetricGroup } from './metric-group.ts';

export const processMetrics: MetricGroup = (_app, registry, prom) => {
  prom.collectDefaultMetrics({ register: registry });
  let previous: EventLoopUtilization = performance.eventLoopUtilization();
  new prom.Gauge({
    name: 'loc_event_loop_utilization', help: 'Share of the time the event loop was busy since the previous scrape, 0 to 1 (with workers, their average).',
    aggregator: 'average', registers: [registry],
    collect() {
      const now = performance.eventLoopUtilization();
      this.set(performance.eventLoopUtilization(now, previous).utilization);
      previous = now;
    },
  });
  new prom.Gauge({
    name: 'loc_build_info', help: 'Always 1: the version of loc, of its code table and of Node.js that run.',
    labelNames: ['version', 'table_revision', 'node_version'] as const, aggregator: 'first', registers: [registry],
    collect() {
      // Read at the scrape: the table is loaded just after the start (process/server.ts), not before.
      const table = coverage();
      this.set({ version: VERSION, table_revision: `v${table.version}r${table.revision}`, node_version: process.version }, 1);
    },
  });
};
