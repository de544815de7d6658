/**
 * The store conformance suite: what every adapter of the store port must do, written once. An
 * adapter's test file calls `storeConformance('name', open)`; `open` gives a fresh, empty database
 * with the store under test on it and a second store on the same database, as another process (the
 * operator CLI, another server) would hold. What a test only needs to exist is written through the
 * second store, so the store under test reads it from the database rather than recalling its own
 * writes; and the second store is how the suite checks that two of them agree.
 */
import { describe, expect, it } from 'vitest';
import { hashSecret, newApiKey, newSessionToken } from '../../src/auth/secrets.ts';
import { StoreConflict, StoreUnavailable, type Account, type NewKey, type SavedLocation } from '../../src/store/store.ts';
import { openedPerTest, type OpenedStore } from './opened.ts';

// What an adapter's `open` gives, named where its test file finds the suite.
export type { OpenedStore } from './opened.ts';

const T0 = Date.UTC(2030, 0, 1);

export function storeConformance(adapter: string, open: () => Promise<OpenedStore>): void {
  describe(`store conformance: ${adapter}`, () => {
    const opened = openedPerTest(open);

    const newKey = (accountId: string, extra: Partial<NewKey> = {}): NewKey => ({
      accountId, mode: 'live', hash: hashSecret(newApiKey()), label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null,
      sessionLimit: null, createdAt: T0, ...extra,
    });
    /** A partner account, seeded through the second store. */
    const partner = (name = 'acme'): Promise<Account> => opened.second.createAccount({ name, partner: true, createdAt: T0 });
    /** A key of `accountId`, seeded through the second store. */
    const seededKey = (accountId: string) => opened.second.createKey(newKey(accountId));
    const spotOf = (accountId: string, code = 'FR-0RMB-CLY0', extra: Partial<SavedLocation> = {}): SavedLocation => ({
      accountId, mode: 'live', code, latitude: 48.8584, longitude: 2.2945, address: null, label: null, createdAt: T0, ...extra,
    });

    it('creates, finds and lists accounts', async () => {
      const acme = await opened.store.createAccount({ name: 'acme', partner: true, createdAt: T0 });
      expect(acme).toMatchObject({ name: 'acme', partner: true, createdAt: T0 });
      expect(acme.id).toMatch(/^acct_/);
      await opened.store.createAccount({ name: 'beta', partner: false, createdAt: T0 + 1 });
      expect(await opened.store.findAccount('acme')).toEqual(acme);
      expect(await opened.store.getAccount(acme.id)).toEqual(acme);
      expect(await opened.store.findAccount('nobody')).toBeNull();
      expect((await opened.store.listAccounts()).map((a) => a.name)).toEqual(['acme', 'beta']);
    });

    it('refuses a second account with the same name, also one another store made', async () => {
      await partner();
      await expect(opened.store.createAccount({ name: 'acme', partner: false, createdAt: T0 })).rejects.toBeInstanceOf(StoreConflict);
    });

    it('switches the partner flag, giving the account before and after', async () => {
      const acme = await partner();
      expect(await opened.store.setPartner('acme', false)).toEqual({ before: acme, after: { ...acme, partner: false } });
      expect((await opened.store.findAccount('acme'))?.partner).toBe(false);
      await opened.second.setPartner('acme', true);
      expect(await opened.store.setPartner('acme', true)).toEqual({ before: acme, after: acme });
      expect(await opened.store.setPartner('nobody', true)).toBeNull();
    });

    it('creates keys, finds them by hash with their account, never by anything else', async () => {
      const acme = await partner();
      const input = newKey(acme.id, {
        label: 'shop', origins: ['https://shop.example'], ipRanges: ['10.0.0.0/8'], hourlyLimit: 50, embedHourlyLimit: 700, sessionLimit: 20,
      });
      const key = await opened.store.createKey(input);
      expect(key).toMatchObject({
        accountId: acme.id, label: 'shop', status: 'active', origins: ['https://shop.example'], ipRanges: ['10.0.0.0/8'], hourlyLimit: 50,
        embedHourlyLimit: 700, sessionLimit: 20,
      });
      expect(key.id).toMatch(/^key_/);
      expect(JSON.stringify(key)).not.toContain(input.hash);
      expect(await opened.store.findKeyByHash(input.hash)).toEqual({ key, account: acme });
      expect(await opened.store.findKeyByHash(hashSecret('loc_other'))).toBeNull();
      expect(await opened.store.getKey(key.id)).toEqual(key);
      expect(await opened.store.listKeys(acme.id)).toEqual([key]);
    });

    it('disables and enables a key, and a disabled key is still found (to answer key_inactive)', async () => {
      const acme = await partner();
      const input = newKey(acme.id);
      const key = await opened.second.createKey(input);
      const disabled = { ...key, status: 'disabled' };
      expect(await opened.store.setKeyStatus(key.id, 'disabled')).toEqual({ before: key, after: disabled });
      expect((await opened.store.findKeyByHash(input.hash))?.key.status).toBe('disabled');
      expect(await opened.store.setKeyStatus(key.id, 'active')).toEqual({ before: disabled, after: key });
      // Before is what the write found, whoever wrote last: here the other store.
      await opened.second.setKeyStatus(key.id, 'disabled');
      expect(await opened.store.setKeyStatus(key.id, 'disabled')).toEqual({ before: disabled, after: disabled });
      expect(await opened.store.setKeyStatus('key_missing', 'active')).toBeNull();
    });

    it("sets a key's own limits, each apart, and gives them back to the defaults", async () => {
      const acme = await partner();
      const input = newKey(acme.id);
      const key = await opened.second.createKey(input);
      expect(await opened.store.setKeyLimits(key.id, { hourlyLimit: 5000 })).toEqual({ before: key, after: { ...key, hourlyLimit: 5000 } });
      expect((await opened.store.findKeyByHash(input.hash))?.key.hourlyLimit).toBe(5000);
      expect((await opened.store.setKeyLimits(key.id, { embedHourlyLimit: 90, sessionLimit: 3 }))?.after).toMatchObject({ hourlyLimit: 5000, embedHourlyLimit: 90, sessionLimit: 3 });
      expect(await opened.store.setKeyLimits(key.id, { hourlyLimit: null, sessionLimit: null })).toEqual({
        before: { ...key, hourlyLimit: 5000, embedHourlyLimit: 90, sessionLimit: 3 }, after: { ...key, embedHourlyLimit: 90 },
      });
      expect(await opened.store.getKey(key.id)).toMatchObject({ hourlyLimit: null, embedHourlyLimit: 90, sessionLimit: null });
      expect(await opened.store.setKeyLimits(key.id, {})).toEqual({ before: { ...key, embedHourlyLimit: 90 }, after: { ...key, embedHourlyLimit: 90 } });
      expect(await opened.store.setKeyLimits('key_missing', { hourlyLimit: 10 })).toBeNull();
    });

    it('adds and removes origins and IP ranges without duplicates', async () => {
      const acme = await partner();
      const key = await seededKey(acme.id);
      await opened.store.updateKeyList(key.id, 'origins', { add: 'https://a.example' });
      await opened.store.updateKeyList(key.id, 'origins', { add: 'https://a.example' });
      await opened.store.updateKeyList(key.id, 'origins', { add: 'http://localhost:5173' });
      await opened.store.updateKeyList(key.id, 'ipRanges', { add: '2001:db8::/32' });
      let updated = await opened.store.updateKeyList(key.id, 'origins', { remove: 'https://a.example' });
      expect([updated?.before.origins, updated?.after.origins]).toEqual([['https://a.example', 'http://localhost:5173'], ['http://localhost:5173']]);
      // Removing what the list does not hold changes nothing.
      updated = await opened.store.updateKeyList(key.id, 'ipRanges', { remove: '10.0.0.0/8' });
      expect([updated?.before.ipRanges, updated?.after.ipRanges]).toEqual([['2001:db8::/32'], ['2001:db8::/32']]);
      // A value added by the other store is there before this one's add, which then changes nothing.
      await opened.second.updateKeyList(key.id, 'origins', { add: 'https://b.example' });
      updated = await opened.store.updateKeyList(key.id, 'origins', { add: 'https://b.example' });
      expect(updated?.before).toEqual(updated?.after);
      expect(updated?.after.origins).toEqual(['http://localhost:5173', 'https://b.example']);
      expect(await opened.store.updateKeyList('key_missing', 'origins', { add: 'https://a.example' })).toBeNull();
    });

    it('keeps sessions with their key and account, and reports a disabled key and a former partner', async () => {
      const acme = await partner();
      const key = await seededKey(acme.id);
      const { sid, secret } = newSessionToken();
      await opened.store.createSession({ sid, secretHash: hashSecret(secret), keyId: key.id, origin: 'https://shop.example', createdAt: T0, expiresAt: T0 + 900_000 });
      const session = await opened.store.getSession(sid);
      expect(session).toEqual({
        sid, secretHash: hashSecret(secret), keyId: key.id, accountId: acme.id, origin: 'https://shop.example',
        createdAt: T0, expiresAt: T0 + 900_000, keyActive: true, accountPartner: true, countries: null, bounds: null,
      });
      await opened.store.setKeyStatus(key.id, 'disabled');
      expect((await opened.store.getSession(sid))?.keyActive).toBe(false);
      await opened.store.setPartner(acme.name, false);
      expect((await opened.store.getSession(sid))?.accountPartner).toBe(false);
      expect(await opened.store.getSession('unknown')).toBeNull();
    });

    it('keeps the area of a session, countries and bounds, each or both, as another store reads it; none is null', async () => {
      const acme = await partner();
      const key = await seededKey(acme.id);
      const made = async (area: { countries?: string[] | null; bounds?: { south: number; west: number; north: number; east: number } | null }) => {
        const { sid, secret } = newSessionToken();
        await opened.store.createSession({ sid, secretHash: hashSecret(secret), keyId: key.id, origin: 'https://shop.example', createdAt: T0, expiresAt: T0 + 900_000, ...area });
        opened.settle();
        return sid;
      };
      const across = { south: -20.5, west: 170, north: -10, east: -175.25 };
      const countries = ['FR', 'BE'];
      const both = await made({ countries, bounds: across });
      countries.push('DE');
      expect(await opened.second.getSession(both)).toMatchObject({ countries: ['FR', 'BE'], bounds: across });
      expect(await opened.store.getSession(both)).toMatchObject({ countries: ['FR', 'BE'], bounds: across });
      expect(await opened.second.getSession(await made({ countries: ['US'] }))).toMatchObject({ countries: ['US'], bounds: null });
      expect(await opened.second.getSession(await made({ bounds: across }))).toMatchObject({ countries: null, bounds: across });
      expect(await opened.second.getSession(await made({ countries: null, bounds: null }))).toMatchObject({ countries: null, bounds: null });
    });

    it('forgets expired sessions only', async () => {
      const acme = await partner();
      const key = await seededKey(acme.id);
      const old = newSessionToken();
      const live = newSessionToken();
      await opened.store.createSession({ sid: old.sid, secretHash: hashSecret(old.secret), keyId: key.id, origin: 'https://a.example', createdAt: T0, expiresAt: T0 + 60_000 });
      await opened.store.createSession({ sid: live.sid, secretHash: hashSecret(live.secret), keyId: key.id, origin: 'https://a.example', createdAt: T0, expiresAt: T0 + 3_600_000 });
      expect(await opened.store.deleteSessionsExpiredBefore(T0 + 120_000)).toBe(1);
      expect(await opened.store.getSession(old.sid)).toBeNull();
      expect(await opened.store.getSession(live.sid)).not.toBeNull();
    });

    it('saves a location once per account and code; what a save stored is never changed', async () => {
      const acme = await partner();
      const beta = await partner('beta');
      const spot = { mode: 'live' as const, code: 'US-550M-RQ5L', latitude: 37.8591, longitude: -122.4853, createdAt: T0 };
      const first = await opened.store.saveLocation({ ...spot, accountId: acme.id, address: '1 Bridgeway', label: 'Office' });
      expect(first.created).toBe(true);
      const again = await opened.store.saveLocation({ ...spot, accountId: acme.id, address: null, label: 'Other', createdAt: T0 + 5 });
      expect(again).toEqual({ created: false, location: first.location });
      const bare = await opened.store.saveLocation({ ...spot, accountId: acme.id, address: null, label: null, createdAt: T0 + 6 });
      expect(bare).toEqual({ created: false, location: first.location });
      const theirs = await opened.store.saveLocation({ ...spot, accountId: beta.id, address: null, label: null });
      expect(theirs.created).toBe(true);
      expect(await opened.store.findLocation(acme.id, 'live', spot.code)).toMatchObject({ label: 'Office', address: '1 Bridgeway' });
      expect(await opened.store.findLocation(beta.id, 'live', spot.code)).toMatchObject({ label: null, address: null });
      expect(await opened.store.findLocation(acme.id, 'live', 'US-0000-0000')).toBeNull();
    });

    it('fills in the address or label a location was saved without, one at a time, and keeps its first save', async () => {
      const acme = await partner();
      const spot = { accountId: acme.id, mode: 'live' as const, code: 'FR-0RMB-CLY0', latitude: 48.8584, longitude: 2.2945 };
      const bare = await opened.store.saveLocation({ ...spot, address: null, label: null, createdAt: T0 });
      expect(bare).toMatchObject({ created: true, location: { address: null, label: null, createdAt: T0 } });
      const labelled = await opened.store.saveLocation({ ...spot, address: null, label: 'Gate 3', createdAt: T0 + 1 });
      expect(labelled).toEqual({ created: false, location: { ...spot, address: null, label: 'Gate 3', createdAt: T0 } });
      const addressed = await opened.store.saveLocation({ ...spot, address: 'Champ de Mars', label: 'Gate 4', createdAt: T0 + 2 });
      expect(addressed).toEqual({ created: false, location: { ...spot, address: 'Champ de Mars', label: 'Gate 3', createdAt: T0 } });
      expect(await opened.store.findLocation(acme.id, 'live', spot.code)).toEqual(addressed.location);
    });

    it('keeps a key\'s mode, live or test', async () => {
      const acme = await partner();
      const live = await opened.store.createKey(newKey(acme.id));
      const input = newKey(acme.id, { mode: 'test' });
      const test = await opened.store.createKey(input);
      expect([live.mode, test.mode]).toEqual(['live', 'test']);
      expect((await opened.store.findKeyByHash(input.hash))?.key.mode).toBe('test');
      expect((await opened.second.listKeys(acme.id)).map((key) => key.mode).sort()).toEqual(['live', 'test']);
    });

    it('keeps what test keys save apart from live locations, and wipes only an account\'s test ones', async () => {
      const acme = await partner();
      const beta = await partner('beta');
      await opened.store.saveLocation(spotOf(acme.id, 'FR-0RMB-CLY0', { label: 'live' }));
      const test = await opened.store.saveLocation(spotOf(acme.id, 'FR-0RMB-CLY0', { mode: 'test', label: 'test' }));
      expect(test).toMatchObject({ created: true, location: { mode: 'test', label: 'test' } });
      await opened.store.saveLocation(spotOf(acme.id, 'US-550M-RQ5L', { mode: 'test' }));
      await opened.store.saveLocation(spotOf(beta.id, 'FR-0RMB-CLY0', { mode: 'test', label: 'beta' }));
      expect(await opened.store.findLocation(acme.id, 'live', 'FR-0RMB-CLY0')).toMatchObject({ mode: 'live', label: 'live' });
      expect(await opened.second.findLocation(acme.id, 'test', 'FR-0RMB-CLY0')).toMatchObject({ mode: 'test', label: 'test' });
      expect(await opened.store.findLocation(acme.id, 'live', 'US-550M-RQ5L')).toBeNull();
      expect(await Promise.all([opened.store.hasLocations(acme.id, 'live'), opened.store.hasLocations(acme.id, 'test'), opened.store.hasLocations(beta.id, 'live')])).toEqual([true, true, false]);
      expect(await opened.second.deleteTestLocations(acme.id)).toBe(2);
      opened.settle();
      expect(await opened.store.hasLocations(acme.id, 'test')).toBe(false);
      expect(await opened.store.findLocation(acme.id, 'test', 'FR-0RMB-CLY0')).toBeNull();
      expect(await opened.store.findLocation(acme.id, 'live', 'FR-0RMB-CLY0')).toMatchObject({ label: 'live' });
      expect(await opened.store.findLocation(beta.id, 'test', 'FR-0RMB-CLY0')).toMatchObject({ label: 'beta' });
      expect(await opened.store.deleteTestLocations(acme.id)).toBe(0);
    });

    it('creates exactly one location under 50 concurrent saves', async () => {
      const acme = await partner();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          opened.store.saveLocation({ accountId: acme.id, mode: 'live' as const, code: 'FR-0RMB-CLY0', latitude: 48.8584, longitude: 2.2945, address: null, label: `try ${i}`, createdAt: T0 + i }),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.location.label)).size).toBe(1);
    });

    it('sees what another store on the same database wrote, once settled: a key disabled, a location saved where there was none', async () => {
      const acme = await partner();
      const input = newKey(acme.id);
      const key = await opened.second.createKey(input);
      expect((await opened.store.findKeyByHash(input.hash))?.key.status).toBe('active');
      expect(await opened.store.findLocation(acme.id, 'live', 'FR-0RMB-CLY0')).toBeNull();
      await opened.second.setKeyStatus(key.id, 'disabled');
      await opened.second.saveLocation(spotOf(acme.id, 'FR-0RMB-CLY0', { label: 'Gate 3' }));
      opened.settle();
      expect((await opened.store.findKeyByHash(input.hash))?.key.status).toBe('disabled');
      expect(await opened.store.findLocation(acme.id, 'live', 'FR-0RMB-CLY0')).toMatchObject({ label: 'Gate 3' });
      // And the other way round, without waiting: the second store reads the database.
      await opened.store.saveLocation(spotOf(acme.id, 'US-550M-RQ5L', { address: '1 Bridgeway' }));
      expect(await opened.second.findLocation(acme.id, 'live', 'US-550M-RQ5L')).toMatchObject({ address: '1 Bridgeway' });
    });

    it('creates exactly one location when two stores save it first at the same time', async () => {
      const acme = await partner();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? opened.store : opened.second).saveLocation(spotOf(acme.id, 'FR-0RMB-CLY0', { label: `try ${i}`, createdAt: T0 + i }))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.location.label)).size).toBe(1);
    });

    it('refuses writes with StoreUnavailable while the database is full, keeps reading, loses nothing, and writes again once there is room', async () => {
      const acme = await partner();
      await opened.store.saveLocation(spotOf(acme.id, 'FR-0RMB-CLY0', { label: 'kept' }));
      await opened.fill.begin();
      const refusal = await (async () => {
        for (let i = 0; i < 200; i++) await opened.store.saveLocation(spotOf(acme.id, `FR-0000-${String(i).padStart(4, '0')}`, { address: 'x'.repeat(2000) }));
        return null;
      })().catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(StoreUnavailable);
      expect(refusal).toMatchObject({ reason: 'full' });
      expect(await opened.store.findAccount('acme')).toMatchObject({ id: acme.id });
      expect(await opened.store.findLocation(acme.id, 'live', 'FR-0RMB-CLY0')).toMatchObject({ label: 'kept' });
      await opened.fill.end();
      expect((await opened.store.saveLocation(spotOf(acme.id, 'US-550M-RQ5L'))).created).toBe(true);
      await expect(opened.store.ping()).resolves.toBeUndefined();
    });

    it('answers a ping and closes', async () => {
      await expect(opened.store.ping()).resolves.toBeUndefined();
    });
  });
}
