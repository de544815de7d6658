/**
 * Opens the counters the service is configured with, the one place that knows which engines exist:
 * Redis when LOC_REDIS_URL names one; else the PostgreSQL database of LOC_DATABASE_URL, which every
 * process on it shares; else this process's memory, for the one server of a SQLite data directory.
 * The shared engines are loaded only when named, with their drivers.
 */
import type { Counters } from './counters.ts';
import { memoryCounters } from './memory/memory-counters.ts';
import { inSpan, tracingOn } from '../spans.ts';

export interface CounterSettings {
  databaseUrl: string | null;
  redisUrl: string | null;
}

export async function openCounters(settings: CounterSettings, now: () => number): Promise<Counters> {
  if (settings.redisUrl !== null) {
    const { redisCounters } = await import('./redis/redis-counters.ts');
    return traced(await redisCounters(settings.redisUrl, { now }), 'redis');
  }
  if (settings.databaseUrl !== null) {
    const { postgresCounters } = await import('./postgres/postgres-counters.ts');
    return traced(await postgresCounters(settings.databaseUrl, { now }), 'postgresql');
  }
  return traced(memoryCounters(), 'memory');
}

/**
 * With traces on, each take is a span of loc's own, whichever the engine: requests gathered into one
 * step share its statement or command, which is the child of the first of them only. The rest of the
 * port is spread through as it is: a shared engine's stats and step observer with it.
 */
function traced(counters: Counters, engine: string): Counters {
  if (!tracingOn()) return counters;
  const attributes = { 'loc.counters.engine': engine };
  return { ...counters, take: (budgets, now) => inSpan('loc.counters.take', attributes, () => counters.take(budgets, now)) };
}
