/**
 * The panel store's conformance suite: what every adapter of `Store.panel` (src/store/panel-store.ts)
 * must do, written once, run as the store suite is (`panelStoreConformance('name', open)`, with the
 * same `open`). What a test only needs to exist is written through the second store, so that the
 * store under test reads it from the database; races run on both stores at once, as two processes.
 */
import { describe, expect, it } from 'vitest';
import { hashSecret, newApiKey } from '../../src/auth/secrets.ts';
import { HOUR_MS } from '../../src/durations.ts';
import type { PanelSession, Passkey, User } from '../../src/store/panel-store.ts';
import { StoreConflict, type Account, type ApiKey } from '../../src/store/store.ts';
import { openedPerTest, type OpenedStore } from './opened.ts';

const T0 = Date.UTC(2030, 0, 1);

export function panelStoreConformance(adapter: string, open: () => Promise<OpenedStore>): void {
  describe(`panel store conformance: ${adapter}`, () => {
    const opened = openedPerTest(open);

    const account = (name = 'acme'): Promise<Account> => opened.second.createAccount({ name, partner: true, createdAt: T0 });
    const seededUser = (accountId: string, email: string, createdAt = T0): Promise<User> =>
      opened.second.panel.createUser({ accountId, email, operator: false, createdAt });
    const seededKey = (accountId: string, createdAt = T0): Promise<ApiKey> => opened.second.createKey({
      accountId, mode: 'live', hash: hashSecret(newApiKey()), label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null,
      sessionLimit: null, createdAt,
    });
    const link = (userId: string, hash: string, extra: { purpose?: 'invite' | 'recovery'; createdAt?: number; expiresAt?: number } = {}) =>
      opened.second.panel.createLink({ userId, hash, purpose: 'invite', createdAt: T0, expiresAt: T0 + HOUR_MS, ...extra });
    const passkeyOf = (userId: string, id: string, extra: Partial<Passkey> = {}): Passkey => ({
      id, userId, publicKey: 'pQECAyYgASFYIA', counter: 0, transports: ['internal', 'hybrid'], name: 'Chrome on Linux', createdAt: T0, lastUsedAt: null, ...extra,
    });
    const sessionOf = (userId: string, hash: string, extra: Partial<PanelSession> = {}): PanelSession => ({
      hash, userId, createdAt: T0, expiresAt: T0 + HOUR_MS, authenticatedAt: T0, ip: '203.0.113.7', userAgent: 'Mozilla/5.0', ...extra,
    });

    it('creates users, lower-cased, and finds them by id and by e-mail address in any case', async () => {
      const acme = await account();
      const ada = await opened.store.panel.createUser({ accountId: acme.id, email: 'Ada@Example.COM', operator: true, createdAt: T0 });
      expect(ada).toEqual({ id: expect.stringMatching(/^usr_[\w-]{22}$/), accountId: acme.id, email: 'ada@example.com', operator: true, passwordHash: null, createdAt: T0, activatedAt: null });
      expect(await opened.second.panel.getUser(ada.id)).toEqual(ada);
      expect(await opened.store.panel.findUserByEmail('ADA@example.com')).toEqual(ada);
      expect(await opened.second.panel.findUserByEmail('ada@example.com')).toEqual(ada);
      expect(await opened.store.panel.findUserByEmail('bob@example.com')).toBeNull();
      expect(await opened.store.panel.getUser('usr_missing')).toBeNull();
    });

    it('refuses a second user with the same address, whatever its case, also one another store made', async () => {
      const acme = await account();
      const beta = await account('beta');
      await seededUser(acme.id, 'ada@example.com');
      await expect(opened.store.panel.createUser({ accountId: beta.id, email: 'ADA@example.com', operator: false, createdAt: T0 })).rejects.toBeInstanceOf(StoreConflict);
      expect(await opened.store.panel.listUsers(beta.id)).toEqual([]);
    });

    it("lists an account's users oldest first, and no other account's", async () => {
      const acme = await account();
      const beta = await account('beta');
      await seededUser(acme.id, 'carol@example.com', T0 + 2);
      await seededUser(acme.id, 'bob@example.com', T0);
      await seededUser(beta.id, 'dave@example.com', T0 + 1);
      await seededUser(acme.id, 'ada@example.com', T0);
      expect((await opened.store.panel.listUsers(acme.id)).map((user) => user.email)).toEqual(['ada@example.com', 'bob@example.com', 'carol@example.com']);
    });

    it('grants and takes operator status by e-mail address in any case, giving the user before and after; null for an unknown address', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      expect(await opened.store.panel.setOperator('Ada@Example.com', true)).toEqual({ before: ada, after: { ...ada, operator: true } });
      expect((await opened.second.panel.getUser(ada.id))?.operator).toBe(true);
      // The other store's write is what this one's finds: before is the row as it is, not as last seen here.
      await opened.second.panel.setOperator('ada@example.com', false);
      expect(await opened.store.panel.setOperator('ada@example.com', false)).toEqual({ before: ada, after: ada });
      expect(await opened.store.panel.setOperator('bob@example.com', true)).toBeNull();
    });

    it('sets and removes a password; the first credential activates the user, once', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      expect(await opened.store.panel.setPassword(ada.id, '$argon2id$one', T0 + 5)).toEqual({ ...ada, passwordHash: '$argon2id$one', activatedAt: T0 + 5 });
      expect(await opened.store.panel.setPassword(ada.id, null, T0 + 9)).toEqual({ ...ada, passwordHash: null, activatedAt: T0 + 5 });
      expect(await opened.second.panel.getUser(ada.id)).toEqual({ ...ada, passwordHash: null, activatedAt: T0 + 5 });
      expect(await opened.store.panel.setPassword('usr_missing', 'x', T0)).toBeNull();
    });

    it('finds an open link without using it up, uses it once, and never an expired one', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const bob = await seededUser(acme.id, 'bob@example.com');
      await link(ada.id, 'hash-ada', { purpose: 'recovery' });
      await link(bob.id, 'hash-bob', { expiresAt: T0 + 10 });
      expect(await opened.store.panel.findLink('hash-ada', T0 + 1)).toEqual({ user: ada, purpose: 'recovery' });
      expect(await opened.store.panel.findLink('hash-ada', T0 + 2)).toEqual({ user: ada, purpose: 'recovery' });
      expect(await opened.store.panel.useLink('hash-ada', T0 + 3)).toEqual({ user: ada, purpose: 'recovery' });
      expect(await opened.store.panel.useLink('hash-ada', T0 + 4)).toBeNull();
      expect(await opened.second.panel.findLink('hash-ada', T0 + 4)).toBeNull();
      expect(await opened.store.panel.findLink('hash-bob', T0 + 9)).toEqual({ user: bob, purpose: 'invite' });
      expect(await opened.store.panel.findLink('hash-bob', T0 + 10)).toBeNull();
      expect(await opened.store.panel.useLink('hash-bob', T0 + 10)).toBeNull();
      expect(await opened.store.panel.findLink('hash-unknown', T0)).toBeNull();
    });

    it("makes a new link replace the user's open one, not another user's, and not stop at a used one", async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const bob = await seededUser(acme.id, 'bob@example.com');
      await link(bob.id, 'hash-bob');
      await opened.store.panel.createLink({ userId: ada.id, purpose: 'invite', hash: 'hash-1', createdAt: T0, expiresAt: T0 + HOUR_MS });
      await opened.store.panel.createLink({ userId: ada.id, purpose: 'recovery', hash: 'hash-2', createdAt: T0 + 1, expiresAt: T0 + HOUR_MS });
      expect(await opened.store.panel.findLink('hash-1', T0 + 2)).toBeNull();
      expect(await opened.store.panel.useLink('hash-1', T0 + 2)).toBeNull();
      expect(await opened.second.panel.findLink('hash-2', T0 + 2)).toEqual({ user: ada, purpose: 'recovery' });
      expect(await opened.store.panel.findLink('hash-bob', T0 + 2)).toMatchObject({ user: bob });
      expect(await opened.store.panel.useLink('hash-2', T0 + 3)).toMatchObject({ user: ada });
      await opened.store.panel.createLink({ userId: ada.id, purpose: 'recovery', hash: 'hash-3', createdAt: T0 + 4, expiresAt: T0 + HOUR_MS });
      expect(await opened.second.panel.useLink('hash-3', T0 + 5)).toMatchObject({ user: ada, purpose: 'recovery' });
    });

    it('leaves a user one open link when several are made at once, from both stores', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const hashes = Array.from({ length: 8 }, (_, i) => `hash-${i}`);
      await Promise.all(hashes.map((hash, i) => (i % 2 === 0 ? opened.store : opened.second).panel.createLink({ userId: ada.id, purpose: 'recovery', hash, createdAt: T0 + i, expiresAt: T0 + HOUR_MS })));
      const open = await Promise.all(hashes.map((hash) => opened.store.panel.findLink(hash, T0 + 10)));
      expect(open.filter((found) => found !== null)).toEqual([{ user: ada, purpose: 'recovery' }]);
    });

    it('lets exactly one of concurrent uses of a link, from both stores, have it', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      await link(ada.id, 'hash-ada');
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? opened.store : opened.second).panel.useLink('hash-ada', T0 + 1)));
      expect(results.filter((result) => result !== null)).toEqual([{ user: ada, purpose: 'invite' }]);
    });

    it('keeps passkeys: one id once across the service, a use updates its counter, a user removes only their own', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const bob = await seededUser(acme.id, 'bob@example.com');
      const transports = ['usb', 'nfc'];
      const first = passkeyOf(ada.id, 'cred-1', { transports, createdAt: T0 + 1 });
      await opened.store.panel.addPasskey(first);
      transports.push('ble');
      await opened.store.panel.addPasskey(passkeyOf(ada.id, 'cred-0', { createdAt: T0 + 2, lastUsedAt: T0 + 2 }));
      await expect(opened.second.panel.addPasskey(passkeyOf(bob.id, 'cred-1'))).rejects.toBeInstanceOf(StoreConflict);
      expect(await opened.second.panel.findPasskey('cred-1')).toEqual({ ...first, transports: ['usb', 'nfc'] });
      expect((await opened.store.panel.listPasskeys(ada.id)).map((passkey) => passkey.id)).toEqual(['cred-1', 'cred-0']);
      expect(await opened.store.panel.listPasskeys(bob.id)).toEqual([]);
      await opened.store.panel.usePasskey('cred-1', 4_294_967_295, T0 + 60);
      expect(await opened.second.panel.findPasskey('cred-1')).toMatchObject({ counter: 4_294_967_295, lastUsedAt: T0 + 60 });
      expect(await opened.store.panel.deletePasskey(bob.id, 'cred-1')).toBe(false);
      expect(await opened.store.panel.findPasskey('cred-1')).not.toBeNull();
      expect(await opened.store.panel.deletePasskey(ada.id, 'cred-1')).toBe(true);
      expect(await opened.second.panel.findPasskey('cred-1')).toBeNull();
      expect(await opened.store.panel.deletePasskey(ada.id, 'cred-1')).toBe(false);
    });

    it('removes a user with everything that signs them in, and nothing of anyone else; the address is free again', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const bob = await seededUser(acme.id, 'bob@example.com');
      for (const [user, tag] of [[ada, 'a'], [bob, 'b']] as const) {
        await opened.store.panel.addPasskey(passkeyOf(user.id, `cred-${tag}`));
        await opened.store.panel.createPanelSession(sessionOf(user.id, `session-${tag}`));
        await link(user.id, `link-${tag}`);
        await opened.store.panel.createChallenge({ challenge: `challenge-${tag}`, purpose: 'register', userId: user.id, expiresAt: T0 + HOUR_MS });
      }
      expect(await opened.store.panel.removeUser(ada.id)).toEqual(ada);
      expect(await opened.second.panel.getUser(ada.id)).toBeNull();
      expect(await opened.second.panel.findPasskey('cred-a')).toBeNull();
      expect(await opened.second.panel.getPanelSession('session-a', T0)).toBeNull();
      expect(await opened.second.panel.findLink('link-a', T0)).toBeNull();
      expect(await opened.second.panel.takeChallenge('challenge-a', T0)).toBeNull();
      expect((await opened.second.panel.listUsers(acme.id)).map((user) => user.email)).toEqual(['bob@example.com']);
      expect(await opened.second.panel.findPasskey('cred-b')).not.toBeNull();
      expect(await opened.second.panel.getPanelSession('session-b', T0)).not.toBeNull();
      expect(await opened.second.panel.findLink('link-b', T0)).not.toBeNull();
      expect(await opened.second.panel.takeChallenge('challenge-b', T0)).not.toBeNull();
      expect(await opened.store.panel.removeUser(ada.id)).toBeNull();
      expect((await opened.second.panel.createUser({ accountId: acme.id, email: 'ADA@example.com', operator: false, createdAt: T0 })).email).toBe('ada@example.com');
    });

    it('gives a challenge back once, and never an expired one', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      await opened.second.panel.createChallenge({ challenge: 'c-register', purpose: 'register', userId: ada.id, expiresAt: T0 + 60_000 });
      await opened.second.panel.createChallenge({ challenge: 'c-sign-in', purpose: 'authenticate', userId: null, expiresAt: T0 + 60_000 });
      await opened.second.panel.createChallenge({ challenge: 'c-late', purpose: 'authenticate', userId: null, expiresAt: T0 + 10 });
      expect(await opened.store.panel.takeChallenge('c-register', T0)).toEqual({ challenge: 'c-register', purpose: 'register', userId: ada.id, expiresAt: T0 + 60_000 });
      expect(await opened.store.panel.takeChallenge('c-register', T0)).toBeNull();
      expect(await opened.store.panel.takeChallenge('c-late', T0 + 10)).toBeNull();
      expect(await opened.store.panel.takeChallenge('c-unknown', T0)).toBeNull();
      const taken = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? opened.store : opened.second).panel.takeChallenge('c-sign-in', T0)));
      expect(taken.filter((challenge) => challenge !== null)).toEqual([{ challenge: 'c-sign-in', purpose: 'authenticate', userId: null, expiresAt: T0 + 60_000 }]);
    });

    it('keeps panel sessions with their user until they expire, records a re-authentication, and lists a user\'s own', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const bob = await seededUser(acme.id, 'bob@example.com');
      const mine = sessionOf(ada.id, 's-ada', { createdAt: T0 + 1 });
      await opened.store.panel.createPanelSession(mine);
      await opened.store.panel.createPanelSession(sessionOf(ada.id, 's-ada-short', { createdAt: T0, expiresAt: T0 + 10 }));
      await opened.store.panel.createPanelSession(sessionOf(bob.id, 's-bob'));
      expect(await opened.second.panel.getPanelSession('s-ada', T0 + 5)).toEqual({ session: mine, user: ada });
      expect(await opened.store.panel.getPanelSession('s-ada', T0 + HOUR_MS)).toBeNull();
      expect(await opened.store.panel.getPanelSession('s-unknown', T0)).toBeNull();
      await opened.store.panel.reauthenticate('s-ada', T0 + 600);
      expect((await opened.second.panel.getPanelSession('s-ada', T0 + 700))?.session.authenticatedAt).toBe(T0 + 600);
      expect((await opened.store.panel.listPanelSessions(ada.id, T0 + 5)).map((session) => session.hash)).toEqual(['s-ada-short', 's-ada']);
      expect((await opened.store.panel.listPanelSessions(ada.id, T0 + 10)).map((session) => session.hash)).toEqual(['s-ada']);
      await opened.second.panel.deletePanelSession('s-ada');
      expect(await opened.store.panel.getPanelSession('s-ada', T0)).toBeNull();
      expect(await opened.store.panel.getPanelSession('s-bob', T0)).toMatchObject({ user: bob });
    });

    it("signs a user out everywhere, or everywhere but here, and no one else", async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const bob = await seededUser(acme.id, 'bob@example.com');
      for (const hash of ['s-1', 's-2', 's-3']) await opened.second.panel.createPanelSession(sessionOf(ada.id, hash));
      await opened.second.panel.createPanelSession(sessionOf(bob.id, 's-bob'));
      expect(await opened.store.panel.deleteUserSessions(ada.id, 's-2')).toBe(2);
      expect((await opened.second.panel.listPanelSessions(ada.id, T0)).map((session) => session.hash)).toEqual(['s-2']);
      expect(await opened.store.panel.deleteUserSessions(ada.id)).toBe(1);
      expect(await opened.store.panel.listPanelSessions(ada.id, T0)).toEqual([]);
      expect(await opened.store.panel.getPanelSession('s-bob', T0)).not.toBeNull();
    });

    it('sweeps away expired sessions, links and challenges, and keeps the others', async () => {
      const acme = await account();
      const ada = await seededUser(acme.id, 'ada@example.com');
      const bob = await seededUser(acme.id, 'bob@example.com');
      await opened.second.panel.createPanelSession(sessionOf(ada.id, 's-old', { expiresAt: T0 + 10 }));
      await opened.second.panel.createPanelSession(sessionOf(ada.id, 's-new', { expiresAt: T0 + 30 }));
      await link(ada.id, 'link-old', { expiresAt: T0 + 10 });
      await link(bob.id, 'link-new', { expiresAt: T0 + 30 });
      await opened.second.panel.createChallenge({ challenge: 'c-old', purpose: 'authenticate', userId: null, expiresAt: T0 + 10 });
      await opened.second.panel.createChallenge({ challenge: 'c-new', purpose: 'authenticate', userId: null, expiresAt: T0 + 30 });
      await opened.store.panel.sweep(T0 + 20);
      // Asked as of before they expired: what was swept is gone, not merely expired.
      expect(await opened.second.panel.getPanelSession('s-old', T0)).toBeNull();
      expect(await opened.second.panel.getPanelSession('s-new', T0)).not.toBeNull();
      expect(await opened.second.panel.findLink('link-old', T0)).toBeNull();
      expect(await opened.second.panel.findLink('link-new', T0)).not.toBeNull();
      expect(await opened.second.panel.takeChallenge('c-old', T0)).toBeNull();
      expect(await opened.second.panel.takeChallenge('c-new', T0)).not.toBeNull();
    });

    it("keeps rotations of an account's keys, newest first, and finishes those under way", async () => {
      const acme = await account();
      const beta = await account('beta');
      const [old, next, other] = [await seededKey(acme.id), await seededKey(acme.id), await seededKey(acme.id)];
      const [theirs, theirsNext] = [await seededKey(beta.id), await seededKey(beta.id)];
      await opened.store.panel.startRotation({ oldKeyId: old.id, newKeyId: next.id, startedAt: T0 + 1 });
      await opened.store.panel.startRotation({ oldKeyId: other.id, newKeyId: next.id, startedAt: T0 + 2 });
      await opened.second.panel.startRotation({ oldKeyId: theirs.id, newKeyId: theirsNext.id, startedAt: T0 });
      await expect(opened.store.panel.startRotation({ oldKeyId: old.id, newKeyId: next.id, startedAt: T0 + 3 })).rejects.toBeInstanceOf(StoreConflict);
      expect(await opened.store.panel.finishRotation(old.id, T0 + 50)).toBe(1);
      expect(await opened.store.panel.finishRotation(old.id, T0 + 60)).toBe(0);
      expect(await opened.second.panel.listRotations(acme.id)).toEqual([
        { oldKeyId: other.id, newKeyId: next.id, startedAt: T0 + 2, finishedAt: null },
        { oldKeyId: old.id, newKeyId: next.id, startedAt: T0 + 1, finishedAt: T0 + 50 },
      ]);
      expect(await opened.store.panel.listRotations(beta.id)).toEqual([{ oldKeyId: theirs.id, newKeyId: theirsNext.id, startedAt: T0, finishedAt: null }]);
    });

    it("keeps each key's latest use: a batch's latest, never overwritten by an older batch; per account", async () => {
      const acme = await account();
      const beta = await account('beta');
      const [one, two] = [await seededKey(acme.id), await seededKey(acme.id)];
      const theirs = await seededKey(beta.id);
      await opened.store.panel.recordKeyUses([
        { keyId: one.id, at: T0 + 5, origin: 'https://shop.example', ip: '203.0.113.7' },
        { keyId: one.id, at: T0 + 9, origin: null, ip: '2001:db8::1' },
        { keyId: one.id, at: T0 + 7, origin: 'https://old.example', ip: '203.0.113.8' },
        { keyId: two.id, at: T0 + 1, origin: null, ip: '198.51.100.1' },
        { keyId: theirs.id, at: T0 + 3, origin: null, ip: '198.51.100.2' },
      ]);
      // Another server's batch, later in arriving but older in its uses, for the first key.
      await opened.second.panel.recordKeyUses([
        { keyId: one.id, at: T0 + 8, origin: 'https://late.example', ip: '203.0.113.9' },
        { keyId: two.id, at: T0 + 20, origin: 'https://shop.example', ip: '198.51.100.3' },
      ]);
      await opened.store.panel.recordKeyUses([]);
      expect(await opened.store.panel.keyUses(acme.id)).toEqual([
        { keyId: two.id, at: T0 + 20, origin: 'https://shop.example', ip: '198.51.100.3' },
        { keyId: one.id, at: T0 + 9, origin: null, ip: '2001:db8::1' },
      ]);
      expect(await opened.second.panel.keyUses(beta.id)).toEqual([{ keyId: theirs.id, at: T0 + 3, origin: null, ip: '198.51.100.2' }]);
      expect(await opened.store.panel.keyUses((await account('gamma')).id)).toEqual([]);
    });
  });
}
