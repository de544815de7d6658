/**
 * Counters that several loc processes share, on one machine or many: what the PostgreSQL and Redis
 * engines (postgres-counters.ts, redis-counters.ts) have in common. The engine does one atomic step
 * for a batch of requests; this side keeps the traffic it sends small:
 *
 * - **The requests that wait share a step.** While a step is in flight, the requests that come wait,
 *   gathered by budget set (one key's, one session's), and go together in the next step, which takes
 *   for each set as many of its requests as its budgets have room for, each all or nothing: one
 *   statement in flight per process, whatever the load and however many keys. Each request counted
 *   gets a count of its own, so the remaining values handed out stay unique, and a step the engine
 *   fails fails each of its requests (503): none passes uncounted.
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

/** What one step of an engine counted. */
export interface Granted {
  /** How many of the requests wanted were counted, against every budget. */
  granted: number;
  /** When fewer were counted than wanted: the first budget with the least room; else -1. */
  spent: number;
  /** Each budget's count after the step. */
  counts: number[];
  /** Whether the refusal is the spent budget's first in its window across every process. */
  firstRefusal: boolean;
}

/** The requests of one budget set that a step takes: how many, and the budgets each draws on. */
export interface Wanted {
  budgets: readonly Budget[];
  wanted: number;
}

/** One atomic step of a shared engine, and its housekeeping. */
export interface CountEngine {
  /**
   * Takes the sets in turn, each as many of its requests as all its budgets have room for, each
   * request all or nothing, a later set seeing what an earlier one took from a budget they share;
   * answers what each set was granted.
   */
  take(sets: readonly Wanted[], now: number): Promise<Granted[]>;
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

/** A request waiting for the next step. */
interface Waiter {
  at: number;
  resolve: (taken: Taken) => void;
  reject: (error: unknown) => void;
}

/** The requests of one budget set (the same windows, the same limits) waiting for the next step. */
interface Line {
  budgets: readonly Budget[];
  waiting: Waiter[];
}

/** Requests share a line when they draw from the same windows under the same limits. */
const lineOf = (budgets: readonly Budget[]): string => budgets.map((budget) => `${budget.id}\n${budget.limit}`).join('\n');

/** Most budget sets in one step: a larger gathering waits for the next. */
const MAX_SETS = 256;

export function sharedCounters(engine: CountEngine, { now }: { now: () => number }): SharedCounters {
  const spent = new Map<string, Spent>();
  /** The requests waiting for the next step, by budget set. */
  const lines = new Map<string, Line>();
  let sending = false;

  const sweep = (): void => {
    const at = now();
    for (const [id, entry] of spent) if (entry.resetsAt <= at) spent.delete(id);
    engine.sweep(at).catch(() => {});
  };

  const sweeper = setInterval(sweep, SWEEP_EVERY_MS).unref();

  /** Sends what waits in steps, one in flight at a time, until nothing waits. */
  async function send(): Promise<void> {
    sending = true;
    while (lines.size > 0) {
      const step = [...lines.entries()].slice(0, MAX_SETS);
      for (const [name] of step) lines.delete(name);
      const waiters = step.flatMap(([, line]) => line.waiting);
      try {
        const granted = await engine.take(step.map(([, line]) => ({ budgets: line.budgets, wanted: line.waiting.length })), Math.max(...waiters.map((w) => w.at)));
        step.forEach(([, line], i) => share(line.budgets, line.waiting, granted[i]));
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    sending = false;
  }

  /** Answers each request of a line: the first `granted` counted, each with the count it made; the rest refused. */
  function share(budgets: readonly Budget[], batch: readonly Waiter[], { granted, spent: index, counts, firstRefusal }: Granted): void {
    if (index >= 0 && granted < batch.length) {
      // Beyond the bound (a flood of spent sessions), a refusal asks the engine again: slower, still exact.
      if (spent.size < MAX_SPENT) spent.set(budgets[index].id, { count: counts[index], resetsAt: budgets[index].resetsAt });
    }
    batch.forEach((waiter, j) => {
      if (j < granted) {
        waiter.resolve({ spent: -1, remaining: budgets.map((budget, i) => budget.limit - (counts[i] - granted + j + 1)), firstRefusal: false });
      } else {
        const remaining = budgets.map((budget, i) => Math.max(0, budget.limit - counts[i]));
        waiter.resolve({ spent: index, remaining, firstRefusal: firstRefusal && j === granted });
      }
    });
  }

  return {
    take(budgets, at): Promise<Taken> {
      const known = budgets.findIndex((budget) => {
        const entry = spent.get(budget.id);
        return entry !== undefined && entry.resetsAt > at && budget.limit <= entry.count;
      });
      if (known >= 0) return Promise.resolve({ spent: known, remaining: budgets.map(() => 0), firstRefusal: false });
      const name = lineOf(budgets);
      let line = lines.get(name);
      if (line === undefined) {
        line = { budgets, waiting: [] };
        lines.set(name, line);
      }
      const { waiting } = line;
      const taken = new Promise<Taken>((resolve, reject) => waiting.push({ at, resolve, reject }));
      if (!sending) void send();
      return taken;
    },
    ping: () => engine.ping(),
    async close() {
      clearInterval(sweeper);
      await engine.close();
    },
  };
}
