/**
 * Counters that several loc processes share, on one machine or many: what the PostgreSQL and Redis
 * engines (postgres-counters.ts, redis-counters.ts) have in common. The engine does the one atomic
 * step per request; this side keeps the traffic it sends small:
 *
 * - **A used-up budget is refused here**, without asking the engine again: once the engine has said a
 *   budget is spent at a count, every request of that window within the limit it was refused under
 *   is refused in this process. A key hammering past its limit costs the shared store nothing, and
 *   each process asks once per window (again if the limit is raised).
 * - **Refusals are added in batches** (every few seconds, and at close): the usage rows count them
 *   without a write per refused request. Whether a refusal is the budget's first in its window, the
 *   moment an operator's alerting watches, is settled by the engine, once for the whole fleet.
 * - **Ended windows are swept** hourly; hourly counts are kept as usage for `USAGE_KEPT_MS`.
 *
 * An engine that cannot be reached fails the request (StoreUnavailable: 503 with Retry-After): a
 * request is never let through uncounted.
 */
import type { Budget, Counters, RefusalReason, Taken, Window } from './counters.ts';

/** How long the hourly counts (a key's usage per hour) are kept: the partner panel shows them (#21). */
export const USAGE_KEPT_MS = 35 * 24 * 3_600_000;

/** How often refusals counted here are added to the shared rows. */
export const REFUSALS_EVERY_MS = 5_000;

/** How often ended windows are swept out of the engine and of this process. */
const SWEEP_EVERY_MS = 3_600_000;

/**
 * Most windows held here: with refusals between two batches (a flood of sessions beyond it is not
 * counted as usage), and known to be used up.
 */
const MAX_PENDING = 100_000;

/** Refusals of one window held here until the next batch, by reason. */
export interface Refusals {
  window: Window;
  counts: Record<RefusalReason, number>;
}

/** One atomic step of a shared engine, and its housekeeping. */
export interface CountEngine {
  /**
   * Counts one request against every budget, or none when one is used up: the first used-up budget
   * (-1: counted), each budget's count (after this request; when refused, as it was), and whether
   * this refusal is the spent budget's first in its window across every process.
   */
  take(budgets: readonly Budget[], now: number): Promise<{ spent: number; counts: number[]; firstRefusal: boolean }>;
  /** Adds refusals to the windows' rows, making those a refusal came before any request. */
  addRefusals(refusals: readonly Refusals[]): Promise<void>;
  /** Forgets windows that ended before `now`; hourly ones `USAGE_KEPT_MS` later. */
  sweep(now: number): Promise<void>;
  /** Resolves when the engine answers; rejects with StoreUnavailable when not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface SharedCounters extends Counters {
  refuse: NonNullable<Counters['refuse']>;
  /** Adds the refusals held here now (tests; the timer does it every REFUSALS_EVERY_MS). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface Spent {
  /** The count the engine refused at: a limit up to it is still used up. */
  count: number;
  resetsAt: number;
}

export function sharedCounters(engine: CountEngine, { now }: { now: () => number }): SharedCounters {
  const spent = new Map<string, Spent>();
  let pending = new Map<string, Refusals>();
  let flushing: Promise<void> = Promise.resolve();

  const refuse = (window: Window, reason: RefusalReason, n = 1): void => {
    let entry = pending.get(window.id);
    if (entry === undefined) {
      if (pending.size >= MAX_PENDING) return;
      entry = { window, counts: { limit: 0, origin: 0, ip: 0, inactive: 0 } };
      pending.set(window.id, entry);
    }
    entry.counts[reason] += n;
  };

  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await engine.addRefusals([...batch.values()]);
      } catch {
        // Kept for the next batch: usage is late, not lost, while the engine is away.
        for (const { window, counts } of batch.values()) for (const [reason, n] of Object.entries(counts)) if (n > 0) refuse(window, reason as RefusalReason, n);
      }
    });
    return flushing;
  };

  const sweep = (): void => {
    const at = now();
    for (const [id, entry] of spent) if (entry.resetsAt <= at) spent.delete(id);
    engine.sweep(at).catch(() => {});
  };

  const refusals = setInterval(() => void flush(), REFUSALS_EVERY_MS).unref();
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS).unref();

  return {
    async take(budgets, at): Promise<Taken> {
      const known = budgets.findIndex((budget) => {
        const entry = spent.get(budget.id);
        return entry !== undefined && entry.resetsAt > at && budget.limit <= entry.count;
      });
      if (known >= 0) {
        refuse(budgets[known], 'limit');
        return { spent: known, remaining: budgets.map(() => 0), firstRefusal: false };
      }
      const taken = await engine.take(budgets, at);
      const remaining = budgets.map((budget, i) => Math.max(0, budget.limit - taken.counts[i]));
      if (taken.spent >= 0) {
        const budget = budgets[taken.spent];
        // Beyond the bound (a flood of spent sessions), a refusal asks the engine again: slower, still exact.
        if (spent.size < MAX_PENDING) spent.set(budget.id, { count: taken.counts[taken.spent], resetsAt: budget.resetsAt });
        refuse(budget, 'limit');
      }
      return { spent: taken.spent, remaining, firstRefusal: taken.firstRefusal };
    },
    refuse: (window, reason) => refuse(window, reason),
    ping: () => engine.ping(),
    flush,
    async close() {
      clearInterval(refusals);
      clearInterval(sweeper);
      await flush();
      await engine.close();
    },
  };
}
