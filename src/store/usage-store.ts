/**
 * A key's usage, hour by hour (`Store.usage`): what the partner panel charts and `loc keys usage`
 * prints. Rows are per key, kind of traffic and clock hour (UTC); each holds the requests counted
 * against the key's budget and the requests refused, by reason. The service adds to them in batches
 * (limits/usage-meter.ts), never a write per request; rows older than the retention are deleted.
 * Every engine implements it and passes the same conformance suite (`test/conformance/usage-store.ts`).
 */

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
  /** Forgets the hours that began before `before` (the retention); returns how many rows went. */
  deleteUsageBefore(before: number): Promise<number>;
}
