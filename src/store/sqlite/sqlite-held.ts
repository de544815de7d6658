/** The SQLite adapter of the held invitations (held-invitations.ts), in the panel store's database. */
import type Database from 'better-sqlite3';
import type { HeldInvitation, HeldInvitationStore } from '../held-invitations.ts';
import { newId } from '../ids.ts';
import { storedEmail } from '../panel-store.ts';

type Run = <T>(work: () => T) => Promise<T>;
type HeldRow = { id: string; account_id: string; email: string; invited_by: string; created_at: number };

const held = (row: HeldRow): HeldInvitation => ({ id: row.id, accountId: row.account_id, email: row.email, invitedBy: row.invited_by, createdAt: row.created_at });

export class SqliteHeldInvitations implements HeldInvitationStore {
  private readonly q;

  constructor(db: Database.Database, private readonly run: Run) {
    this.q = {
      insert: db.prepare('INSERT INTO held_invitations (id, account_id, email, invited_by, created_at) VALUES (?, ?, ?, ?, ?)'),
      of: db.prepare<[string], HeldRow>('SELECT * FROM held_invitations WHERE account_id = ? ORDER BY created_at, id'),
      all: db.prepare<[], HeldRow>('SELECT * FROM held_invitations ORDER BY created_at, id'),
      drop: db.prepare<[string], HeldRow>('DELETE FROM held_invitations WHERE id = ? RETURNING *'),
    };
  }

  hold(input: Omit<HeldInvitation, 'id'>): Promise<HeldInvitation> {
    const invitation = { ...input, id: newId('usr'), email: storedEmail(input.email) };
    return this.run(() => {
      this.q.insert.run(invitation.id, invitation.accountId, invitation.email, invitation.invitedBy, invitation.createdAt);
      return invitation;
    });
  }

  list(accountId: string | null): Promise<HeldInvitation[]> {
    return this.run(() => (accountId === null ? this.q.all.all() : this.q.of.all(accountId)).map(held));
  }

  drop(id: string): Promise<HeldInvitation | null> {
    return this.run(() => {
      const row = this.q.drop.get(id);
      return row === undefined ? null : held(row);
    });
  }
}
