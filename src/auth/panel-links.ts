/**
 * One-time links into the partner panel: an invitation (a new user joins an account) and a recovery
 * (a user who lost a password or a passkey chooses new ones). The operator CLI prints them and a
 * partner user makes invitations in the panel; no mail server is involved, the link is handed over
 * by whoever made it. A link is a random token shown once and stored as its hash; it works once,
 * until it expires, and a newer link for the same user replaces it.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from './secrets.ts';
import { DAY_MS } from '../durations.ts';
import { LocError, describeValue } from '../errors.ts';
import { cleanText } from '../text-rules.ts';
import type { LinkPurpose, User } from '../store/panel-store.ts';
import { StoreConflict, type Store } from '../store/store.ts';

/** Where a link leads: the page that asks for a password or a passkey (panel/routes). */
export const LINK_PATH = '/panel/link';
/** What a link's token looks like (32 random bytes, base64url): anything else is no link's. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** How long each kind of link works: an invitation a week (it travels by chat or mail), a recovery a day. */
export const LINK_LIFETIME_MS: Readonly<Record<LinkPurpose, number>> = {
  invite: 7 * DAY_MS,
  recovery: DAY_MS,
};

/** The longest address the mail standards allow (RFC 5321's path limit less its brackets). */
const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The address as it is kept and compared: one line of visible text (text-rules.ts: no control, format
 * or other invisible character, so that no address can look like another's or break a log line or a
 * database's text type), in NFC, trimmed, lower-cased. Beyond that only its shape is checked — one
 * `@`, a dot in the domain, no spaces — since the link, not a mail, proves nothing about it anyway.
 */
export function normalizeEmail(input: string): string {
  const email = (cleanText('email', input, MAX_EMAIL_LENGTH) ?? '').toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
    throw new LocError('validation_error', `email must be an e-mail address such as ada@example.com (received ${describeValue(input)})`, 'email');
  }
  return email;
}

/** A link made: its URL, shown once, and when it stops working. */
export interface IssuedLink {
  url: string;
  expiresAt: number;
}

/** A new link of `purpose` for `user`, replacing any open one. */
export async function issueLink(store: Store, user: User, purpose: LinkPurpose, now: number, publicUrl: string): Promise<IssuedLink> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + LINK_LIFETIME_MS[purpose];
  await store.panel.createLink({ userId: user.id, purpose, hash: hashSecret(token), createdAt: now, expiresAt });
  return { url: `${publicUrl}${LINK_PATH}?token=${token}`, expiresAt };
}

/** A link shaped as an invitation's, whose token was never stored: it leads where a used or expired one does. */
export function unstoredLink(now: number, publicUrl: string): IssuedLink {
  return { url: `${publicUrl}${LINK_PATH}?token=${randomBytes(32).toString('base64url')}`, expiresAt: now + LINK_LIFETIME_MS.invite };
}

/** The refusal of an address that already has a user. */
export const alreadyAUser = (email: string): StoreConflict => new StoreConflict(`${email} already has a user; for a new link, use recovery.`);

/**
 * Invites `email` to the account: a new user and an invitation link. An address that already has a
 * user is refused (StoreConflict): one person, one account; an open invitation is renewed with
 * `issueLink` instead. With `cap`, an account with as many pending invitations is CapReached.
 */
export async function createInvitedUser(
  store: Store,
  input: { accountId: string; email: string; operator?: boolean },
  now: number,
  publicUrl: string,
  cap?: number,
): Promise<{ user: User; link: IssuedLink }> {
  const email = normalizeEmail(input.email);
  if (await store.panel.findUserByEmail(email)) throw alreadyAUser(email);
  const user = await store.panel.createUser({ accountId: input.accountId, email, operator: input.operator ?? false, createdAt: now }, cap);
  return { user, link: await issueLink(store, user, 'invite', now, publicUrl) };
}

/** The user and purpose of the open link `token` names; `link_invalid` when it is used, expired, replaced or unknown. */
export async function openLink(store: Store, token: string, now: number): Promise<{ user: User; purpose: LinkPurpose }> {
  const found = token === '' ? null : await store.panel.findLink(hashSecret(token), now);
  if (found === null) throw new LocError('link_invalid');
  return found;
}
