/**
 * The counter port: every count the service keeps to enforce a limit — a key's server calls per hour,
 * its embed traffic per hour, one session's calls over its life — goes through `take`, so that one
 * engine holds them all. The embedded engine keeps the counts in this process (memory/), which is
 * right for one server per data directory; the engines several processes share (postgres/, redis/,
 * on shared-counters.ts) implement the same port: each request counted atomically, in a step that
 * may count the waiting requests of several keys at once, keyed by the budget's id, forgotten after
 * its `resetsAt`. open-counters.ts chooses one.
 */

/** A count in its window: a budget without its limit. */
export interface Window {
  /**
   * Names the count, unique across budgets and windows: a new window is a new id (`…:<hour>`), so an
   * engine never resets a count, it only forgets those past their `resetsAt`.
   */
  id: string;
  /** When the window ends, ms since the epoch: the count may be forgotten then. */
  resetsAt: number;
  /** The key the budget belongs to, and what it counts (budgets.ts): kept with a shared count. */
  keyId: string;
  kind: string;
}

/** One budget a request draws from. */
export interface Budget extends Window {
  /** Requests the budget allows in its window. */
  limit: number;
}

export interface Taken {
  /** Index in the budgets of the first one already used up; -1 when the request was counted. */
  spent: number;
  /**
   * Requests each budget has left after this one. When refused, the spent budget's is 0 and the
   * others' are as they were, or 0 where a shared engine refused without asking (shared-counters.ts).
   */
  remaining: number[];
  /** When refused: whether this is the first refusal by the spent budget in its window, the moment it ran out. */
  firstRefusal: boolean;
}

/** The engines counts are kept in (open-counters.ts chooses one). */
export type CounterEngine = 'memory' | 'postgres' | 'redis';

export interface Counters {
  /** Which engine holds the counts: what metrics name them by. */
  readonly engine: CounterEngine;
  /**
   * Counts one request against every budget, or against none when any is used up: a refused request
   * costs nothing, so a limit raised within the window applies to what was served, and a request
   * refused by one budget does not use up another.
   */
  take(budgets: readonly Budget[], now: number): Promise<Taken>;
  /** What a shared engine's steps, leases and local refusals came to (shared-counters.ts); absent for the embedded engine, which has none. */
  stats?(): SharedCounterStats;
  /**
   * Has `observer` told of each step a shared engine sends, replacing any before: set by the metrics
   * alone, so that no step is timed while they are off.
   */
  observeSteps?(observer: StepObserver): void;
  /** Resolves when the engine answers (the health check); rejects with StoreUnavailable when not. The embedded engine always answers. */
  ping?(): Promise<void>;
  /** Lets go of the engine's connections. */
  close?(): Promise<void>;
}

/** What a process's shared counters did since they opened: totals, each raised where it happens. */
export interface SharedCounterStats {
  /** Steps sent to the engine, answered or failed, and of them those it failed. */
  steps: number;
  failedSteps: number;
  /** Requests answered from a lease, with no step of their own. */
  leased: number;
  /** Counts the engine granted beyond a step's requests: leases, to be handed out later. */
  leaseCounts: number;
  /** Requests refused here, by a budget the engine had said was used up, without asking it. */
  refusedHere: number;
}

/** One step of a shared engine as it settled: how long the engine took, and what the step carried. */
export interface SettledStep {
  seconds: number;
  /** The requests it counted or refused. */
  requests: number;
  /** Their budget sets, one per key or session. */
  sets: number;
  failed: boolean;
}

export type StepObserver = (step: SettledStep) => void;
