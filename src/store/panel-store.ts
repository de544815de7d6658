/**
 * The partner panel's part of the store port (`Store.panel`): the people who sign in to the panel,
 * their one-time links, passkeys and panel sessions, the WebAuthn challenges in flight, key rotations,
 * and when and from where each key was last used. Every engine implements it and passes the same
 * conformance suite (`test/conformance/panel-store.ts`).
 *
 * Secrets are never stored: links and panel sessions are kept as the SHA-256 of their token
 * (auth/secrets.ts), passwords as a memory-hard hash (panel/password-hasher.ts). Times are milliseconds
 * since the epoch, given by the caller.
 */
import type { HeldInvitationStore } from './held-invitations.ts';
import type { Updated } from './updated.ts';

export interface User {
  /** Public id, `usr_…`. */
  id: string;
  /** The account whose keys the user manages. */
  accountId: string;
  /** Trimmed and lower-cased; unique across the service: it is what the user signs in with. */
  email: string;
  /** Operators see every account and may set partner status. Granted by the operator CLI only. */
  operator: boolean;
  /** The password's hash (panel/password-hasher.ts), or null: no password yet, or passkeys only. */
  passwordHash: string | null;
  createdAt: number;
  /** When the user first chose a credential; null while the invitation is still open. */
  activatedAt: number | null;
}

/** What a one-time link lets its holder do: join (an invitation), or choose new credentials (recovery). */
export type LinkPurpose = 'invite' | 'recovery';

export interface NewLink {
  userId: string;
  purpose: LinkPurpose;
  /** SHA-256 of the link's token. */
  hash: string;
  createdAt: number;
  expiresAt: number;
}

export interface Passkey {
  /** The credential id, base64url, as the authenticator made it; unique across the service. */
  id: string;
  userId: string;
  /** The credential's COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter at its last use (0 for authenticators that keep none). */
  counter: number;
  /** How the browser may reach the authenticator (`internal`, `usb`, `hybrid`, …), as it said. */
  transports: string[];
  /** A name the user recognises it by ("Passkey added 2026-11-27, Chrome on Linux"). */
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A signed-in browser. The cookie holds the token; the store its hash. */
export interface PanelSession {
  /** SHA-256 of the cookie's token. */
  hash: string;
  userId: string;
  createdAt: number;
  /** The session ends then, whatever happens. */
  expiresAt: number;
  /** When the user last proved who they are (sign-in or re-authentication): changes to keys need a recent one. */
  authenticatedAt: number;
  /** Shown in the user's list of sessions, so a stranger's stands out. */
  ip: string;
  userAgent: string;
}

/** A WebAuthn challenge between the options the server sent and the browser's answer; used once. */
export interface Challenge {
  /** The challenge, base64url: random, 32 bytes. */
  challenge: string;
  /** Registration of a new passkey, or an authentication (sign-in, re-authentication). */
  purpose: 'register' | 'authenticate';
  /** The user it was made for; null for a sign-in, where the passkey names the user. */
  userId: string | null;
  expiresAt: number;
}

/** A rotation under way or done: the replacement made for a key, and when the old key was disabled. */
export interface Rotation {
  oldKeyId: string;
  newKeyId: string;
  startedAt: number;
  /** When the old key was disabled through the rotation; null while it is under way. */
  finishedAt: number | null;
}

/** When and from where a key was last used, as the server saw it on an accepted request. */
export interface KeyUse {
  keyId: string;
  at: number;
  /** The page's origin for embed traffic and for calls that sent one; else null. */
  origin: string | null;
  /** The caller's address as the service sees it (behind a trusted proxy: the client's). */
  ip: string;
}

export interface PanelStore {
  /** Invitations held back (held-invitations.ts). */
  readonly held: HeldInvitationStore;
  /**
   * Throws `StoreConflict` when the e-mail address is taken. With `cap`, the most users of the account
   * who have not joined yet (pending invitations) it may have once this one is made: past it,
   * CapReached and nothing written; counted in the same write, also across processes.
   */
  createUser(input: { accountId: string; email: string; operator: boolean; createdAt: number }, cap?: number): Promise<User>;
  getUser(id: string): Promise<User | null>;
  /** `email` as given: the adapters compare it lower-cased. */
  findUserByEmail(email: string): Promise<User | null>;
  /** The account's users, oldest first. */
  listUsers(accountId: string): Promise<User[]>;
  /** Null when no user has that address. */
  setOperator(email: string, operator: boolean): Promise<Updated<User> | null>;
  /**
   * Removes the user and everything that signs them in — sessions, passkeys, open links, challenges —
   * at once; returns the user as removed, or null when there was no such user (of concurrent removals,
   * one gets the user). What they changed stays (keys belong to the account).
   */
  removeUser(id: string): Promise<User | null>;
  /** Sets the password hash (null removes it) and marks the user active; null when no such user. */
  setPassword(userId: string, passwordHash: string | null, now: number): Promise<User | null>;

  /** Stores a new one-time link; every earlier link of the user that is still open stops working. */
  createLink(link: NewLink): Promise<void>;
  /** The user and purpose of an open link (unused, unexpired), without using it up: the page that asks for a password. */
  findLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null>;
  /** Uses the link up, atomically: of concurrent calls, one gets the user, the others null. */
  useLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null>;

  /** Throws `StoreConflict` when the credential id is already registered. */
  addPasskey(passkey: Passkey): Promise<void>;
  findPasskey(id: string): Promise<Passkey | null>;
  listPasskeys(userId: string): Promise<Passkey[]>;
  /** Records a sign-in with the passkey: its new counter and the time. */
  usePasskey(id: string, counter: number, at: number): Promise<void>;
  /** Removes one of the user's passkeys; false when the user has none with that id. */
  deletePasskey(userId: string, id: string): Promise<boolean>;

  createChallenge(challenge: Challenge): Promise<void>;
  /** Removes the challenge and returns it, atomically; null when unknown, used or expired. */
  takeChallenge(challenge: string, now: number): Promise<Challenge | null>;

  createPanelSession(session: PanelSession): Promise<void>;
  /** The session and its user, or null when unknown or expired at `now`. */
  getPanelSession(hash: string, now: number): Promise<{ session: PanelSession; user: User } | null>;
  /** Records a re-authentication. */
  reauthenticate(hash: string, at: number): Promise<void>;
  listPanelSessions(userId: string, now: number): Promise<PanelSession[]>;
  deletePanelSession(hash: string): Promise<void>;
  /** Signs the user out everywhere (all sessions but `except`, when given); returns how many ended. */
  deleteUserSessions(userId: string, except?: string): Promise<number>;
  /** Forgets sessions, links and challenges that expired before `time`. */
  sweep(time: number): Promise<void>;

  startRotation(rotation: Omit<Rotation, 'finishedAt'>): Promise<void>;
  /** Marks the rotations of `oldKeyId` finished; returns how many were under way. */
  finishRotation(oldKeyId: string, at: number): Promise<number>;
  /** The rotations of the account's keys, newest first. */
  listRotations(accountId: string): Promise<Rotation[]>;

  /** Keeps, per key, the latest of its recorded uses and those given: a batch, one write per key at most. */
  recordKeyUses(uses: readonly KeyUse[]): Promise<void>;
  /** The last use of each of the account's keys that was ever used. */
  keyUses(accountId: string): Promise<KeyUse[]>;
}

// What every engine's adapter does alike to what it is given, before its engine sees it, so that the
// engines cannot differ on it.

/** An e-mail address as it is stored and compared: the port promises lower case, whoever calls. */
export const storedEmail = (email: string): string => email.trim().toLowerCase();

/**
 * The latest use of each key in `uses` (the first given, of two at the same time): one write per key,
 * as one statement may not change a row twice (PostgreSQL's ON CONFLICT refuses it).
 */
export function latestUses(uses: readonly KeyUse[]): KeyUse[] {
  const latest = new Map<string, KeyUse>();
  for (const use of uses) {
    const known = latest.get(use.keyId);
    if (known === undefined || use.at > known.at) latest.set(use.keyId, use);
  }
  return [...latest.values()];
}
