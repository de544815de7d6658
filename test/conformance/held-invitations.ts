/**
 * The held invitations' conformance suite: what every adapter of `Store.panel.held`
 * (src/store/held-invitations.ts) must do, run as the store suite is (`heldInvitationsConformance('name', open)`).
 * What a test only needs to exist is written through the second store, which the store under test reads back.
 */
import { describe, expect, it } from 'vitest';
import { openedPerTest, type OpenedStore } from './opened.ts';

const T0 = Date.UTC(2030, 0, 1);

export function heldInvitationsConformance(adapter: string, open: () => Promise<OpenedStore>): void {
  describe(`held invitations conformance: ${adapter}`, () => {
    const opened = openedPerTest(open);

    it('holds, lists an account\'s or every one\'s oldest first, and drops once', async () => {
      const acme = await opened.second.createAccount({ name: 'acme', partner: true, createdAt: T0 });
      const globex = await opened.second.createAccount({ name: 'globex', partner: true, createdAt: T0 });
      const later = await opened.second.panel.held.hold({ accountId: acme.id, email: ' Bo@Example.com ', invitedBy: 'ada@acme.example', createdAt: T0 + 2 });
      const first = await opened.second.panel.held.hold({ accountId: acme.id, email: 'cy@example.com', invitedBy: 'ada@acme.example', createdAt: T0 + 1 });
      const other = await opened.second.panel.held.hold({ accountId: globex.id, email: 'cy@example.com', invitedBy: 'gus@globex.example', createdAt: T0 });
      expect(later).toEqual({ id: expect.stringMatching(/^usr_[\w-]{22}$/), accountId: acme.id, email: 'bo@example.com', invitedBy: 'ada@acme.example', createdAt: T0 + 2 });
      opened.settle();

      const { store } = opened;
      expect(await store.panel.held.list(acme.id)).toEqual([first, later]);
      expect(await store.panel.held.list(null)).toEqual([other, first, later]);
      expect(await store.panel.held.drop(first.id)).toEqual(first);
      expect(await store.panel.held.drop(first.id)).toBeNull();
      expect(await store.panel.held.list(acme.id)).toEqual([later]);
    });
  });
}
