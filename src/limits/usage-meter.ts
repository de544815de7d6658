/**
 * A key's usage as it happens (store/usage-store.ts), without a write per request: each request the
 * limits count or refuse is tallied here by key, kind and clock hour, and the tallies are added to the
 * store in one batch every `flushEveryMs` (LOC_USAGE_FLUSH_MS), and when the server closes. Rows add up, so every process
 * of a fleet tallies its own requests and the store holds the fleet's sum, on either engine and with
 * either shared counter engine.
 *
 * The tallies follow the counters' verdicts (plugins/rate-limit.ts): a request counted against its
 * hourly budget is `used`; one its budget (the key's hour or the session's life) refused is refused
 * for `limit`; one auth refused for a key it found is refused for its reason. A process that dies
 * loses at most its last interval's tallies; a store out of reach keeps them for the next batch.
 */
import type { Store } from '../store/store.ts';
import type { RefusalReason, TrafficKind, UsageHour } from '../store/usage-store.ts';
import { HOUR_MS } from '../durations.ts';
import { USAGE_KEPT_MS } from './usage-report.ts';

/** How often hours past the retention are deleted. */
const SWEEP_EVERY_MS = HOUR_MS;

/**
 * Most rows held between batches (one per key, kind and hour seen). Beyond it, while the store is out
 * of reach for long, new rows are dropped rather than memory grown: usage is a report, not a limit.
 */
const MAX_PENDING = 100_000;

export interface UsageMeter {
  /** A request of `keyId` counted against its hourly budget of `kind` at `now`. */
  counted(keyId: string, kind: TrafficKind, now: number): void;
  /** A request of `keyId` refused for `reason` at `now`. */
  refused(keyId: string, kind: TrafficKind, reason: RefusalReason, now: number): void;
  /** Adds what is tallied now to the store (tests; the timer does it every `flushEveryMs`). */
  flush(): Promise<void>;
  /** Deletes the hours older than the retention (the timer does it hourly). */
  sweep(): Promise<void>;
  /** Batches added to the store since the meter started, and batches the store failed (kept for the next). */
  stats(): { flushed: number; failed: number };
  /** Stops the timers and adds what is left. */
  close(): Promise<void>;
}

export interface UsageMeterOptions {
  now: () => number;
  onError: (error: unknown) => void;
  /** How often tallies are added to the store: traffic shows in the panel within this (and a page's refresh). */
  flushEveryMs: number;
}

export function usageMeter(store: Store, { now, onError, flushEveryMs }: UsageMeterOptions): UsageMeter {
  let pending = new Map<string, UsageHour>();
  let flushing: Promise<void> = Promise.resolve();
  let flushed = 0;
  let failed = 0;

  const row = (keyId: string, kind: TrafficKind, at: number): UsageHour | undefined => {
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    const id = `${kind}:${hour}:${keyId}`;
    let entry = pending.get(id);
    if (entry === undefined) {
      if (pending.size >= MAX_PENDING) return undefined;
      entry = { keyId, kind, hour, used: 0, refused: { limit: 0, origin: 0, ip: 0, inactive: 0 } };
      pending.set(id, entry);
    }
    return entry;
  };

  /** Adds `from`'s counts to the row pending for the same key, kind and hour (a failed batch, kept). */
  const keep = (from: UsageHour): void => {
    const entry = row(from.keyId, from.kind, from.hour);
    if (entry === undefined) return;
    entry.used += from.used;
    for (const reason of Object.keys(from.refused) as RefusalReason[]) entry.refused[reason] += from.refused[reason];
  };

  const flush = (): Promise<void> => {
    // One batch at a time: a slow store never has two of this process's batches racing.
    flushing = flushing.then(async () => {
      if (pending.size === 0) return;
      const batch = [...pending.values()];
      pending = new Map();
      try {
        await store.usage.addUsage(batch);
        flushed++;
      } catch (error) {
        failed++;
        for (const entry of batch) keep(entry);
        onError(error);
      }
    });
    return flushing;
  };

  const sweep = async (): Promise<void> => {
    await store.usage.deleteUsageBefore(now() - USAGE_KEPT_MS).then(() => undefined, onError);
  };

  const flusher = setInterval(() => void flush(), flushEveryMs).unref();
  // At start too: a service restarted more often than hourly still keeps its retention.
  void sweep();
  const sweeper = setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();

  return {
    counted(keyId, kind, at) {
      const entry = row(keyId, kind, at);
      if (entry !== undefined) entry.used++;
    },
    refused(keyId, kind, reason, at) {
      const entry = row(keyId, kind, at);
      if (entry !== undefined) entry.refused[reason]++;
    },
    flush,
    sweep,
    stats: () => ({ flushed, failed }),
    async close() {
      clearInterval(flusher);
      clearInterval(sweeper);
      await flush();
    },
  };
}
