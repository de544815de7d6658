/**
 * The embedded counter engine: counts in a Map of this process, for the one server of a SQLite data
 * directory. A restart starts every count afresh.
 */
import type { Budget, Counters } from '../counters.ts';

interface Count {
  used: number;
  resetsAt: number;
  refused: boolean;
}

/** How often, in the counters' own time, counts past their window are swept out. */
const SWEEP_EVERY_MS = 60_000;

export interface MemoryCounters extends Counters {
  /** How many counts are held now: those whose window has ended go within a minute. */
  readonly size: number;
}

/** The embedded engine: counts in a Map of this process. A restart starts every count afresh. */
export function memoryCounters(): MemoryCounters {
  const counts = new Map<string, Count>();
  let sweptAt = -Infinity;

  const sweep = (now: number) => {
    sweptAt = now;
    for (const [id, count] of counts) if (count.resetsAt <= now) counts.delete(id);
  };

  const current = (budget: Budget, now: number): Count => {
    let count = counts.get(budget.id);
    if (count === undefined || count.resetsAt <= now) {
      count = { used: 0, resetsAt: budget.resetsAt, refused: false };
      counts.set(budget.id, count);
    }
    return count;
  };

  return {
    engine: 'memory',
    get size() {
      return counts.size;
    },
    async take(budgets, now) {
      if (now - sweptAt >= SWEEP_EVERY_MS) sweep(now);
      const held = budgets.map((budget) => current(budget, now));
      const spent = held.findIndex((count, i) => count.used >= budgets[i].limit);
      if (spent >= 0) {
        const firstRefusal = !held[spent].refused;
        held[spent].refused = true;
        return { spent, remaining: held.map((count, i) => Math.max(0, budgets[i].limit - count.used)), firstRefusal };
      }
      for (const count of held) count.used++;
      return { spent: -1, remaining: held.map((count, i) => budgets[i].limit - count.used), firstRefusal: false };
    },
  };
}
