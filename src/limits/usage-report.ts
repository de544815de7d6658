/**
 * A key's usage as the panel charts it and `loc keys usage` prints it: the stored hours
 * (store/usage-store.ts) of the last days, one entry per clock hour with the missing ones as zeros,
 * the totals by kind and by reason of refusal, and the key's last use.
 */
import type { KeyUse } from '../store/panel-store.ts';
import type { Store } from '../store/store.ts';
import { REFUSAL_REASONS, type RefusalReason, type TrafficKind } from '../store/usage-store.ts';
import { DAY_MS, HOUR_MS } from '../durations.ts';

/** How long a key's hourly usage is kept: five weeks, so a month can be compared with the one before's last week. */
export const USAGE_KEPT_MS = 35 * DAY_MS;

/** Days shown unless asked otherwise: a week, which shows a day's rhythm and a weekend. */
export const DEFAULT_USAGE_DAYS = 7;

/** Most days one report covers: all that is kept. */
export const MAX_USAGE_DAYS = USAGE_KEPT_MS / DAY_MS;

export interface KindTotals {
  used: number;
  refused: Record<RefusalReason, number>;
}

export interface ReportHour {
  /** When the hour began, ms since the epoch. */
  hour: number;
  /** Requests counted, by kind. */
  server: number;
  embed: number;
  /** Requests refused, both kinds, every reason. */
  refused: number;
}

export interface UsageReport {
  keyId: string;
  /** The first hour shown, and the end of the last (the end of the current hour). */
  from: number;
  to: number;
  /** Every hour from `from` to `to`, oldest first. */
  hours: ReportHour[];
  totals: Record<TrafficKind, KindTotals>;
  /** When and from where the key was last accepted; null when never (or not yet recorded). */
  lastUse: KeyUse | null;
}

const noRefusals = (): Record<RefusalReason, number> => ({ limit: 0, origin: 0, ip: 0, inactive: 0 });

export async function usageReport(store: Store, key: { id: string; accountId: string }, { now, days = DEFAULT_USAGE_DAYS }: { now: number; days?: number }): Promise<UsageReport> {
  const to = (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
  const from = to - Math.min(Math.max(1, Math.floor(days)), MAX_USAGE_DAYS) * DAY_MS;
  const [stored, uses] = await Promise.all([store.usage.usageOf(key.id, from), store.panel.keyUses(key.accountId)]);
  const hours: ReportHour[] = [];
  for (let hour = from; hour < to; hour += HOUR_MS) hours.push({ hour, server: 0, embed: 0, refused: 0 });
  const totals: Record<TrafficKind, KindTotals> = { server: { used: 0, refused: noRefusals() }, embed: { used: 0, refused: noRefusals() } };
  for (const row of stored) {
    const entry = hours[(row.hour - from) / HOUR_MS];
    if (entry === undefined) continue;
    entry[row.kind] += row.used;
    totals[row.kind].used += row.used;
    for (const reason of REFUSAL_REASONS) {
      entry.refused += row.refused[reason];
      totals[row.kind].refused[reason] += row.refused[reason];
    }
  }
  return { keyId: key.id, from, to, hours, totals, lastUse: uses.find((use) => use.keyId === key.id) ?? null };
}
