/**
 * The PostgreSQL adapter of the panel store (panel-store.ts), through the queries of the PostgresStore
 * that holds it: each method one statement, so that what must be atomic across processes and
 * machines is. Using a link is an UPDATE that only an open link passes — of concurrent ones, the
 * others find it used once the first commits —, taking a challenge a DELETE … RETURNING, a new link
 * an upsert on the user's one open link, a batch of key uses one upsert that keeps the later use.
 * Look-ups by what a browser or an operator typed find nothing for a U+0000, without a query.
 */
import { newId } from '../ids.ts';
import { PostgresHeldInvitations } from './postgres-held.ts';
import { latestUses, storedEmail, type Challenge, type KeyUse, type LinkPurpose, type NewLink, type PanelSession, type PanelStore, type Passkey, type Rotation, type User } from '../panel-store.ts';
import {
  challenge, keyUse, panelSession, passkey, rotation, sessionUser, SESSION_USER_COLUMNS, unstorable, updated, updateReturningBefore, user,
  type ChallengeRow, type KeyUseRow, type PanelSessionRow, type PasskeyRow, type RotationRow, type SessionUserRow, type UserRow,
} from './postgres-rows.ts';
import { CapReached, StoreConflict, type Updated } from '../store.ts';
import type { Query } from './postgres-pool.ts';

/** Runs `work` in one transaction, its statements through the query it is given. */
type Transaction = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

type LinkUserRow = UserRow & { purpose: LinkPurpose };

export class PostgresPanelStore implements PanelStore {
  readonly held: PostgresHeldInvitations;

  constructor(private readonly query: Query, private readonly transaction: Transaction) {
    this.held = new PostgresHeldInvitations(query);
  }

  /** `work`, with a unique value taken (23505) as StoreConflict saying `message`. */
  private async unique<T>(work: Promise<T>, message: string): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new StoreConflict(message);
      throw error;
    }
  }

  /**
   * Held to a cap, the account's row is locked first and the pending users counted in a statement of
   * their own, which sees what the last holder of the lock committed: two invitations at once cannot
   * both take the last place.
   */
  createUser(input: { accountId: string; email: string; operator: boolean; createdAt: number }, cap?: number): Promise<User> {
    if (cap === undefined) return this.insertUser(this.query, input);
    return this.transaction(async (query) => {
      await query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [input.accountId], 'lock-account');
      const { rows: [pending] } = await query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM users WHERE account_id = $1 AND activated_at IS NULL', [input.accountId], 'panel-pending-users',
      );
      if (pending.n >= cap) throw new CapReached(`the account has ${cap} pending invitations`);
      return this.insertUser(query, input);
    });
  }

  private async insertUser(query: Query, input: { accountId: string; email: string; operator: boolean; createdAt: number }): Promise<User> {
    const email = storedEmail(input.email);
    const { rows: [row] } = await this.unique(
      query<UserRow>(
        'INSERT INTO users (id, account_id, email, operator, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
        [newId('usr'), input.accountId, email, input.operator, input.createdAt],
        'panel-insert-user',
      ),
      `A user with the e-mail address ${JSON.stringify(email)} already exists.`,
    );
    return user(row);
  }

  async getUser(id: string): Promise<User | null> {
    if (unstorable(id)) return null;
    const { rows: [row] } = await this.query<UserRow>('SELECT * FROM users WHERE id = $1', [id], 'panel-user-by-id');
    return row ? user(row) : null;
  }

  async findUserByEmail(email: string): Promise<User | null> {
    if (unstorable(email)) return null;
    const { rows: [row] } = await this.query<UserRow>('SELECT * FROM users WHERE email = $1', [storedEmail(email)], 'panel-user-by-email');
    return row ? user(row) : null;
  }

  async listUsers(accountId: string): Promise<User[]> {
    const { rows } = await this.query<UserRow>('SELECT * FROM users WHERE account_id = $1 ORDER BY created_at, email COLLATE "C"', [accountId], 'panel-users-of');
    return rows.map(user);
  }

  async setOperator(email: string, operator: boolean): Promise<Updated<User> | null> {
    if (unstorable(email)) return null;
    const { rows: [row] } = await this.query<UserRow & { before: UserRow }>(
      updateReturningBefore('users', 'u', 'operator = $1', 'SELECT * FROM users WHERE email = $2', 'u.*'), [operator, storedEmail(email)], 'panel-set-operator',
    );
    return updated(row, user);
  }

  async setPassword(userId: string, passwordHash: string | null, now: number): Promise<User | null> {
    const { rows: [row] } = await this.query<UserRow>(
      'UPDATE users SET password_hash = $1, activated_at = coalesce(activated_at, $2) WHERE id = $3 RETURNING *', [passwordHash, now, userId], 'panel-set-password',
    );
    return row ? user(row) : null;
  }

  async createLink(link: NewLink): Promise<void> {
    await this.query(
      'INSERT INTO panel_links (hash, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) ' +
        'ON CONFLICT (user_id) WHERE used_at IS NULL DO UPDATE SET hash = excluded.hash, purpose = excluded.purpose, ' +
        'created_at = excluded.created_at, expires_at = excluded.expires_at',
      [link.hash, link.userId, link.purpose, link.createdAt, link.expiresAt],
      'panel-insert-link',
    );
  }

  async findLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null> {
    const { rows: [row] } = await this.query<LinkUserRow>(
      'SELECT l.purpose, u.* FROM panel_links l JOIN users u ON u.id = l.user_id WHERE l.hash = $1 AND l.used_at IS NULL AND l.expires_at > $2',
      [hash, now],
      'panel-find-link',
    );
    return row ? { user: user(row), purpose: row.purpose } : null;
  }

  async useLink(hash: string, now: number): Promise<{ user: User; purpose: LinkPurpose } | null> {
    const { rows: [row] } = await this.query<LinkUserRow>(
      'WITH used AS (UPDATE panel_links SET used_at = $2 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id, purpose) ' +
        'SELECT used.purpose, u.* FROM used JOIN users u ON u.id = used.user_id',
      [hash, now],
      'panel-use-link',
    );
    return row ? { user: user(row), purpose: row.purpose } : null;
  }

  async addPasskey(key: Passkey): Promise<void> {
    await this.unique(
      this.query(
        'INSERT INTO passkeys (id, user_id, public_key, counter, transports, name, created_at, last_used_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [key.id, key.userId, key.publicKey, key.counter, key.transports, key.name, key.createdAt, key.lastUsedAt],
        'panel-insert-passkey',
      ),
      `The passkey ${JSON.stringify(key.id)} is already registered.`,
    );
  }

  async findPasskey(id: string): Promise<Passkey | null> {
    if (unstorable(id)) return null;
    const { rows: [row] } = await this.query<PasskeyRow>('SELECT * FROM passkeys WHERE id = $1', [id], 'panel-passkey');
    return row ? passkey(row) : null;
  }

  async listPasskeys(userId: string): Promise<Passkey[]> {
    const { rows } = await this.query<PasskeyRow>('SELECT * FROM passkeys WHERE user_id = $1 ORDER BY created_at, id COLLATE "C"', [userId], 'panel-passkeys-of');
    return rows.map(passkey);
  }

  async usePasskey(id: string, counter: number, at: number): Promise<void> {
    if (unstorable(id)) return;
    await this.query('UPDATE passkeys SET counter = $2, last_used_at = $3 WHERE id = $1', [id, counter, at], 'panel-use-passkey');
  }

  async deletePasskey(userId: string, id: string): Promise<boolean> {
    if (unstorable(id)) return false;
    return ((await this.query('DELETE FROM passkeys WHERE id = $1 AND user_id = $2', [id, userId], 'panel-delete-passkey')).rowCount ?? 0) > 0;
  }

  async createChallenge(input: Challenge): Promise<void> {
    await this.query(
      'INSERT INTO webauthn_challenges (challenge, purpose, user_id, expires_at) VALUES ($1, $2, $3, $4)',
      [input.challenge, input.purpose, input.userId, input.expiresAt],
      'panel-insert-challenge',
    );
  }

  async takeChallenge(value: string, now: number): Promise<Challenge | null> {
    if (unstorable(value)) return null;
    // Taken even when expired: it is of no use any more.
    const { rows: [row] } = await this.query<ChallengeRow>('DELETE FROM webauthn_challenges WHERE challenge = $1 RETURNING *', [value], 'panel-take-challenge');
    return row && row.expires_at > now ? challenge(row) : null;
  }

  async createPanelSession(session: PanelSession): Promise<void> {
    await this.query(
      'INSERT INTO panel_sessions (hash, user_id, created_at, expires_at, authenticated_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [session.hash, session.userId, session.createdAt, session.expiresAt, session.authenticatedAt, session.ip, session.userAgent],
      'panel-insert-session',
    );
  }

  async getPanelSession(hash: string, now: number): Promise<{ session: PanelSession; user: User } | null> {
    const { rows: [row] } = await this.query<SessionUserRow>(
      `SELECT s.*, ${SESSION_USER_COLUMNS} FROM panel_sessions s JOIN users u ON u.id = s.user_id WHERE s.hash = $1 AND s.expires_at > $2`,
      [hash, now],
      'panel-session',
    );
    return row ? { session: panelSession(row), user: sessionUser(row) } : null;
  }

  async reauthenticate(hash: string, at: number): Promise<void> {
    await this.query('UPDATE panel_sessions SET authenticated_at = $2 WHERE hash = $1', [hash, at], 'panel-reauthenticate');
  }

  async listPanelSessions(userId: string, now: number): Promise<PanelSession[]> {
    const { rows } = await this.query<PanelSessionRow>(
      'SELECT * FROM panel_sessions WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at, hash COLLATE "C"', [userId, now], 'panel-sessions-of',
    );
    return rows.map(panelSession);
  }

  async deletePanelSession(hash: string): Promise<void> {
    await this.query('DELETE FROM panel_sessions WHERE hash = $1', [hash], 'panel-delete-session');
  }

  async removeUser(id: string): Promise<User | null> {
    if (unstorable(id)) return null;
    // One statement: everything that signs the user in goes with the user, or nothing does.
    const { rows: [row] } = await this.query<UserRow>(
      'WITH sessions AS (DELETE FROM panel_sessions WHERE user_id = $1), passkeys AS (DELETE FROM passkeys WHERE user_id = $1), ' +
        'links AS (DELETE FROM panel_links WHERE user_id = $1), challenges AS (DELETE FROM webauthn_challenges WHERE user_id = $1) ' +
        'DELETE FROM users WHERE id = $1 RETURNING *',
      [id],
      'panel-remove-user',
    );
    return row ? user(row) : null;
  }

  async deleteUserSessions(userId: string, except?: string): Promise<number> {
    const { rowCount } = await this.query(
      'DELETE FROM panel_sessions WHERE user_id = $1 AND hash IS DISTINCT FROM $2', [userId, except ?? null], 'panel-delete-user-sessions',
    );
    return rowCount ?? 0;
  }

  async sweep(time: number): Promise<void> {
    await this.query(
      'WITH sessions AS (DELETE FROM panel_sessions WHERE expires_at < $1), links AS (DELETE FROM panel_links WHERE expires_at < $1 OR used_at < $1) ' +
        'DELETE FROM webauthn_challenges WHERE expires_at < $1',
      [time],
      'panel-sweep',
    );
  }

  async startRotation(input: Omit<Rotation, 'finishedAt'>): Promise<void> {
    await this.unique(
      this.query(
        'INSERT INTO key_rotations (old_key_id, new_key_id, started_at) VALUES ($1, $2, $3)', [input.oldKeyId, input.newKeyId, input.startedAt], 'panel-insert-rotation',
      ),
      `The key ${input.oldKeyId} is already being rotated to ${input.newKeyId}.`,
    );
  }

  async finishRotation(oldKeyId: string, at: number): Promise<number> {
    const { rowCount } = await this.query(
      'UPDATE key_rotations SET finished_at = $2 WHERE old_key_id = $1 AND finished_at IS NULL', [oldKeyId, at], 'panel-finish-rotation',
    );
    return rowCount ?? 0;
  }

  async listRotations(accountId: string): Promise<Rotation[]> {
    const { rows } = await this.query<RotationRow>(
      'SELECT r.* FROM key_rotations r JOIN api_keys k ON k.id = r.old_key_id WHERE k.account_id = $1 ' +
        'ORDER BY r.started_at DESC, r.old_key_id COLLATE "C", r.new_key_id COLLATE "C"',
      [accountId],
      'panel-rotations-of',
    );
    return rows.map(rotation);
  }

  async recordKeyUses(uses: readonly KeyUse[]): Promise<void> {
    const latest = latestUses(uses);
    if (latest.length === 0) return;
    // Rows in key order, so that two servers' batches lock the rows they share in the same order, never
    // crosswise; only a later use replaces the one kept, as batches may arrive in any order.
    await this.query(
      'INSERT INTO key_last_use AS kept (key_id, at, origin, ip) ' +
        'SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) AS u (key_id, at, origin, ip) ORDER BY key_id ' +
        'ON CONFLICT (key_id) DO UPDATE SET at = excluded.at, origin = excluded.origin, ip = excluded.ip WHERE excluded.at > kept.at',
      [latest.map((use) => use.keyId), latest.map((use) => use.at), latest.map((use) => use.origin), latest.map((use) => use.ip)],
      'panel-record-key-uses',
    );
  }

  async keyUses(accountId: string): Promise<KeyUse[]> {
    const { rows } = await this.query<KeyUseRow>(
      'SELECT u.* FROM key_last_use u JOIN api_keys k ON k.id = u.key_id WHERE k.account_id = $1 ORDER BY u.at DESC, u.key_id COLLATE "C"',
      [accountId],
      'panel-key-uses-of',
    );
    return rows.map(keyUse);
  }
}
