/** The request cache in front of a store: conformance, and how long another process's change takes to show. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashSecret, newApiKey } from '../auth/secrets.ts';
import { cachedStore } from './cached.ts';
import Database from 'better-sqlite3';
import { auditStoreConformance } from '../../test/conformance/audit-store.ts';
import { boundsConformance } from '../../test/conformance/bounds.ts';
import { panelStoreConformance } from '../../test/conformance/panel-store.ts';
import { storeConformance, type OpenedStore } from '../../test/conformance/store.ts';
import { usageStoreConformance } from '../../test/conformance/usage-store.ts';
import { DATABASE_FILE } from './sqlite/sqlite-files.ts';
import { openSqliteStore } from './sqlite/sqlite.ts';
import { sqliteFill } from '../../test/support/sqlite-fill.ts';
import type { Store } from './store.ts';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'loc-cache-'));

/** A cached SQLite store whose saves reaching SQLite are counted; `done` closes and removes it. */
function countingSaves(): { store: Store; writes: () => number; done: () => Promise<void> } {
  const dir = tempDir();
  const inner = openSqliteStore(dir);
  let writes = 0;
  const write = inner.saveLocation.bind(inner);
  inner.saveLocation = (input) => (writes++, write(input));
  const store = cachedStore(inner, { now: () => 0 });
  return {
    store,
    writes: () => writes,
    done: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const open = async (): Promise<OpenedStore> => {
  const dir = tempDir();
  const inner = openSqliteStore(dir);
  let now = 0;
  const ttlMs = 1000;
  return {
    store: cachedStore(inner, { now: () => now, ttlMs }),
    second: openSqliteStore(dir),
    // What another store wrote shows once the reads kept here have expired.
    settle: () => void (now += ttlMs),
    fill: sqliteFill(inner),
    sql: async (text) => {
      const db = new Database(join(dir, DATABASE_FILE));
      try {
        db.exec(text);
      } finally {
        db.close();
      }
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
};
storeConformance('sqlite behind the request cache', open);
// The cache passes the panel through: what the panel reads must count at once (cached.ts).
panelStoreConformance('sqlite behind the request cache', open);
// Usage and the audit log pass through uncached too: a report, or the entry of a change just made, must show at once.
usageStoreConformance('sqlite behind the request cache', open);
boundsConformance('sqlite behind the request cache', open);
auditStoreConformance('sqlite behind the request cache', open);

describe('cachedStore', () => {
  it("sees another connection's key change once the entry is ttlMs old", async () => {
    const dir = tempDir();
    let now = 0;
    const cli = openSqliteStore(dir);
    const server = cachedStore(openSqliteStore(dir), { now: () => now, ttlMs: 1000 });
    const account = await cli.createAccount({ name: 'acme', partner: true, createdAt: 0 });
    const hash = hashSecret(newApiKey());
    const key = await cli.createKey({ accountId: account.id, mode: 'live', hash, label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null, createdAt: 0 });
    expect((await server.findKeyByHash(hash))?.key.status).toBe('active');
    await cli.setKeyStatus(key.id, 'disabled');
    now = 999;
    expect((await server.findKeyByHash(hash))?.key.status).toBe('active');
    now = 1000;
    expect((await server.findKeyByHash(hash))?.key.status).toBe('disabled');
    await Promise.all([cli.close(), server.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('remembers unknown keys only as long as known ones', async () => {
    const dir = tempDir();
    let now = 0;
    const cli = openSqliteStore(dir);
    const server = cachedStore(openSqliteStore(dir), { now: () => now, ttlMs: 1000 });
    const hash = hashSecret(newApiKey());
    expect(await server.findKeyByHash(hash)).toBeNull();
    const account = await cli.createAccount({ name: 'acme', partner: true, createdAt: 0 });
    await cli.createKey({ accountId: account.id, mode: 'live', hash, label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null, createdAt: 0 });
    now = 1000;
    expect(await server.findKeyByHash(hash)).not.toBeNull();
    await Promise.all([cli.close(), server.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a repeated save of a cell from memory, unchanged, without writing', async () => {
    const { store, writes, done } = countingSaves();
    const [acme, beta] = await Promise.all(['acme', 'beta'].map((name) => store.createAccount({ name, partner: false, createdAt: 0 })));
    const first = { accountId: acme.id, mode: 'live' as const, code: 'FR-0RMB-CLY0', latitude: 48.86, longitude: 2.29, address: 'one', label: 'first', createdAt: 1 };
    expect(await store.saveLocation(first)).toEqual({ location: first, created: true });
    const again = await store.saveLocation({ ...first, label: 'second', createdAt: 2 });
    expect(again).toEqual({ location: first, created: false });
    expect(writes()).toBe(1);
    // Another account's save of the same cell is its own.
    expect((await store.saveLocation({ ...first, accountId: beta.id })).created).toBe(true);
    expect(writes()).toBe(2);
    await done();
  });

  it('writes a repeated save that fills in what the cached location lacks, and caches the result', async () => {
    const { store, writes, done } = countingSaves();
    const acme = await store.createAccount({ name: 'acme', partner: true, createdAt: 0 });
    const bare = { accountId: acme.id, mode: 'live' as const, code: 'FR-0RMB-CLY0', latitude: 48.86, longitude: 2.29, address: null, label: null, createdAt: 1 };
    await store.saveLocation(bare);
    const labelled = await store.saveLocation({ ...bare, label: 'Gate 3', createdAt: 2 });
    expect(labelled).toEqual({ location: { ...bare, label: 'Gate 3' }, created: false });
    expect(writes()).toBe(2);
    expect(await store.findLocation(acme.id, 'live', bare.code)).toEqual({ ...bare, label: 'Gate 3' });
    // The label is there now: another one adds nothing, and needs no write.
    await store.saveLocation({ ...bare, label: 'Gate 4', createdAt: 3 });
    expect(writes()).toBe(2);
    await done();
  });

  it('keeps at most maxEntries', async () => {
    const dir = tempDir();
    const inner = openSqliteStore(dir);
    let reads = 0;
    const read = inner.findLocation.bind(inner);
    inner.findLocation = (accountId, mode, code) => (reads++, read(accountId, mode, code));
    const store = cachedStore(inner, { now: () => 0, maxEntries: 2 });
    const acme = await inner.createAccount({ name: 'acme', partner: true, createdAt: 0 });
    await inner.saveLocation({ accountId: acme.id, mode: 'live', code: 'Z', latitude: 0, longitude: 0, address: null, label: null, createdAt: 0 });
    for (const code of ['A', 'B', 'C', 'A']) await store.findLocation(acme.id, 'live', code);
    expect(reads).toBe(4);
    await store.findLocation(acme.id, 'live', 'A');
    expect(reads).toBe(4);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every code of an account that saved no location without reading codes, and sees a save at once here, after ttlMs from elsewhere', async () => {
    const dir = tempDir();
    const inner = openSqliteStore(dir);
    const other = openSqliteStore(dir);
    const reads = { codes: 0, accounts: 0 };
    const [findLocation, hasLocations] = [inner.findLocation.bind(inner), inner.hasLocations.bind(inner)];
    inner.findLocation = (...args) => (reads.codes++, findLocation(...args));
    inner.hasLocations = (...args) => (reads.accounts++, hasLocations(...args));
    let now = 0;
    const store = cachedStore(inner, { now: () => now, ttlMs: 1000 });
    const [acme, beta] = [await store.createAccount({ name: 'acme', partner: true, createdAt: 0 }), await store.createAccount({ name: 'beta', partner: true, createdAt: 0 })];
    const spot = (accountId: string, code: string) => ({ accountId, mode: 'live' as const, code, latitude: 1, longitude: 2, address: null, label: code, createdAt: 0 });
    // Sixteen codes at once, of an account that saved none: one read of the account, shared.
    const codes = Array.from({ length: 16 }, (_, i) => `FR-0000-${String(i).padStart(4, '0')}`);
    expect(await Promise.all(codes.map((code) => store.findLocation(acme.id, 'live', code)))).toEqual(codes.map(() => null));
    expect(reads).toEqual({ codes: 0, accounts: 1 });
    // A save through this store shows at once; the account's other codes are read one by one from then.
    await store.saveLocation(spot(acme.id, codes[4]));
    expect(await store.findLocation(acme.id, 'live', codes[4])).toEqual(spot(acme.id, codes[4]));
    expect(await store.findLocation(acme.id, 'live', 'FR-0000-9999')).toBeNull();
    expect(reads.codes).toBe(1);
    // Another process's save shows once what this one read of the account has expired.
    expect(await store.findLocation(beta.id, 'live', codes[1])).toBeNull();
    await other.saveLocation(spot(beta.id, codes[0]));
    expect(await store.findLocation(beta.id, 'live', codes[0])).toBeNull();
    now += 1000;
    expect(await store.findLocation(beta.id, 'live', codes[0])).toEqual(spot(beta.id, codes[0]));
    await Promise.all([store.close(), other.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('caches nothing from a read under way when a write empties the cache', async () => {
    const dir = tempDir();
    const inner = openSqliteStore(dir);
    const store = cachedStore(inner, { now: () => 0, ttlMs: 1000 });
    const acme = await store.createAccount({ name: 'acme', partner: true, createdAt: 0 });
    const key = await store.createKey({ accountId: acme.id, mode: 'live', hash: 'h'.repeat(64), label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null, createdAt: 0 });
    // A slow read: what it read is answered after the write below has emptied the cache.
    const read = inner.getKey.bind(inner);
    inner.getKey = async (id) => {
      const found = await read(id);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return found;
    };
    const reading = store.getKey(key.id);
    await store.setKeyStatus(key.id, 'disabled');
    expect((await reading)?.status).toBe('active');
    expect((await store.getKey(key.id))?.status).toBe('disabled');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
