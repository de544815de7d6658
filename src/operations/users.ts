/**
 * What operators and partners change of the people who sign in to the panel: invitations, recovery
 * links, removals and operator status. The links themselves are auth/panel-links.ts's; these make
 * them for a user and record the change in the audit log.
 */
import { LocError } from '../errors.ts';
import { printable } from '../printable.ts';
import { alreadyAUser, createInvitedUser, issueLink, normalizeEmail, unstoredLink, type IssuedLink } from '../auth/panel-links.ts';
import type { User } from '../store/panel-store.ts';
import type { Updated } from '../store/store.ts';
import { capped, overCap } from './caps.ts';
import { audit, changed, type ChangeContext } from './change-context.ts';

/** A user and the one-time link made for them, to hand over. */
export interface UserLink {
  user: User;
  link: IssuedLink;
}

/**
 * Invites `email` to the account, as an operator or not: a new user and an invitation link to
 * `publicUrl`, within the cap of the account's pending invitations. An address that already has a
 * user is a StoreConflict.
 */
export async function inviteUser(
  context: ChangeContext,
  input: { accountId: string; email: string; operator?: boolean },
  publicUrl: string,
  held = 0,
): Promise<UserLink> {
  // The account's held invitations take places of the cap too (inviteFromPanel).
  const invited = await capped(context.caps, 'invitations', 'email', (most) => createInvitedUser(context.store, input, context.now, publicUrl, most === undefined ? undefined : most - held));
  await audit(context, { accountId: input.accountId, action: 'user.invite', target: invited.user.email, details: { operator: invited.user.operator } });
  return invited;
}

/**
 * An invitation made in the panel by `inviter`: the address as kept, and the link to hand over. An
 * address that is a user of another account is not a partner's to learn of, so unless the inviter is
 * an operator it is held (store/held-invitations.ts) and answered as any invitation is: the same
 * audit entry, a link shaped alike that leads nowhere. One already of this team, as a user or held,
 * is refused alike.
 */
export async function inviteFromPanel(
  context: ChangeContext,
  input: { accountId: string; email: string },
  publicUrl: string,
  inviter: User,
): Promise<{ email: string; link: IssuedLink }> {
  const email = normalizeEmail(input.email);
  const held = await context.store.panel.held.list(input.accountId);
  if (held.some((invitation) => invitation.email === email)) throw alreadyAUser(email);
  const holder = await context.store.panel.findUserByEmail(email);
  if (holder === null || holder.accountId === input.accountId || inviter.operator) {
    const { user, link } = await inviteUser(context, { accountId: input.accountId, email }, publicUrl, held.length);
    return { email: user.email, link };
  }
  // A held invitation is a pending one to the partner, so it meets the same cap, or the cap's answer
  // would tell the address apart. Counted before the write: two at once may pass the cap by one.
  if (context.caps !== undefined) {
    const pending = (await context.store.panel.listUsers(input.accountId)).filter((user) => user.activatedAt === null).length;
    if (pending + held.length >= context.caps.invitations.most) throw overCap(context.caps, 'invitations', 'email');
  }
  await context.store.panel.held.hold({ accountId: input.accountId, email, invitedBy: inviter.email, createdAt: context.now });
  await audit(context, { accountId: input.accountId, action: 'user.invite', target: email, details: { operator: false } });
  return { email, link: unstoredLink(context.now, publicUrl) };
}

/** Forgets the account's held invitation `id`, recorded as the removal of an invited user is; false when it has none. */
export async function dropHeldInvitation(context: ChangeContext, accountId: string | null, id: string): Promise<boolean> {
  const held = (await context.store.panel.held.list(accountId)).find((candidate) => candidate.id === id);
  if (held === undefined || (await context.store.panel.held.drop(id)) === null) return false;
  await audit(context, { accountId: held.accountId, action: 'user.remove', target: held.email });
  return true;
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
