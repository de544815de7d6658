/** The metric groups the metrics plugin runs (plugin.ts), one per part of the service; see metric-group.ts. */
import type { MetricGroup } from './metric-group.ts';
import { counterMetrics } from './counters.ts';
import { httpMetrics } from './http.ts';
import { partMetrics } from './parts.ts';
import { processMetrics } from './process.ts';
import { readinessMetrics } from './readiness.ts';
import { storeMetrics } from './store.ts';

export type { MetricGroup };

export const METRIC_GROUPS: readonly MetricGroup[] = [httpMetrics, processMetrics, storeMetrics, counterMetrics, partMetrics, readinessMetrics];
