/** The in-memory adapter of the held invitations (held-invitations.ts), on the MemoryStore's database. */
import type { HeldInvitation, HeldInvitationStore } from '../held-invitations.ts';
import { newId } from '../ids.ts';
import { storedEmail } from '../panel-store.ts';
import { drop, put, type MemoryDatabase } from './memory-database.ts';

type Run = <T>(work: (db: MemoryDatabase) => T) => Promise<T>;

/** Oldest first, then by id, as the SQL engines order them. */
const inOrder = (a: HeldInvitation, b: HeldInvitation): number => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class MemoryHeldInvitations implements HeldInvitationStore {
  constructor(private readonly run: Run) {}

  hold(input: Omit<HeldInvitation, 'id'>): Promise<HeldInvitation> {
    return this.run((db) => {
      if (!db.accounts.has(input.accountId)) throw new Error(`no account ${input.accountId} to hold the invitation`);
      const invitation = { ...input, id: newId('usr'), email: storedEmail(input.email) };
      put(db, db.heldInvitations, invitation.id, invitation);
      return { ...invitation };
    });
  }

  list(accountId: string | null): Promise<HeldInvitation[]> {
    return this.run((db) => [...db.heldInvitations.values()].filter((held) => accountId === null || held.accountId === accountId).sort(inOrder).map((held) => ({ ...held })));
  }

  drop(id: string): Promise<HeldInvitation | null> {
    return this.run((db) => {
      const held = db.heldInvitations.get(id);
      if (held === undefined) return null;
      drop(db, db.heldInvitations, id);
      return held;
    });
  }
}
