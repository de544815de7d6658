/** The in-memory adapter against the store conformance suites, plus what is its own: copies, capacity, closing. */
import { describe, expect, it } from 'vitest';
import { auditStoreConformance } from '../../../test/conformance/audit-store.ts';
import { boundsConformance } from '../../../test/conformance/bounds.ts';
import { panelStoreConformance } from '../../../test/conformance/panel-store.ts';
import { heldInvitationsConformance } from '../../../test/conformance/held-invitations.ts';
import { storeConformance, type OpenedStore } from '../../../test/conformance/store.ts';
import { usageStoreConformance } from '../../../test/conformance/usage-store.ts';
import { MemoryDatabase, MemoryStore } from './memory.ts';
import { StoreUnavailable } from '../store.ts';

const open = async (): Promise<OpenedStore> => {
  const db = new MemoryDatabase();
  const room = db.capacity;
  return {
    store: new MemoryStore(db),
    second: new MemoryStore(db),
    settle: () => {},
    fill: { begin: () => void (db.capacity = db.used), end: () => void (db.capacity = room) },
  };
};
storeConformance('memory', open);
panelStoreConformance('memory', open);
heldInvitationsConformance('memory', open);
usageStoreConformance('memory', open);
boundsConformance('memory', open);
// No SQL to change an entry behind the port's back: the port itself has no way to.
auditStoreConformance('memory', open, { sql: false });

describe('memory store', () => {
  const T0 = Date.UTC(2030, 0, 1);
  const spot = (accountId: string, code: string) => ({ accountId, mode: 'live' as const, code, latitude: 1, longitude: 2, address: null, label: null, createdAt: T0 });

  it('gives copies: changing what it returned changes nothing it keeps', async () => {
    const store = new MemoryStore();
    const acme = await store.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    acme.partner = false;
    const key = await store.createKey({
      accountId: acme.id, mode: 'live', hash: 'h', label: null, origins: ['https://a.example'], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null,
      sessionLimit: null, createdAt: T0,
    });
    key.origins.push('https://evil.example');
    const saved = await store.saveLocation(spot(acme.id, 'FR-0RMB-CLY0'));
    saved.location.label = 'changed';
    expect((await store.findAccount('acme'))?.partner).toBe(true);
    expect((await store.getKey(key.id))?.origins).toEqual(['https://a.example']);
    expect((await store.findLocation(acme.id, 'live', 'FR-0RMB-CLY0'))?.label).toBeNull();
  });

  it('holds at most its capacity, refusing writes as a full disk does, and frees what expired sessions held', async () => {
    const db = new MemoryDatabase(4_000);
    const store = new MemoryStore(db);
    const acme = await store.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    const key = await store.createKey({
      accountId: acme.id, mode: 'live', hash: 'h', label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null, createdAt: T0,
    });
    let saved = 0;
    const refusal = await (async () => {
      for (;; saved++) await store.saveLocation(spot(acme.id, `FR-0000-${String(saved).padStart(4, '0')}`));
    })().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect(refusal).toMatchObject({ reason: 'full', message: 'the in-memory store holds its limit of 4000 bytes' });
    expect(saved).toBeGreaterThan(10);
    expect(db.used).toBeLessThanOrEqual(4_000);
    expect(await store.findLocation(acme.id, 'live', 'FR-0000-0000')).not.toBeNull();
    // A session does not fit; once an expired one is forgotten, its room is free again.
    db.capacity = db.used + 300;
    await store.createSession({ sid: 's1', secretHash: 'x', keyId: key.id, origin: 'https://a.example', createdAt: T0, expiresAt: T0 + 1 });
    await expect(store.createSession({ sid: 's2', secretHash: 'x', keyId: key.id, origin: 'https://a.example', createdAt: T0, expiresAt: T0 + 9 })).rejects.toMatchObject({ reason: 'full' });
    expect(await store.deleteSessionsExpiredBefore(T0 + 5)).toBe(1);
    await store.createSession({ sid: 's2', secretHash: 'x', keyId: key.id, origin: 'https://a.example', createdAt: T0, expiresAt: T0 + 9 });
    expect(await store.getSession('s2')).toMatchObject({ accountId: acme.id, keyActive: true });
  });

  it('keeps a usage batch or an audit entry whole or not at all when the store is full', async () => {
    const db = new MemoryDatabase();
    const store = new MemoryStore(db);
    const acme = await store.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    const hour = (keyId: string, used: number) => ({ keyId, kind: 'server' as const, hour: T0, used, refused: { limit: 0, origin: 0, ip: 0, inactive: 0 } });
    await store.usage.addUsage([hour('key_a', 1)]);
    // Room for one more row, not for two: the batch's first row must not stay behind.
    db.capacity = db.used + 200;
    await expect(store.usage.addUsage([hour('key_a', 1), hour('key_b', 1), hour('key_c', 1)])).rejects.toMatchObject({ reason: 'full' });
    expect(await store.usage.usageOf('key_a', T0)).toEqual([hour('key_a', 1)]);
    expect(await store.usage.usageOf('key_b', T0)).toEqual([]);
    db.capacity = db.used;
    const entry = { at: T0, accountId: acme.id, via: 'cli' as const, actor: 'root', source: 'ops-1', action: 'account.create', target: 'acme', details: {} };
    await expect(store.audit.appendAudit(entry)).rejects.toMatchObject({ reason: 'full' });
    expect(await store.audit.listAudit({ accountId: null, limit: 10 })).toEqual([]);
    db.capacity += 1_000;
    expect((await store.audit.appendAudit(entry)).seq).toBe(1);
  });

  it('serves nothing once closed, while another store on the same database goes on', async () => {
    const db = new MemoryDatabase();
    const store = new MemoryStore(db);
    const other = new MemoryStore(db);
    await store.createAccount({ name: 'acme', partner: true, createdAt: T0 });
    await store.close();
    await expect(store.ping()).rejects.toMatchObject({ name: 'StoreUnavailable', reason: 'cannot-open' });
    await expect(store.findAccount('acme')).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.panel.listUsers('acct_x')).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.usage.usageOf('key_x', 0)).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.audit.listAudit({ accountId: null, limit: 1 })).rejects.toBeInstanceOf(StoreUnavailable);
    expect((await other.findAccount('acme'))?.name).toBe('acme');
  });
});
