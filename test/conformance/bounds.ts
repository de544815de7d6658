/**
 * The bounds conformance suite: what every adapter of the store port must do of what bounds an
 * account — the operator's ceiling of its keys' limits, and the caps on its active keys, its pending
 * invitations and its keys' lists, each counted in the write that would pass it — written once, as
 * the store suite is (store.ts): the store under test and a second store on the same database, which
 * race for the last place under a cap as two processes would.
 */
import { describe, expect, it } from 'vitest';
import { hashSecret, newApiKey } from '../../src/auth/secrets.ts';
import { CapReached, type Account, type NewKey } from '../../src/store/store.ts';
import { openedPerTest, type OpenedStore } from './opened.ts';

const T0 = Date.UTC(2030, 0, 1);
const NONE = { hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null };

export function boundsConformance(adapter: string, open: () => Promise<OpenedStore>): void {
  describe(`bounds conformance: ${adapter}`, () => {
    const opened = openedPerTest(open);
    const partner = (name = 'acme'): Promise<Account> => opened.second.createAccount({ name, partner: true, createdAt: T0 });
    const newKey = (accountId: string, extra: Partial<NewKey> = {}): NewKey => ({
      accountId, mode: 'live', hash: hashSecret(newApiKey()), label: null, origins: [], ipRanges: [], hourlyLimit: null, embedHourlyLimit: null,
      sessionLimit: null, createdAt: T0, ...extra,
    });
    /** What settled of `attempts`: how many were made, and that every other was CapReached. */
    async function madeOf(attempts: Promise<unknown>[]): Promise<number> {
      const settled = await Promise.allSettled(attempts);
      for (const result of settled) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(CapReached);
      return settled.filter((result) => result.status === 'fulfilled').length;
    }

    it("keeps an account's ceiling of its keys' limits, each apart, and gives each back to the default", async () => {
      const acme = await partner();
      const beta = await partner('beta');
      expect(await opened.store.accountLimits(acme.id)).toEqual(NONE);
      expect(await opened.store.setAccountLimits(acme.id, { hourlyLimit: 5000 })).toEqual({ before: NONE, after: { ...NONE, hourlyLimit: 5000 } });
      await opened.second.setAccountLimits(acme.id, { sessionLimit: 50 });
      opened.settle();
      const both = { ...NONE, hourlyLimit: 5000, sessionLimit: 50 };
      expect(await opened.store.accountLimits(acme.id)).toEqual(both);
      expect(await opened.store.setAccountLimits(acme.id, {})).toEqual({ before: both, after: both });
      expect(await opened.store.setAccountLimits(acme.id, { hourlyLimit: null, embedHourlyLimit: 20_000 })).toEqual({
        before: both, after: { hourlyLimit: null, embedHourlyLimit: 20_000, sessionLimit: 50 },
      });
      expect(await opened.second.accountLimits(beta.id)).toEqual(NONE);
      expect(await opened.store.accountLimits('acct_nobody')).toBeNull();
      expect(await opened.store.setAccountLimits('acct_nobody', { hourlyLimit: 1 })).toBeNull();
      expect(await opened.store.getAccount(acme.id)).toEqual(acme);
    });

    it('makes a key only while the account has fewer active keys than the cap; a disabled key frees its place, enabling it takes one', async () => {
      const acme = await partner();
      const [a] = await Promise.all([opened.store.createKey(newKey(acme.id), 2), opened.second.createKey(newKey(acme.id), 2)]);
      await expect(opened.store.createKey(newKey(acme.id), 2)).rejects.toBeInstanceOf(CapReached);
      expect(await opened.store.listKeys(acme.id)).toHaveLength(2);
      await opened.second.setKeyStatus(a.id, 'disabled');
      opened.settle();
      const c = await opened.store.createKey(newKey(acme.id), 2);
      await expect(opened.store.setKeyStatus(a.id, 'active', 2)).rejects.toBeInstanceOf(CapReached);
      expect((await opened.second.getKey(a.id))?.status).toBe('disabled');
      // A key active already passes, as does a change without a cap.
      expect((await opened.store.setKeyStatus(c.id, 'active', 2))?.after.status).toBe('active');
      expect((await opened.store.setKeyStatus(a.id, 'active'))?.after.status).toBe('active');
      expect(await opened.store.createKey(newKey(acme.id))).toMatchObject({ status: 'active' });
    });

    it('lets exactly the cap of keys through when two stores make them at once', async () => {
      const acme = await partner();
      const attempts = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? opened.store : opened.second).createKey(newKey(acme.id), 5));
      expect(await madeOf(attempts)).toBe(5);
      expect(await opened.second.listKeys(acme.id)).toHaveLength(5);
    });

    it('adds to a key\'s list only below the cap; a value there already passes; two stores at once pass it by none', async () => {
      const acme = await partner();
      const key = await opened.second.createKey(newKey(acme.id, { origins: ['https://a.example'] }));
      expect((await opened.store.updateKeyList(key.id, 'origins', { add: 'https://b.example', cap: 2 }))?.after.origins).toEqual(['https://a.example', 'https://b.example']);
      await expect(opened.store.updateKeyList(key.id, 'origins', { add: 'https://c.example', cap: 2 })).rejects.toBeInstanceOf(CapReached);
      expect((await opened.store.updateKeyList(key.id, 'origins', { add: 'https://a.example', cap: 2 }))?.after.origins).toHaveLength(2);
      const ranges = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? opened.store : opened.second).updateKeyList(key.id, 'ipRanges', { add: `10.${i}.0.0/16`, cap: 4 }));
      expect(await madeOf(ranges)).toBe(4);
      expect((await opened.second.getKey(key.id))?.ipRanges).toHaveLength(4);
    });

    it('makes a user only while the account has fewer pending invitations than the cap; one who joined does not count', async () => {
      const acme = await partner();
      const user = (email: string, store = opened.store) => store.panel.createUser({ accountId: acme.id, email, operator: false, createdAt: T0 }, 3);
      const attempts = Array.from({ length: 8 }, (_, i) => user(`p${i}@acme.example`, i % 2 === 0 ? opened.store : opened.second));
      expect(await madeOf(attempts)).toBe(3);
      await expect(user('late@acme.example')).rejects.toBeInstanceOf(CapReached);
      const [joined] = await opened.second.panel.listUsers(acme.id);
      await opened.second.panel.setPassword(joined.id, 'hash', T0 + 1);
      expect((await user('late@acme.example')).email).toBe('late@acme.example');
      expect(await opened.store.panel.listUsers(acme.id)).toHaveLength(4);
    });
  });
}
