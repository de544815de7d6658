/**
 * What every adapter of the usage store (usage-store.ts) does to a batch before its engine sees it, so
 * that the engines cannot differ on it: the batch checked whole (all or nothing, before any write),
 * rows of the same key, kind and hour added together — one statement may not change a row twice
 * (PostgreSQL's ON CONFLICT refuses it) — and sorted, so that two processes' batches take the rows
 * they share in the same order and never wait on each other crosswise.
 */
import { HOUR_MS } from '../durations.ts';
import { REFUSAL_REASONS, TRAFFIC_KINDS, type UsageHour } from './usage-store.ts';

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
