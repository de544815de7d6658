/**
 * The SQLite adapter of the panel store (panel-store.ts), on the connection of the SqliteStore that
 * holds it, with its errors translated as that store's are. What must be atomic across processes is
 * one statement — using a link is an UPDATE … RETURNING that only an open link passes, taking a
 * challenge a DELETE … RETURNING — or one transaction, so the server and the operator CLI may race.
 */
import type Database from 'better-sqlite3';
import { newId } from '../ids.ts';
import { SqliteHeldInvitations } from './sqlite-held.ts';
import { latestUses, storedEmail, type Challenge, type KeyUse, type LinkPurpose, type NewLink, type PanelSession, type PanelStore, type Passkey, type Rotation, type User } from '../panel-store.ts';
import {
  beforeAndAfter, challenge, keyUse, panelSession, passkey, rotation, sessionUser, SESSION_USER_COLUMNS, user,
  type ChallengeRow, type KeyUseRow, type PanelSessionRow, type PasskeyRow, type RotationRow, type SessionUserRow, type UserRow,
} from './sqlite-rows.ts';
import { CapReached, StoreConflict, type Updated } from '../store.ts';

/** The SqliteStore's unit of work: SQLite's errors of a machine at fault leave as StoreUnavailable. */
type Run = <T>(work: () => T) => Promise<T>;

/** `work`, with a unique value taken (an e-mail address, a credential id) as StoreConflict saying `message`. */
function unique<T>(work: () => T, message: string): T {
  try {
    return work();
  } catch (error) {
    if (/^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test((error as { code?: string }).code ?? '')) throw new StoreConflict(message);
    throw error;
  }
}

export class SqlitePanelStore implements PanelStore {
  private readonly q;
  private readonly sweepAll;
  private readonly recordAll;
  private readonly removeAll;

  readonly held: SqliteHeldInvitations;

  constructor(private readonly db: Database.Database, private readonly run: Run) {
    this.held = new SqliteHeldInvitations(db, run);
    this.q = {
      insertUser: db.prepare('INSERT INTO users (id, account_id, email, operator, created_at) VALUES (?, ?, ?, ?, ?)'),
      pendingUsers: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM users WHERE account_id = ? AND activated_at IS NULL'),
      userById: db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?'),
      userByEmail: db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?'),
      usersOf: db.prepare<[string], UserRow>('SELECT * FROM users WHERE account_id = ? ORDER BY created_at, email'),
      setOperator: db.prepare('UPDATE users SET operator = ? WHERE email = ?'),
      setPassword: db.prepare<[string | null, number, string], UserRow>(
        'UPDATE users SET password_hash = ?, activated_at = coalesce(activated_at, ?) WHERE id = ? RETURNING *',
      ),
      // One open link per user (the index panel_links_open): a new one takes the open one's place.
      insertLink: db.prepare(
        'INSERT INTO panel_links (hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (user_id) WHERE used_at IS NULL DO UPDATE SET hash = excluded.hash, purpose = excluded.purpose, ' +
          'created_at = excluded.created_at, expires_at = excluded.expires_at',
      ),
      openLink: db.prepare<[string, number], { user_id: string; purpose: LinkPurpose }>(
        'SELECT user_id, purpose FROM panel_links WHERE hash = ? AND used_at IS NULL AND expires_at > ?',
      ),
      useLink: db.prepare<[number, string, number], { user_id: string; purpose: LinkPurpose }>(
        'UPDATE panel_links SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id, purpose',
      ),
      insertPasskey: db.prepare(
        'INSERT INTO passkeys (id, user_id, public_key, counter, transports, name, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      passkey: db.prepare<[string], PasskeyRow>('SELECT * FROM passkeys WHERE id = ?'),
      passkeysOf: db.prepare<[string], PasskeyRow>('SELECT * FROM passkeys WHERE user_id = ? ORDER BY created_at, id'),
      usePasskey: db.prepare('UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?'),
      deletePasskey: db.prepare('DELETE FROM passkeys WHERE id = ? AND user_id = ?'),
      insertChallenge: db.prepare('INSERT INTO webauthn_challenges (challenge, purpose, user_id, expires_at) VALUES (?, ?, ?, ?)'),
      takeChallenge: db.prepare<[string], ChallengeRow>('DELETE FROM webauthn_challenges WHERE challenge = ? RETURNING *'),
      insertSession: db.prepare(
        'INSERT INTO panel_sessions (hash, user_id, created_at, expires_at, authenticated_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      session: db.prepare<[string, number], SessionUserRow>(
        `SELECT s.*, ${SESSION_USER_COLUMNS} FROM panel_sessions s JOIN users u ON u.id = s.user_id WHERE s.hash = ? AND s.expires_at > ?`,
      ),
      reauthenticate: db.prepare('UPDATE panel_sessions SET authenticated_at = ? WHERE hash = ?'),
      sessionsOf: db.prepare<[string, number], PanelSessionRow>(
        'SELECT * FROM panel_sessions WHERE user_id = ? AND expires_at > ? ORDER BY created_at, hash',
      ),
      deleteSession: db.prepare('DELETE FROM panel_sessions WHERE hash = ?'),
      deleteUserSessions: db.prepare('DELETE FROM panel_sessions WHERE user_id = ? AND hash IS NOT ?'),
      sweepSessions: db.prepare('DELETE FROM panel_sessions WHERE expires_at < ?'),
      sweepLinks: db.prepare<[number, number]>('DELETE FROM panel_links WHERE expires_at < ? OR used_at < ?'),
      sweepChallenges: db.prepare('DELETE FROM webauthn_challenges WHERE expires_at < ?'),
      insertRotation: db.prepare('INSERT INTO key_rotations (old_key_id, new_key_id, started_at) VALUES (?, ?, ?)'),
      finishRotation: db.prepare('UPDATE key_rotations SET finished_at = ? WHERE old_key_id = ? AND finished_at IS NULL'),
      rotationsOf: db.prepare<[string], RotationRow>(
        'SELECT r.* FROM key_rotations r JOIN api_keys k ON k.id = r.old_key_id WHERE k.account_id = ? ORDER BY r.started_at DESC, r.old_key_id, r.new_key_id',
      ),
      // Only a later use replaces the one kept: batches of several servers may arrive in any order.
      recordUse: db.prepare(
        'INSERT INTO key_last_use (key_id, at, origin, ip) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (key_id) DO UPDATE SET at = excluded.at, origin = excluded.origin, ip = excluded.ip WHERE excluded.at > key_last_use.at',
      ),
      usesOf: db.prepare<[string], KeyUseRow>(
        'SELECT u.* FROM key_last_use u JOIN api_keys k ON k.id = u.key_id WHERE k.account_id = ? ORDER BY u.at DESC, u.key_id',
      ),
    };
    this.sweepAll = db.transaction((time: number) => {
      this.q.sweepSessions.run(time);
      this.q.sweepLinks.run(time, time);
      this.q.sweepChallenges.run(time);
    });
    // Everything that signs the user in goes with the user, in one transaction.
    const removals = ['panel_sessions', 'passkeys', 'panel_links', 'webauthn_challenges', 'users'].map((table) =>
      db.prepare(`DELETE FROM ${table} WHERE ${table === 'users' ? 'id' : 'user_id'} = ?`));
    this.removeAll = db.transaction((id: string): User | null => {
      const row = this.q.userById.get(id);
      for (const removal of removals) removal.run(id);
      return row ? user(row) : null;
    });
    this.recordAll = db.transaction((uses: KeyUse[]) => {
      for (const use of uses) this.q.recordUse.run(use.keyId, use.at, use.origin, use.ip);
    });
  }

  createUser(input: { accountId: string; email: string; operator: boolean; createdAt: number }, cap?: number): Promise<User> {
    // Counted and inserted under the write lock: two invitations at once cannot both take the last place.
    return this.run(() => this.db.transaction(() => {
      if (cap !== undefined && this.q.pendingUsers.get(input.accountId)!.n >= cap) throw new CapReached(`the account has ${cap} pending invitations`);
      const email = storedEmail(input.email);
      const id = newId('usr');
      unique(
        () => this.q.insertUser.run(id, input.accountId, email, input.operator ? 1 : 0, input.createdAt),
        `A user with the e-mail address ${JSON.stringify(email)} already exists.`,
      );
      return { id, accountId: input.accountId, email, operator: input.operator, passwordHash: null, createdAt: input.createdAt, activatedAt: null };
    }).immediate());
  }

  removeUser(id: string): Promise<User | null> {
    return this.run(() => this.removeAll.immediate(id));
  }

  getUser(id: string): Promise<User | null> {
    return this.run(() => {
      const row = this.q.userById.get(id);
      return row ? user(row) : null;
    });
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.run(() => {
      const row = this.q.userByEmail.get(storedEmail(email));
      return row ? user(row) : null;
    });
  }

  listUsers(accountId: string): Promise<User[]> {
    return this.run(() => this.q.usersOf.all(accountId).map(user));
  }

  setOperator(email: string, operator: boolean): Promise<Updated<User> | null> {
    const stored = storedEmail(email);
    const read = () => {
      const row = this.q.userByEmail.get(stored);
      return row ? user(row) : null;
    };
    return this.run(() => beforeAndAfter(this.db, read, () => this.q.setOperator.run(operator ? 1 : 0, stored)));
  }

  setPassword(userId: string, passwordHash: string | null, now: number): Promise<User | null> {
    return this.run(() => {
      const row = this.q.setPassword.get(passwordHash, now, userId);
      return row ? user(row) : null;
    });
  }

  async createLink(link: NewLink): Promise<void> {
    await this.run(() => this.q.insertLink.run(link.hash, link.userId, link.purpose, link.createdAt, link.expiresAt));
  }

  findLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null> {
    return this.run(() => this.withUser(this.q.openLink.get(hash, now)));
  }

  useLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null> {
    return this.run(() => this.withUser(this.q.useLink.get(now, hash, now)));
  }

  /** A link's purpose and user; null for no link. */
  private withUser(link: { user_id: string; purpose: LinkPurpose } | undefined): { user: User; purpose: LinkPurpose } | null {
    return link ? { user: user(this.q.userById.get(link.user_id)!), purpose: link.purpose } : null;
  }

  async addPasskey(key: Passkey): Promise<void> {
    await this.run(() =>
      unique(
        () => this.q.insertPasskey.run(key.id, key.userId, key.publicKey, key.counter, JSON.stringify(key.transports), key.name, key.createdAt, key.lastUsedAt),
        `The passkey ${JSON.stringify(key.id)} is already registered.`,
      ),
    );
  }

  findPasskey(id: string): Promise<Passkey | null> {
    return this.run(() => {
      const row = this.q.passkey.get(id);
      return row ? passkey(row) : null;
    });
  }

  listPasskeys(userId: string): Promise<Passkey[]> {
    return this.run(() => this.q.passkeysOf.all(userId).map(passkey));
  }

  async usePasskey(id: string, counter: number, at: number): Promise<void> {
    await this.run(() => this.q.usePasskey.run(counter, at, id));
  }

  deletePasskey(userId: string, id: string): Promise<boolean> {
    return this.run(() => this.q.deletePasskey.run(id, userId).changes > 0);
  }

  async createChallenge(input: Challenge): Promise<void> {
    await this.run(() => this.q.insertChallenge.run(input.challenge, input.purpose, input.userId, input.expiresAt));
  }

  takeChallenge(value: string, now: number): Promise<Challenge | null> {
    return this.run(() => {
      // Taken even when expired: it is of no use any more.
      const row = this.q.takeChallenge.get(value);
      return row && row.expires_at > now ? challenge(row) : null;
    });
  }

  async createPanelSession(session: PanelSession): Promise<void> {
    await this.run(() =>
      this.q.insertSession.run(session.hash, session.userId, session.createdAt, session.expiresAt, session.authenticatedAt, session.ip, session.userAgent),
    );
  }

  getPanelSession(hash: string, now: number): Promise<{ session: PanelSession; user: User } | null> {
    return this.run(() => {
      const row = this.q.session.get(hash, now);
      return row ? { session: panelSession(row), user: sessionUser(row) } : null;
    });
  }

  async reauthenticate(hash: string, at: number): Promise<void> {
    await this.run(() => this.q.reauthenticate.run(at, hash));
  }

  listPanelSessions(userId: string, now: number): Promise<PanelSession[]> {
    return this.run(() => this.q.sessionsOf.all(userId, now).map(panelSession));
  }

  async deletePanelSession(hash: string): Promise<void> {
    await this.run(() => this.q.deleteSession.run(hash));
  }

  deleteUserSessions(userId: string, except?: string): Promise<number> {
    return this.run(() => this.q.deleteUserSessions.run(userId, except ?? null).changes);
  }

  async sweep(time: number): Promise<void> {
    await this.run(() => this.sweepAll.immediate(time));
  }

  async startRotation(input: Omit<Rotation, 'finishedAt'>): Promise<void> {
    await this.run(() =>
      unique(
        () => this.q.insertRotation.run(input.oldKeyId, input.newKeyId, input.startedAt),
        `The key ${input.oldKeyId} is already being rotated to ${input.newKeyId}.`,
      ),
    );
  }

  finishRotation(oldKeyId: string, at: number): Promise<number> {
    return this.run(() => this.q.finishRotation.run(at, oldKeyId).changes);
  }

  listRotations(accountId: string): Promise<Rotation[]> {
    return this.run(() => this.q.rotationsOf.all(accountId).map(rotation));
  }

  async recordKeyUses(uses: readonly KeyUse[]): Promise<void> {
    const latest = latestUses(uses);
    if (latest.length > 0) await this.run(() => this.recordAll.immediate(latest));
  }

  keyUses(accountId: string): Promise<KeyUse[]> {
    return this.run(() => this.q.usesOf.all(accountId).map(keyUse));
  }
}
