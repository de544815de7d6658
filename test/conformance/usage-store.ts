/**
 * The usage store's conformance suite: what every adapter of `Store.usage` (src/store/usage-store.ts)
 * must do, written once, run as the store suite is (`usageStoreConformance('name', open)`, with the
 * same `open`). Rows a test only needs to exist are written through the second store, so that the
 * store under test reads them from the database; concurrent batches run on both stores at once, as
 * two processes' meters.
 */
import { describe, expect, it } from 'vitest';
import type { RefusalReason, TrafficKind, UsageHour } from '../../src/store/usage-store.ts';
import { openedPerTest, type OpenedStore } from './opened.ts';

const HOUR = 3_600_000;
const H0 = Date.UTC(2030, 0, 1);

/** An hour of `keyId`'s traffic: `used`, and the refusals given (the others 0). */
const hourOf = (keyId: string, kind: TrafficKind, hour: number, used: number, refused: Partial<Record<RefusalReason, number>> = {}): UsageHour => ({
  keyId, kind, hour, used, refused: { limit: 0, origin: 0, ip: 0, inactive: 0, ...refused },
});

export function usageStoreConformance(adapter: string, open: () => Promise<OpenedStore>): void {
  describe(`usage store conformance: ${adapter}`, () => {
    const opened = openedPerTest(open);

    it('keeps the hours given, and makes no row for an hour not given', async () => {
      await opened.store.usage.addUsage([hourOf('key_a', 'server', H0, 3, { limit: 1, origin: 2, ip: 4, inactive: 5 }), hourOf('key_a', 'embed', H0 + 2 * HOUR, 7)]);
      expect(await opened.second.usage.usageOf('key_a', 0)).toEqual([
        hourOf('key_a', 'server', H0, 3, { limit: 1, origin: 2, ip: 4, inactive: 5 }),
        hourOf('key_a', 'embed', H0 + 2 * HOUR, 7),
      ]);
      expect(await opened.store.usage.usageOf('key_unknown', 0)).toEqual([]);
    });

    it('adds each batch to the stored counts, and rows of one hour in the same batch together', async () => {
      await opened.second.usage.addUsage([hourOf('key_a', 'server', H0, 10, { limit: 1 })]);
      await opened.store.usage.addUsage([
        hourOf('key_a', 'server', H0, 5, { origin: 2 }),
        hourOf('key_a', 'server', H0, 1, { limit: 3, inactive: 1 }),
        hourOf('key_a', 'server', H0 + HOUR, 4),
      ]);
      await opened.store.usage.addUsage([hourOf('key_a', 'server', H0, 0, { ip: 6 })]);
      expect(await opened.second.usage.usageOf('key_a', H0)).toEqual([
        hourOf('key_a', 'server', H0, 16, { limit: 4, origin: 2, ip: 6, inactive: 1 }),
        hourOf('key_a', 'server', H0 + HOUR, 4),
      ]);
    });

    it('keeps kinds and keys apart', async () => {
      await opened.store.usage.addUsage([hourOf('key_a', 'server', H0, 1), hourOf('key_a', 'embed', H0, 2), hourOf('key_b', 'server', H0, 4, { ip: 1 })]);
      await opened.store.usage.addUsage([hourOf('key_a', 'embed', H0, 8)]);
      expect(await opened.second.usage.usageOf('key_a', H0)).toEqual([hourOf('key_a', 'server', H0, 1), hourOf('key_a', 'embed', H0, 10)]);
      expect(await opened.second.usage.usageOf('key_b', H0)).toEqual([hourOf('key_b', 'server', H0, 4, { ip: 1 })]);
    });

    it('gives the hours that began at or after `since`, oldest first, server before embed within an hour', async () => {
      await opened.second.usage.addUsage([
        hourOf('key_a', 'embed', H0 + 2 * HOUR, 6), hourOf('key_a', 'server', H0 + 2 * HOUR, 5), hourOf('key_a', 'embed', H0, 2),
        hourOf('key_a', 'server', H0 + HOUR, 3), hourOf('key_a', 'embed', H0 + HOUR, 4), hourOf('key_a', 'server', H0 - HOUR, 1),
      ]);
      const hours = (rows: UsageHour[]) => rows.map((row) => [(row.hour - H0) / HOUR, row.kind, row.used]);
      expect(hours(await opened.store.usage.usageOf('key_a', H0))).toEqual([[0, 'embed', 2], [1, 'server', 3], [1, 'embed', 4], [2, 'server', 5], [2, 'embed', 6]]);
      expect(hours(await opened.store.usage.usageOf('key_a', H0 + HOUR))).toEqual([[1, 'server', 3], [1, 'embed', 4], [2, 'server', 5], [2, 'embed', 6]]);
      expect(hours(await opened.store.usage.usageOf('key_a', H0 + HOUR + 1))).toEqual([[2, 'server', 5], [2, 'embed', 6]]);
      expect(await opened.store.usage.usageOf('key_a', H0 + 3 * HOUR)).toEqual([]);
    });

    it('gives the hours of several keys in one read, key by key, none of a key not asked for', async () => {
      await opened.second.usage.addUsage([
        hourOf('key_b', 'embed', H0, 4), hourOf('key_a', 'server', H0 + HOUR, 3), hourOf('key_c', 'server', H0, 9),
        hourOf('key_b', 'server', H0, 2, { origin: 1 }), hourOf('key_a', 'server', H0 - HOUR, 1), hourOf('key_B', 'server', H0, 5),
      ]);
      const rows = (keyIds: string[], since: number) => opened.store.usage.usageOfKeys(keyIds, since);
      expect(await rows(['key_b', 'key_a', 'key_B', 'key_none'], H0)).toEqual([
        hourOf('key_B', 'server', H0, 5), hourOf('key_a', 'server', H0 + HOUR, 3), hourOf('key_b', 'server', H0, 2, { origin: 1 }), hourOf('key_b', 'embed', H0, 4),
      ]);
      expect(await rows(['key_a'], 0)).toEqual(await opened.store.usage.usageOf('key_a', 0));
      expect(await rows([], 0)).toEqual([]);
      expect(await rows(['key\0a', "key_a' OR '1'='1"], 0)).toEqual([]);
    });

    it('forgets the hours that began before the retention, says how many, and keeps the rest', async () => {
      await opened.second.usage.addUsage([
        hourOf('key_a', 'server', H0, 1), hourOf('key_a', 'embed', H0, 2), hourOf('key_b', 'server', H0 + HOUR, 3), hourOf('key_a', 'server', H0 + 2 * HOUR, 4),
      ]);
      expect(await opened.store.usage.deleteUsageBefore(H0)).toBe(0);
      expect(await opened.store.usage.deleteUsageBefore(H0 + 2 * HOUR)).toBe(3);
      expect(await opened.second.usage.usageOf('key_a', 0)).toEqual([hourOf('key_a', 'server', H0 + 2 * HOUR, 4)]);
      expect(await opened.second.usage.usageOf('key_b', 0)).toEqual([]);
      expect(await opened.store.usage.deleteUsageBefore(H0 + 2 * HOUR)).toBe(0);
      // Once forgotten, an hour counts from nothing again.
      await opened.store.usage.addUsage([hourOf('key_a', 'server', H0, 7)]);
      expect(await opened.second.usage.usageOf('key_a', 0)).toEqual([hourOf('key_a', 'server', H0, 7), hourOf('key_a', 'server', H0 + 2 * HOUR, 4)]);
    });

    it('adds up batches both stores send at once, sharing rows, losing none', async () => {
      const keys = ['key_a', 'key_b', 'key_c'];
      // Each batch holds every key and kind of two hours, in its own order: the stores' rows overlap crosswise.
      const batches = Array.from({ length: 20 }, (_, i) => {
        const rows = keys.flatMap((keyId) => (['server', 'embed'] as const).flatMap((kind) =>
          [H0, H0 + HOUR].map((hour) => hourOf(keyId, kind, hour, 1, { limit: i % 2, origin: 1 }))));
        return i % 2 === 0 ? rows : rows.reverse();
      });
      await Promise.all(batches.map((batch, i) => (i % 2 === 0 ? opened.store : opened.second).usage.addUsage(batch)));
      for (const keyId of keys) {
        expect(await opened.store.usage.usageOf(keyId, H0)).toEqual([H0, H0 + HOUR].flatMap((hour) =>
          (['server', 'embed'] as const).map((kind) => hourOf(keyId, kind, hour, 20, { limit: 10, origin: 20 }))));
      }
    });

    it('refuses a batch with an hour off the clock hour or a count below 0, writing none of it', async () => {
      await expect(opened.store.usage.addUsage([hourOf('key_a', 'server', H0, 1), hourOf('key_a', 'server', H0 + 1, 1)])).rejects.toBeInstanceOf(RangeError);
      await expect(opened.store.usage.addUsage([hourOf('key_a', 'server', H0, 1), hourOf('key_a', 'embed', H0, 1, { ip: -1 })])).rejects.toBeInstanceOf(RangeError);
      await expect(opened.store.usage.addUsage([hourOf('key_a', 'server', H0, 1.5)])).rejects.toBeInstanceOf(RangeError);
      expect(await opened.second.usage.usageOf('key_a', 0)).toEqual([]);
      await opened.store.usage.addUsage([]);
      expect(await opened.second.usage.usageOf('key_a', 0)).toEqual([]);
    });

    it('gives copies: changing what it returned or was given changes nothing stored', async () => {
      const given = hourOf('key_a', 'server', H0, 1, { limit: 1 });
      await opened.store.usage.addUsage([given]);
      given.used = 99;
      given.refused.limit = 99;
      const [read] = await opened.store.usage.usageOf('key_a', H0);
      read.refused.origin = 42;
      expect(await opened.store.usage.usageOf('key_a', H0)).toEqual([hourOf('key_a', 'server', H0, 1, { limit: 1 })]);
    });
  });
}
