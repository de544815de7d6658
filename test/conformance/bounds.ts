/**
 * The bounds conformance suite: what every adapter of the store port must do of what bounds an
 * account — the operator's ceiling of its keys' limits — written once, as the store suite is
 * (store.ts): the store under test and a second store on the same database.
 */
import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/store/store.ts';
import { openedPerTest, type OpenedStore } from './opened.ts';

const T0 = Date.UTC(2030, 0, 1);
const NONE = { hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null };

export function boundsConformance(adapter: string, open: () => Promise<OpenedStore>): void {
  describe(`bounds conformance: ${adapter}`, () => {
    const opened = openedPerTest(open);
    const partner = (name = 'acme'): Promise<Account> => opened.second.createAccount({ name, partner: true, createdAt: T0 });

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
  });
}
