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
 * - **A key's budget is leased.** A step for a line of one budget (a key's server calls in an hour)
 *   asks for more than the requests waiting: as many again as the line has had since its last step,
 *   up to MAX_LEASE, and never more than a ROOM_SHARE-th of the room it saw left. What the engine
 *   grants beyond the requests is this process's to hand out, each count once, with no step at all:
 *   one statement for hundreds of requests, however many processes count one key. A lease shrinks
 *   with the room, so the last ROOM_SHARE requests of a window go one step each, exactly as before.
 *   What a lease holds is counted already: the engine can be out of reach while a process spends it
 *   (the count stays exact), and what a process does not spend — it stopped, crashed, the window
 *   ended, the key's limit changed — is lost to that window: the fleet may serve less than a limit,
 *   by at most one lease per process, never more.
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
 * request is never let through uncounted. The steps, leases and refusals here are totalled (`stats`).
 */
import { performance } from 'node:perf_hooks';
import { HOUR_MS } from '../durations.ts';
import type { Budget, CounterEngine, Counters, SettledStep, SharedCounterStats, StepObserver, Taken } from './counters.ts';

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
  readonly engine: Exclude<CounterEngine, 'memory'>;
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

/** The port with what only the shared engines have: figures of their steps, an observer of them, a close. */
export type SharedCounters = Counters & Required<Pick<Counters, 'stats' | 'observeSteps' | 'close'>>;

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

/** Most counts a process leases at once for one key. */
const MAX_LEASE = 256;

/** A lease takes at most this share of the room a budget had at the step before. */
const ROOM_SHARE = 32;

/** Counts the engine granted a line of one budget beyond its requests, handed out here in order. */
interface Lease {
  /** The next count to hand out, and the last one granted. */
  next: number;
  last: number;
  /** Requests of the line since its last step: what the next lease is sized to. */
  demand: number;
  /** The budget's count after the line's last step, which the room is reckoned from. */
  seen: number;
  resetsAt: number;
}

/** A request counted at `count` of the one budget it draws on. */
const passedAt = (budgets: readonly Budget[], count: number): Taken => ({ spent: -1, remaining: [budgets[0].limit - count], firstRefusal: false });

/** Leases by line, sized, filled and swept; bounded like the spent budgets. Counts in `stats` the requests it answers. */
function leaseBook(stats: SharedCounterStats) {
  const leases = new Map<string, Lease>();
  return {
    /** A count of the line's lease for one more request, or null when it holds none. */
    take(name: string, { newRequest = true } = {}): number | null {
      const lease = leases.get(name);
      if (lease === undefined) return null;
      if (newRequest) lease.demand++;
      if (lease.next > lease.last) return null;
      stats.leased++;
      return lease.next++;
    },
    /** How many counts to ask for beyond the `waiting` requests of a line about to be sent. */
    extra(name: string, budgets: readonly Budget[], waiting: number): number {
      const lease = leases.get(name);
      if (lease === undefined || budgets.length !== 1) return 0;
      const room = budgets[0].limit - lease.seen - waiting;
      const extra = Math.min(MAX_LEASE, lease.demand, Math.floor(room / ROOM_SHARE));
      lease.demand = 0;
      return Math.max(0, extra);
    },
    /** Keeps what a step granted beyond its requests: the counts up to `count`, `extra` of them. */
    fill(name: string, budgets: readonly Budget[], count: number, extra: number): void {
      if (budgets.length !== 1) return;
      const lease = leases.get(name);
      if (lease === undefined && leases.size >= MAX_SPENT) return;
      leases.set(name, { next: count - extra + 1, last: count, demand: lease?.demand ?? 0, seen: count, resetsAt: budgets[0].resetsAt });
    },
    /** Answers what waits in `line` from its lease, as far as it goes. */
    drain(name: string, line: Line | undefined): void {
      while (line !== undefined && line.waiting.length > 0) {
        const count = this.take(name, { newRequest: false });
        if (count === null) return;
        line.waiting.shift()!.resolve(passedAt(line.budgets, count));
      }
    },
    sweep(at: number): void {
      for (const [name, lease] of leases) if (lease.resetsAt <= at) leases.delete(name);
    },
  };
}

/** The answer to the `j`th request of a line in a step that counted the first `served` of them. */
function answer(budgets: readonly Budget[], { granted, spent, counts, firstRefusal }: Granted, served: number, j: number): Taken {
  if (j < served) return { spent: -1, remaining: budgets.map((budget, i) => budget.limit - (counts[i] - granted + j + 1)), firstRefusal: false };
  return { spent, remaining: budgets.map((budget, i) => Math.max(0, budget.limit - counts[i])), firstRefusal: firstRefusal && j === served };
}

/** What a process's shared counters keep between requests. */
interface Held {
  spent: Map<string, Spent>;
  /** Budgets whose first refusal fell on a lease's extra counts: said by this process's next refusal. */
  owed: Set<string>;
  leases: ReturnType<typeof leaseBook>;
  /** The requests waiting for the next step, by budget set. */
  lines: Map<string, Line>;
  stats: SharedCounterStats;
}

/** A request refused here, by a budget the engine said was used up; null when none was. */
function refusedHere({ spent, owed, stats }: Held, budgets: readonly Budget[], at: number): Taken | null {
  const known = budgets.findIndex((budget) => {
    const entry = spent.get(budget.id);
    return entry !== undefined && entry.resetsAt > at && budget.limit <= entry.count;
  });
  if (known < 0) return null;
  stats.refusedHere++;
  return { spent: known, remaining: budgets.map(() => 0), firstRefusal: owed.delete(budgets[known].id) };
}

/**
 * Answers each request of a line: the first `granted` counted, each with the count it made; the
 * rest refused. What was granted beyond the requests is the line's lease.
 */
function share({ spent, owed, leases, lines, stats }: Held, name: string, { budgets, waiting }: Line, { granted, spent: index, counts, firstRefusal }: Granted): void {
  const served = Math.min(granted, waiting.length);
  // Beyond the bound (a flood of spent sessions), a refusal asks the engine again: slower, still exact.
  if (index >= 0 && spent.size < MAX_SPENT) spent.set(budgets[index].id, { count: counts[index], resetsAt: budgets[index].resetsAt });
  if (firstRefusal && served === waiting.length) owed.add(budgets[index].id);
  const first = firstRefusal || (index >= 0 && served < waiting.length && owed.delete(budgets[index].id));
  waiting.forEach((waiter, j) => waiter.resolve(answer(budgets, { granted, spent: index, counts, firstRefusal: first }, served, j)));
  leases.fill(name, budgets, counts[0], granted - served);
  stats.leaseCounts += granted - served;
  // The line's requests that came during the step are answered from the lease at once: a lease
  // is never held while requests of its line wait.
  leases.drain(name, lines.get(name));
  if (lines.get(name)?.waiting.length === 0) lines.delete(name);
}

const settled = (startedAt: number, requests: number, sets: number, failed: boolean): SettledStep => ({ seconds: (performance.now() - startedAt) / 1000, requests, sets, failed });

/**
 * Sends one step, the requests of `step`'s lines and the lease of each line of one budget, and
 * answers them, or fails each when the engine fails; tells `observer`, when there is one.
 */
async function sendStep(engine: CountEngine, held: Held, step: readonly [string, Line][], observer: StepObserver | undefined): Promise<void> {
  const waiters = step.flatMap(([, line]) => line.waiting);
  const sets = step.map(([name, line]) => ({ budgets: line.budgets, wanted: line.waiting.length + held.leases.extra(name, line.budgets, line.waiting.length) }));
  // Timed only when observed: with the metrics off a step costs no clock reading.
  const startedAt = observer === undefined ? 0 : performance.now();
  held.stats.steps++;
  let granted: Granted[] | undefined;
  try {
    granted = await engine.take(sets, Math.max(...waiters.map((w) => w.at)));
    observer?.(settled(startedAt, waiters.length, sets.length, false));
    step.forEach(([name, line], i) => share(held, name, line, granted![i]));
  } catch (error) {
    if (granted === undefined) {
      held.stats.failedSteps++;
      observer?.(settled(startedAt, waiters.length, sets.length, true));
    }
    for (const waiter of waiters) waiter.reject(error);
  }
}

export function sharedCounters(engine: CountEngine, { now }: { now: () => number }): SharedCounters {
  const stats: SharedCounterStats = { steps: 0, failedSteps: 0, leased: 0, leaseCounts: 0, refusedHere: 0 };
  const held: Held = { spent: new Map(), owed: new Set(), leases: leaseBook(stats), lines: new Map(), stats };
  const { spent, owed, leases, lines } = held;
  let sending = false;
  let observer: StepObserver | undefined;

  const sweep = (): void => {
    const at = now();
    for (const [id, entry] of spent) if (entry.resetsAt <= at) spent.delete(id);
    for (const id of owed) if (!spent.has(id)) owed.delete(id);
    leases.sweep(at);
    engine.sweep(at).catch(() => {});
  };

  const sweeper = setInterval(sweep, SWEEP_EVERY_MS).unref();

  /** Sends what waits in steps, one in flight at a time, until nothing waits. */
  async function send(): Promise<void> {
    sending = true;
    while (lines.size > 0) {
      const step = [...lines.entries()].slice(0, MAX_SETS);
      for (const [name] of step) lines.delete(name);
      await sendStep(engine, held, step, observer);
    }
    sending = false;
  }

  return {
    engine: engine.engine,
    take(budgets, at): Promise<Taken> {
      const name = lineOf(budgets);
      const leased = leases.take(name);
      if (leased !== null) return Promise.resolve(passedAt(budgets, leased));
      const refused = refusedHere(held, budgets, at);
      if (refused !== null) return Promise.resolve(refused);
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
    stats: () => ({ ...stats }),
    observeSteps(observed) {
      observer = observed;
    },
    ping: () => engine.ping(),
    async close() {
      clearInterval(sweeper);
      await engine.close();
    },
  };
}
