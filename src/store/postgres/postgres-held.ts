/** The PostgreSQL adapter of the held invitations (held-invitations.ts): each method one statement. */
import type pg from 'pg';
import type { HeldInvitation, HeldInvitationStore } from '../held-invitations.ts';
import { newId } from '../ids.ts';
import { storedEmail } from '../panel-store.ts';

type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string) => Promise<pg.QueryResult<R>>;
type HeldRow = { id: string; account_id: string; email: string; invited_by: string; created_at: string };

const held = (row: HeldRow): HeldInvitation => ({ id: row.id, accountId: row.account_id, email: row.email, invitedBy: row.invited_by, createdAt: Number(row.created_at) });

export class PostgresHeldInvitations implements HeldInvitationStore {
  constructor(private readonly query: Query) {}

  async hold(input: Omit<HeldInvitation, 'id'>): Promise<HeldInvitation> {
    const invitation = { ...input, id: newId('usr'), email: storedEmail(input.email) };
    await this.query(
      'INSERT INTO held_invitations (id, account_id, email, invited_by, created_at) VALUES ($1, $2, $3, $4, $5)',
      [invitation.id, invitation.accountId, invitation.email, invitation.invitedBy, invitation.createdAt],
      'held-insert',
    );
    return invitation;
  }

  async list(accountId: string | null): Promise<HeldInvitation[]> {
    const { rows } = accountId === null
      ? await this.query<HeldRow>('SELECT * FROM held_invitations ORDER BY created_at, id', [], 'held-all')
      : await this.query<HeldRow>('SELECT * FROM held_invitations WHERE account_id = $1 ORDER BY created_at, id', [accountId], 'held-of');
    return rows.map(held);
  }

  async drop(id: string): Promise<HeldInvitation | null> {
    const { rows: [row] } = await this.query<HeldRow>('DELETE FROM held_invitations WHERE id = $1 RETURNING *', [id], 'held-drop');
    return row === undefined ? null : held(row);
  }
}
