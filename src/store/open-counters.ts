/**
 * Opens the counters the service is configured with, the one place that knows which engines exist:
 * Redis when LOC_REDIS_URL names one; else the PostgreSQL database of LOC_DATABASE_URL, which every
 * process on it shares; else this process's memory, for the one server of a SQLite data directory.
 * The shared engines are loaded only when named, with their drivers.
 */
import type { Counters } from './counters.ts';
import { memoryCounters } from './memory/memory-counters.ts';

export interface CounterSettings {
  databaseUrl: string | null;
  redisUrl: string | null;
}

export async function openCounters(settings: CounterSettings, now: () => number): Promise<Counters> {
  if (settings.redisUrl !== null) {
    const { redisCounters } = await import('./redis/redis-counters.ts');
    return redisCounters(settings.redisUrl, { now });
  }
  if (settings.databaseUrl !== null) {
    const { postgresCounters } = await import('./postgres/postgres-counters.ts');
    return postgresCounters(settings.databaseUrl, { now });
  }
  return memoryCounters();
}
