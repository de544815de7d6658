/**
 * The in-memory adapter of the panel store (panel-store.ts), on the MemoryDatabase the MemoryStore
 * that holds it uses: the same records, the same byte accounting, closed when that store is. Every
 * unit of work runs to its end before another starts, so what must be atomic across processes in
 * the other engines (using a link, taking a challenge) is here by itself.
 */
import { newId } from '../ids.ts';
import { drop, put, type MemoryDatabase } from './memory-database.ts';
import { MemoryHeldInvitations } from './memory-held.ts';
import { latestUses, storedEmail, type Challenge, type KeyUse, type LinkPurpose, type NewLink, type PanelSession, type PanelStore, type Passkey, type Rotation, type User } from '../panel-store.ts';
import { CapReached, StoreConflict, type Updated } from '../store.ts';

/** The MemoryStore's unit of work: refused once the store is closed. */
type Run = <T>(work: (db: MemoryDatabase) => T) => Promise<T>;

/** Sorts as SQLite does, by code unit. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const copyPasskey = (passkey: Passkey): Passkey => ({ ...passkey, transports: [...passkey.transports] });

export class MemoryPanelStore implements PanelStore {
  readonly held: MemoryHeldInvitations;

  constructor(private readonly run: Run) {
    this.held = new MemoryHeldInvitations(run);
  }

  createUser(input: { accountId: string; email: string; operator: boolean; createdAt: number }, cap?: number): Promise<User> {
    return this.run((db) => {
      const email = storedEmail(input.email);
      if (!db.accounts.has(input.accountId)) throw new Error(`no account ${input.accountId} to hold the user`);
      const pending = [...db.users.values()].filter((user) => user.accountId === input.accountId && user.activatedAt === null).length;
      if (cap !== undefined && pending >= cap) throw new CapReached(`the account has ${cap} pending invitations`);
      if (db.userIds.has(email)) throw new StoreConflict(`A user with the e-mail address ${JSON.stringify(email)} already exists.`);
      const user: User = { id: newId('usr'), accountId: input.accountId, email, operator: input.operator, passwordHash: null, createdAt: input.createdAt, activatedAt: null };
      put(db, db.users, user.id, user);
      db.userIds.set(email, user.id);
      return { ...user };
    });
  }

  removeUser(id: string): Promise<User | null> {
    return this.run((db) => {
      const user = db.users.get(id);
      if (user === undefined) return null;
      for (const [hash, session] of db.panelSessions) if (session.userId === id) drop(db, db.panelSessions, hash);
      for (const [key, passkey] of db.passkeys) if (passkey.userId === id) drop(db, db.passkeys, key);
      for (const [hash, link] of db.links) if (link.userId === id) drop(db, db.links, hash);
      for (const [challenge, held] of db.challenges) if (held.userId === id) drop(db, db.challenges, challenge);
      db.userIds.delete(user.email);
      drop(db, db.users, id);
      return { ...user };
    });
  }

  getUser(id: string): Promise<User | null> {
    return this.run((db) => {
      const user = db.users.get(id);
      return user ? { ...user } : null;
    });
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.run((db) => {
      const id = db.userIds.get(storedEmail(email));
      return id === undefined ? null : { ...db.users.get(id)! };
    });
  }

  listUsers(accountId: string): Promise<User[]> {
    return this.run((db) =>
      [...db.users.values()]
        .filter((user) => user.accountId === accountId)
        .sort((a, b) => a.createdAt - b.createdAt || byText(a.email, b.email))
        .map((user) => ({ ...user })),
    );
  }

  setOperator(email: string, operator: boolean): Promise<Updated<User> | null> {
    return this.run((db) => {
      const id = db.userIds.get(storedEmail(email));
      return id === undefined ? null : { before: { ...db.users.get(id)! }, after: changeUser(db, id, { operator }) };
    });
  }

  setPassword(userId: string, passwordHash: string | null, now: number): Promise<User | null> {
    return this.run((db) => {
      const user = db.users.get(userId);
      return user === undefined ? null : changeUser(db, userId, { passwordHash, activatedAt: user.activatedAt ?? now });
    });
  }

  createLink(link: NewLink): Promise<void> {
    return this.run((db) => {
      if (!db.users.has(link.userId)) throw new Error(`no user ${link.userId} to hold the link`);
      for (const [hash, open] of db.links) if (open.userId === link.userId && open.usedAt === null) drop(db, db.links, hash);
      put(db, db.links, link.hash, { ...link, usedAt: null });
    });
  }

  findLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null> {
    return this.run((db) => {
      const link = openLink(db, hash, now);
      return link && { user: { ...db.users.get(link.userId)! }, purpose: link.purpose };
    });
  }

  useLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null> {
    return this.run((db) => {
      const link = openLink(db, hash, now);
      if (link === null) return null;
      put(db, db.links, hash, { ...link, usedAt: now });
      return { user: { ...db.users.get(link.userId)! }, purpose: link.purpose };
    });
  }

  addPasskey(passkey: Passkey): Promise<void> {
    return this.run((db) => {
      if (!db.users.has(passkey.userId)) throw new Error(`no user ${passkey.userId} to hold the passkey`);
      if (db.passkeys.has(passkey.id)) throw new StoreConflict(`The passkey ${JSON.stringify(passkey.id)} is already registered.`);
      put(db, db.passkeys, passkey.id, copyPasskey(passkey));
    });
  }

  findPasskey(id: string): Promise<Passkey | null> {
    return this.run((db) => {
      const passkey = db.passkeys.get(id);
      return passkey ? copyPasskey(passkey) : null;
    });
  }

  listPasskeys(userId: string): Promise<Passkey[]> {
    return this.run((db) =>
      [...db.passkeys.values()]
        .filter((passkey) => passkey.userId === userId)
        .sort((a, b) => a.createdAt - b.createdAt || byText(a.id, b.id))
        .map(copyPasskey),
    );
  }

  usePasskey(id: string, counter: number, at: number): Promise<void> {
    return this.run((db) => {
      const passkey = db.passkeys.get(id);
      if (passkey) put(db, db.passkeys, id, { ...passkey, counter, lastUsedAt: at });
    });
  }

  deletePasskey(userId: string, id: string): Promise<boolean> {
    return this.run((db) => db.passkeys.get(id)?.userId === userId && drop(db, db.passkeys, id));
  }

  createChallenge(challenge: Challenge): Promise<void> {
    return this.run((db) => {
      if (challenge.userId !== null && !db.users.has(challenge.userId)) throw new Error(`no user ${challenge.userId} to hold the challenge`);
      put(db, db.challenges, challenge.challenge, { ...challenge });
    });
  }

  takeChallenge(challenge: string, now: number): Promise<Challenge | null> {
    return this.run((db) => {
      const taken = db.challenges.get(challenge);
      drop(db, db.challenges, challenge);
      return taken !== undefined && taken.expiresAt > now ? { ...taken } : null;
    });
  }

  createPanelSession(session: PanelSession): Promise<void> {
    return this.run((db) => {
      if (!db.users.has(session.userId)) throw new Error(`no user ${session.userId} to hold the session`);
      put(db, db.panelSessions, session.hash, { ...session });
    });
  }

  getPanelSession(hash: string, now: number): Promise<{ session: PanelSession; user: User } | null> {
    return this.run((db) => {
      const session = db.panelSessions.get(hash);
      if (session === undefined || session.expiresAt <= now) return null;
      return { session: { ...session }, user: { ...db.users.get(session.userId)! } };
    });
  }

  reauthenticate(hash: string, at: number): Promise<void> {
    return this.run((db) => {
      const session = db.panelSessions.get(hash);
      if (session) put(db, db.panelSessions, hash, { ...session, authenticatedAt: at });
    });
  }

  listPanelSessions(userId: string, now: number): Promise<PanelSession[]> {
    return this.run((db) =>
      [...db.panelSessions.values()]
        .filter((session) => session.userId === userId && session.expiresAt > now)
        .sort((a, b) => a.createdAt - b.createdAt || byText(a.hash, b.hash))
        .map((session) => ({ ...session })),
    );
  }

  deletePanelSession(hash: string): Promise<void> {
    return this.run((db) => void drop(db, db.panelSessions, hash));
  }

  deleteUserSessions(userId: string, except?: string): Promise<number> {
    return this.run((db) => {
      let ended = 0;
      for (const [hash, session] of db.panelSessions) if (session.userId === userId && hash !== except && drop(db, db.panelSessions, hash)) ended++;
      return ended;
    });
  }

  sweep(time: number): Promise<void> {
    return this.run((db) => {
      for (const [hash, session] of db.panelSessions) if (session.expiresAt < time) drop(db, db.panelSessions, hash);
      for (const [hash, link] of db.links) if (link.expiresAt < time || (link.usedAt !== null && link.usedAt < time)) drop(db, db.links, hash);
      for (const [challenge, held] of db.challenges) if (held.expiresAt < time) drop(db, db.challenges, challenge);
    });
  }

  startRotation(rotation: Omit<Rotation, 'finishedAt'>): Promise<void> {
    return this.run((db) => {
      for (const id of [rotation.oldKeyId, rotation.newKeyId]) if (!db.keys.has(id)) throw new Error(`no key ${id} to rotate`);
      const id = `${rotation.oldKeyId} ${rotation.newKeyId}`;
      if (db.rotations.has(id)) throw new StoreConflict(`The key ${rotation.oldKeyId} is already being rotated to ${rotation.newKeyId}.`);
      put(db, db.rotations, id, { ...rotation, finishedAt: null });
    });
  }

  finishRotation(oldKeyId: string, at: number): Promise<number> {
    return this.run((db) => {
      let finished = 0;
      for (const [id, rotation] of db.rotations) {
        if (rotation.oldKeyId !== oldKeyId || rotation.finishedAt !== null) continue;
        put(db, db.rotations, id, { ...rotation, finishedAt: at });
        finished++;
      }
      return finished;
    });
  }

  listRotations(accountId: string): Promise<Rotation[]> {
    return this.run((db) =>
      [...db.rotations.values()]
        .filter((rotation) => db.keys.get(rotation.oldKeyId)?.key.accountId === accountId)
        .sort((a, b) => b.startedAt - a.startedAt || byText(a.oldKeyId, b.oldKeyId) || byText(a.newKeyId, b.newKeyId))
        .map((rotation) => ({ ...rotation })),
    );
  }

  recordKeyUses(uses: readonly KeyUse[]): Promise<void> {
    return this.run((db) => {
      const latest = latestUses(uses);
      // All or nothing, as the other engines' one statement: every key is checked before any write.
      for (const use of latest) if (!db.keys.has(use.keyId)) throw new Error(`no key ${use.keyId} to record a use of`);
      for (const use of latest) {
        const known = db.keyUses.get(use.keyId);
        if (known === undefined || use.at > known.at) put(db, db.keyUses, use.keyId, { ...use });
      }
    });
  }

  keyUses(accountId: string): Promise<KeyUse[]> {
    return this.run((db) =>
      [...db.keyUses.values()]
        .filter((use) => db.keys.get(use.keyId)?.key.accountId === accountId)
        .sort((a, b) => b.at - a.at || byText(a.keyId, b.keyId))
        .map((use) => ({ ...use })),
    );
  }
}

/** The link at `hash` while it works: unused, unexpired at `now`. */
function openLink(db: MemoryDatabase, hash: string, now: number): (NewLink & { usedAt: number | null }) | null {
  const link = db.links.get(hash);
  return link !== undefined && link.usedAt === null && link.expiresAt > now ? link : null;
}

function changeUser(db: MemoryDatabase, id: string, change: Partial<User>): User {
  const user = { ...db.users.get(id)!, ...change };
  put(db, db.users, id, user);
  return { ...user };
}
