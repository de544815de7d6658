/**
 * Counters that several loc processes share, on one machine or many: what the PostgreSQL and Redis
 * engines (postgres-counters.ts, redis-counters.ts) have in common. The engine does the one atomic
 * step per request; this side keeps the traffic it sends small:
 *
 * - **A used-up budget is refused here**, without asking the engine again: once the engine has said a
 *   budget is spent at a count, every request of that window within the limit it was refused under
 *   is refused in this process. A key hammering past its limit costs the shared store nothing, and
 *   each process asks once per window (again if the limit is raised). Whether a refusal is the
 *   budget's first in its window, the moment an operator's alerting watches, is settled by the
 *   engine, once for the whole fleet.
 * - **Ended windows are swept** hourly. A key's usage is not the counters' to keep: the usage meter
 *   (usage-meter.ts) adds it to the store in batches.
 *
 * An engine that cannot be reached fails the request (StoreUnavailable: 503 with Retry-After): a
 * request is never let through uncounted.
 */
import { HOUR_MS } from '../durations.ts';
import type { Budget, Counters, Taken } from './counters.ts';

/** How often ended windows are swept out of the engine and of this process. */
const SWEEP_EVERY_MS = HOUR_MS;

/** Most windows known here to be used up: beyond it, a refusal asks the engine again. */
const MAX_SPENT = 100_000;

/** One atomic step of a shared engine, and its housekeeping. */
export interface CountEngine {
  /**
   * Counts one request against every budget, or none when one is used up: the first used-up budget
   * (-1: counted), each budget's count (after this request; when refused, as it was), and whether
   * this refusal is the spent budget's first in its window across every process.
   */
  take(budgets: readonly Budget[], now: number): Promise<{ spent: number; counts: number[]; firstRefusal: boolean }>;
  /** Forgets windows that ended before `now`. */
  sweep(now: number): Promise<void>;
  /** Resolves when the engine answers; rejects with StoreUnavailable when not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface SharedCounters extends Counters {
  close(): Promise<void>;
}

interface Spent {
  /** The count the engine refused at: a limit up to it is still used up. */
  count: number;
  resetsAt: number;
}

export function sharedCounters(engine: CountEngine, { now }: { now: () => number }): SharedCounters {
  const spent = new Map<string, Spent>();

  const sweep = (): void => {
    const at = now();
    for (const [id, entry] of spent) if (entry.resetsAt <= at) spent.delete(id);
    engine.sweep(at).catch(() => {});
  };

  const sweeper = setInterval(sweep, SWEEP_EVERY_MS).unref();

  return {
    async take(budgets, at): Promise<Taken> {
      const known = budgets.findIndex((budget) => {
        const entry = spent.get(budget.id);
        return entry !== undefined && entry.resetsAt > at && budget.limit <= entry.count;
      });
      if (known >= 0) return { spent: known, remaining: budgets.map(() => 0), firstRefusal: false };
      const taken = await engine.take(budgets, at);
      const remaining = budgets.map((budget, i) => Math.max(0, budget.limit - taken.counts[i]));
      if (taken.spent >= 0) {
        const budget = budgets[taken.spent];
        // Beyond the bound (a flood of spent sessions), a refusal asks the engine again: slower, still exact.
        if (spent.size < MAX_SPENT) spent.set(budget.id, { count: taken.counts[taken.spent], resetsAt: budget.resetsAt });
      }
      return { spent: taken.spent, remaining, firstRefusal: taken.firstRefusal };
    },
    ping: () => engine.ping(),
    async close() {
      clearInterval(sweeper);
      await engine.close();
    },
  };
}
