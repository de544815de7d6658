/**
 * A key's usage, hour by hour (`Store.usage`): what the partner panel charts and `loc keys usage`
 * prints. Rows are per key, kind of traffic and clock hour (UTC); each holds the requests counted
 * against the key's budget and the requests refused, by reason. The service adds to them in batches
 * (limits/usage-meter.ts), never a write per request; rows older than the retention are deleted.
 * Every engine implements it and passes the same conformance suite (`test/conformance/usage-store.ts`).
 */
import { HOUR_MS } from '../durations.ts';

/** Why a request of a key was refused: its budget used up, or, before any budget, auth's refusals a partner can fix. */
export const REFUSAL_REASONS = ['limit', 'origin', 'ip', 'inactive'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** The two kinds of a key's traffic: calls made with the key itself, and its embed sessions' (visitors' browsers). */
export const TRAFFIC_KINDS = ['server', 'embed'] as const;
export type TrafficKind = (typeof TRAFFIC_KINDS)[number];

/** One key's traffic of one kind in one clock hour. */
export interface UsageHour {
  keyId: string;
  kind: TrafficKind;
  /** When the hour began, ms since the epoch: a multiple of 3 600 000 (UTC clock hours). */
  hour: number;
  /** Requests counted against the key's budget: served, or failed after they were counted. */
  used: number;
  /** Requests refused, by reason. */
  refused: Record<RefusalReason, number>;
}

export interface UsageStore {
  /**
   * Adds each hour's counts to the stored ones, making the rows that are missing; all or nothing.
   * Concurrent batches from several processes add up: none is lost.
   */
  addUsage(hours: readonly UsageHour[]): Promise<void>;
  /** The key's hours that began at or after `since`, both kinds, oldest first (server before embed within an hour). */
  usageOf(keyId: string, since: number): Promise<UsageHour[]>;
  /** The hours of every key given that began at or after `since`, in one read: in key order, then as `usageOf` orders them. */
  usageOfKeys(keyIds: readonly string[], since: number): Promise<UsageHour[]>;
  /** Forgets the hours that began before `before` (the retention); returns how many rows went. */
  deleteUsageBefore(before: number): Promise<number>;
}

// What every engine's adapter does to a batch before its engine sees it, so that the engines cannot
// differ on it: the batch checked whole (all or nothing, before any write), rows of the same key, kind
// and hour added together — one statement may not change a row twice (PostgreSQL's ON CONFLICT refuses
// it) — and sorted, so that two processes' batches take the rows they share in the same order and
// never wait on each other crosswise.

/** Where a row of key usage is kept: one per key, kind and hour. */
export const usageKey = (row: Pick<UsageHour, 'keyId' | 'kind' | 'hour'>): string => `${row.keyId} ${row.kind} ${row.hour}`;

const isCount = (value: number): boolean => Number.isSafeInteger(value) && value >= 0;

/** A copy of a row, its refusals included. */
export const copyUsage = (row: UsageHour): UsageHour => ({ ...row, refused: { ...row.refused } });

/**
 * The batch's rows, one per key, kind and hour, in key, kind, hour order. Throws a RangeError for a row
 * the port does not allow (an hour off the clock hour, a count not a whole number ≥ 0, an unknown
 * kind): a caller's bug, which must not half-land.
 */
export function mergedUsage(hours: readonly UsageHour[]): UsageHour[] {
  const merged = new Map<string, UsageHour>();
  for (const row of hours) {
    const counts = [row.used, ...REFUSAL_REASONS.map((reason) => row.refused[reason])];
    if (!TRAFFIC_KINDS.includes(row.kind) || !Number.isSafeInteger(row.hour) || row.hour % HOUR_MS !== 0 || !counts.every(isCount)) {
      throw new RangeError(`not an hour of key usage: ${JSON.stringify(row)}`);
    }
    const at = usageKey(row);
    const known = merged.get(at);
    if (known === undefined) {
      merged.set(at, copyUsage(row));
      continue;
    }
    known.used += row.used;
    for (const reason of REFUSAL_REASONS) known.refused[reason] += row.refused[reason];
  }
  const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...merged.values()].sort((a, b) => byText(a.keyId, b.keyId) || byText(a.kind, b.kind) || a.hour - b.hour);
}

/** Oldest first, server before embed within an hour (UsageStore.usageOf), for the engine that sorts itself. */
export const usageOrder = (a: UsageHour, b: UsageHour): number => a.hour - b.hour || TRAFFIC_KINDS.indexOf(a.kind) - TRAFFIC_KINDS.indexOf(b.kind);

/** Key by key (as code units compare, SQL's `COLLATE "C"`), then `usageOrder` (UsageStore.usageOfKeys). */
export const keysUsageOrder = (a: UsageHour, b: UsageHour): number => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : usageOrder(a, b));
