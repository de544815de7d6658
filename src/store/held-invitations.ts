/**
 * Invitations held back (`Store.panel.held`): a partner's user invited an address that is already a
 * user of another account. One address is one user of one account, and a partner must not learn that
 * an address is another partner's, so the panel answers as for any invitation and keeps this instead
 * of a user: the inviting account's team lists it as invited (and can remove it), it never becomes a
 * user, its link was never stored, and an operator sees it with `loc users held` and resolves it.
 * Every engine passes the same conformance suite (`test/conformance/held-invitations.ts`).
 */

export interface HeldInvitation {
  /** Public id, `usr_…` like a user's: the team page's forms name either alike. */
  id: string;
  /** The account that invited. */
  accountId: string;
  /** The address invited, as stored (trimmed, lower-cased). */
  email: string;
  /** Who invited: the panel user's address. */
  invitedBy: string;
  createdAt: number;
}

export interface HeldInvitationStore {
  hold(input: Omit<HeldInvitation, 'id'>): Promise<HeldInvitation>;
  /** One account's held invitations, or every account's (null); oldest first. */
  list(accountId: string | null): Promise<HeldInvitation[]>;
  /** Forgets one; the one forgotten, or null when there was none. */
  drop(id: string): Promise<HeldInvitation | null>;
}
