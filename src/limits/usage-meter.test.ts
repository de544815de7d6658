/**
 * The usage meter on a real SQLite store: tallies stay in memory until a batch, batches add up, a
 * batch the store refused is added with the next one, closing adds what is left, a batch is made every
 * interval configured, and hours past the retention are deleted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/sqlite.ts';
import type { Store } from '../store/store.ts';
import type { UsageHour } from '../store/usage-store.ts';
import { HOUR_MS } from '../durations.ts';
import { usageMeter } from './usage-meter.ts';
import { USAGE_KEPT_MS } from './usage-report.ts';

const T0 = Date.UTC(2030, 0, 1, 10, 30);
const none = { limit: 0, origin: 0, ip: 0, inactive: 0 };
const hourOf = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;

describe('usage meter', () => {
  let dataDir: string;
  let store: Store;
  let now = T0;
  const errors: unknown[] = [];
  // An hour between batches of the timer: these tests make theirs (flush) but one.
  const meterOn = (on: Store, flushEveryMs = HOUR_MS) => usageMeter(on, { now: () => now, onError: (error) => errors.push(error), flushEveryMs });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'loc-usage-'));
    store = openSqliteStore(dataDir);
    now = T0;
    errors.length = 0;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('tallies by key, kind and clock hour, writes nothing until a batch, and adds batches up', async () => {
    const meter = meterOn(store);
    meter.counted('key_a', 'server', T0);
    meter.counted('key_a', 'server', T0 + 1000);
    meter.counted('key_a', 'embed', T0);
    meter.refused('key_a', 'embed', 'origin', T0);
    meter.refused('key_a', 'server', 'limit', T0 + HOUR_MS);
    meter.counted('key_b', 'server', T0);
    expect(await store.usage.usageOf('key_a', 0)).toEqual([]);
    await meter.flush();
    meter.counted('key_a', 'server', T0);
    meter.refused('key_a', 'server', 'inactive', T0);
    await meter.close();
    expect(await store.usage.usageOf('key_a', 0)).toEqual([
      { keyId: 'key_a', kind: 'server', hour: hourOf(T0), used: 3, refused: { ...none, inactive: 1 } },
      { keyId: 'key_a', kind: 'embed', hour: hourOf(T0), used: 1, refused: { ...none, origin: 1 } },
      { keyId: 'key_a', kind: 'server', hour: hourOf(T0) + HOUR_MS, used: 0, refused: { ...none, limit: 1 } },
    ]);
    expect(await store.usage.usageOf('key_b', 0)).toEqual([{ keyId: 'key_b', kind: 'server', hour: hourOf(T0), used: 1, refused: none }]);
    expect(errors).toEqual([]);
  });

  it('keeps a batch the store refused and adds it with the next one, once', async () => {
    let failures = 1;
    const flaky: Store = Object.create(store, {
      usage: {
        value: {
          ...store.usage,
          addUsage: (hours: readonly UsageHour[]) => (failures-- > 0 ? Promise.reject(new Error('database is locked')) : store.usage.addUsage(hours)),
          usageOf: store.usage.usageOf.bind(store.usage),
          usageOfKeys: store.usage.usageOfKeys.bind(store.usage),
          deleteUsageBefore: store.usage.deleteUsageBefore.bind(store.usage),
        },
      },
    });
    const meter = meterOn(flaky);
    meter.counted('key_a', 'server', T0);
    await meter.flush();
    expect(errors).toEqual([new Error('database is locked')]);
    expect(await store.usage.usageOf('key_a', 0)).toEqual([]);
    meter.counted('key_a', 'server', T0);
    await meter.close();
    expect(await store.usage.usageOf('key_a', 0)).toEqual([{ keyId: 'key_a', kind: 'server', hour: hourOf(T0), used: 2, refused: none }]);
  });

  it('adds the tallies to the store by itself every flushEveryMs', async () => {
    const meter = meterOn(store, 100);
    meter.counted('key_a', 'server', T0);
    await expect.poll(() => store.usage.usageOf('key_a', 0), { interval: 20, timeout: 5_000 }).toEqual([{ keyId: 'key_a', kind: 'server', hour: hourOf(T0), used: 1, refused: none }]);
    await meter.close();
    expect(errors).toEqual([]);
  });

  it('deletes the hours older than the retention, at start and when swept', async () => {
    const old = hourOf(T0 - USAGE_KEPT_MS) - HOUR_MS;
    const kept = hourOf(T0 - USAGE_KEPT_MS) + HOUR_MS;
    await store.usage.addUsage([old, kept].map((hour) => ({ keyId: 'key_a', kind: 'server' as const, hour, used: 1, refused: none })));
    const meter = meterOn(store);
    await meter.sweep();
    expect((await store.usage.usageOf('key_a', 0)).map((row) => row.hour)).toEqual([kept]);
    now = kept + USAGE_KEPT_MS + HOUR_MS;
    await meter.sweep();
    expect(await store.usage.usageOf('key_a', 0)).toEqual([]);
    await meter.close();
  });
});
