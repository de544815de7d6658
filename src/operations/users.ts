/**
 * What operators and partners change of the people who sign in to the panel: invitations, recovery
 * links, removals and operator status. The links themselves are auth/panel-links.ts's; these make
 * them for a user and record the change in the audit log.
 */
import { LocError } from '../errors.ts';
import { printable } from '../printable.ts';
import { createInvitedUser, issueLink, type IssuedLink } from '../auth/panel-links.ts';
import type { User } from '../store/panel-store.ts';
import type { Updated } from '../store/store.ts';
import { audit, changed, type ChangeContext } from './change-context.ts';

/** A user and the one-time link made for them, to hand over. */
export interface UserLink {
  user: User;
  link: IssuedLink;
}

/**
 * Invites `email` to the account, as an operator or not: a new user and an invitation link to
 * `publicUrl`. An address that already has a user is a StoreConflict.
 */
export async function inviteUser(
  context: ChangeContext,
  input: { accountId: string; email: string; operator?: boolean },
  publicUrl: string,
): Promise<UserLink> {
  const invited = await createInvitedUser(context.store, input, context.now, publicUrl);
  await audit(context, { accountId: input.accountId, action: 'user.invite', target: invited.user.email, details: { operator: invited.user.operator } });
  return invited;
}

/** A recovery link for `user`, replacing any open link of theirs. */
export async function recoverUser(context: ChangeContext, user: User, publicUrl: string): Promise<UserLink> {
  const link = await issueLink(context.store, user, 'recovery', context.now, publicUrl);
  await audit(context, { accountId: user.accountId, action: 'user.recover', target: user.email });
  return { user, link };
}

/**
 * Removes the user and signs them out everywhere; the user as removed, or null when there was none.
 * An operator is removed only by an operator (the CLI's, or one signed in to the panel): a partner's
 * team lists the operators who belong to its account, but their role is not the partner's to end.
 */
export async function removeUser(context: ChangeContext, userId: string, remover: { operator: boolean }): Promise<User | null> {
  const user = await context.store.panel.getUser(userId);
  if (user === null) return null;
  if (user.operator && !remover.operator) {
    throw new LocError('operator_required', `${printable(user.email)} is an operator: only an operator can remove them.`);
  }
  const removed = await context.store.panel.removeUser(userId);
  if (removed !== null) await audit(context, { accountId: removed.accountId, action: 'user.remove', target: removed.email });
  return removed;
}

/** Grants or takes operator status; null when no user has the address. */
export async function setOperator(context: ChangeContext, email: string, operator: boolean): Promise<Updated<User> | null> {
  const updated = await context.store.panel.setOperator(email, operator);
  if (updated !== null && changed(updated)) {
    const { after } = updated;
    await audit(context, { accountId: after.accountId, action: after.operator ? 'user.operator_on' : 'user.operator_off', target: after.email });
  }
  return updated;
}
