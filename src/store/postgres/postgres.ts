/**
 * The PostgreSQL adapter of the store port, chosen by LOC_DATABASE_URL: the shared store that several
 * loc processes, on one machine or several, can use together. It behaves as the SQLite adapter
 * does, pinned by the same conformance suite; what differs between the engines is settled here:
 *
 * - every method is one statement, without a transaction, through a pool of connections; named
 *   statements are prepared once per connection;
 * - times are bigint milliseconds, read back as Numbers (every loc time is far below 2^53);
 * - lists sort as SQLite sorts them, by bytes (`COLLATE "C"`), not by the database's locale;
 * - PostgreSQL refuses U+0000 in text (22021) where SQLite stores it: a look-up by a key that holds
 *   one answers null without a query, as SQLite finds no such row (an embed `:sid` may carry `%00`);
 * - a statement gets 5 s (`statement_timeout`), as SQLite's `busy_timeout`, then is busy;
 * - errors of the database or the network at fault leave as StoreUnavailable (postgres-errors.ts),
 *   `unreachable` among them: the server answers 503 with Retry-After, never a raw error.
 */
import type pg from 'pg';
import { newId } from '../ids.ts';
import { translatePostgresError } from './postgres-errors.ts';
import { inTransaction, newPool, redactUrl, type Query } from './postgres-pool.ts';
import { migrate } from './postgres-migrations.ts';
import {
  account, accountLimits, key, KEY_COLUMNS, location, LOCATION_COLUMNS, LOCATION_TABLE, unstorable, updated, updateReturningBefore, type AccountRow, type KeyRow,
  type LocationRow, type SessionRow,
} from './postgres-rows.ts';
import { PostgresAuditStore } from './postgres-audit.ts';
import { locationReads, type LocationRead } from './location-reads.ts';
import { PostgresKeys } from './postgres-keys.ts';
import { PostgresPanelStore } from './postgres-panel.ts';
import { PostgresUsageStore } from './postgres-usage.ts';
import {
  StoreConflict,
  type Account,
  type ApiKey,
  type EmbedSession,
  type KeyLimits,
  type KeyList,
  type KeyListChange,
  type KeyMode,
  type KeyStatus,
  type NewKey,
  type NewSession,
  type OpenStoreOptions,
  type PoolStats,
  type SavedLocation,
  type Store,
  type Updated,
} from '../store.ts';

/** The ceiling's columns of an account row, by the limit each caps. */
const CEILING_COLUMN: Record<keyof KeyLimits, string> = {
  hourlyLimit: 'ceiling_hourly_limit', embedHourlyLimit: 'ceiling_embed_hourly_limit', sessionLimit: 'ceiling_session_limit',
};
/**
 * Opens the database at `url` (postgres://…), migrating it as needed; with `create: false` a
 * database where loc never ran is NoDatabase. A database that cannot be reached or opened is a
 * StoreUnavailable, so that `loc serve` can refuse to start with one line instead of a stack trace.
 */
export async function openPostgresStore(url: string, { create = true }: OpenStoreOptions = {}, poolSize?: number): Promise<PostgresStore> {
  const pool = await newPool(url, { max: poolSize });
  try {
    const client = await pool.connect();
    try {
      await migrate(client, redactUrl(url), create);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw translatePostgresError(error);
  }
  return new PostgresStore(pool);
}

export class PostgresStore implements Store {
  private closed = false;
  readonly engine = 'postgres';
  readonly panel: PostgresPanelStore;
  readonly usage: PostgresUsageStore;
  readonly audit: PostgresAuditStore;
  private readonly keys: PostgresKeys;
  /** Saved-location reads, gathered into a statement per account under load. */
  private readonly readLocation: (read: LocationRead) => Promise<SavedLocation | null>;

  constructor(private readonly pool: pg.Pool) {
    const query: typeof this.query = (text, values, name) => this.query(text, values, name);
    const transaction = <T>(work: (query: Query) => Promise<T>) => inTransaction(pool, work);
    this.panel = new PostgresPanelStore(query, transaction);
    this.usage = new PostgresUsageStore(query);
    this.audit = new PostgresAuditStore(query);
    this.keys = new PostgresKeys(query, transaction);
    this.readLocation = locationReads(query);
  }

  /**
   * One statement; PostgreSQL's errors of a machine or network at fault leave as StoreUnavailable.
   * With a `name` it is prepared once per connection and reused.
   */
  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>({ text, values, name });
    } catch (error) {
      throw translatePostgresError(error);
    }
  }

  async createAccount(input: { name: string; partner: boolean; createdAt: number }): Promise<Account> {
    const id = newId('acct');
    try {
      await this.query('INSERT INTO accounts (id, name, partner, created_at) VALUES ($1, $2, $3, $4)', [id, input.name, input.partner, input.createdAt], 'insert-account');
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new StoreConflict(`An account named ${JSON.stringify(input.name)} already exists.`);
      throw error;
    }
    return { id, name: input.name, partner: input.partner, createdAt: input.createdAt };
  }

  async listAccounts(): Promise<Account[]> {
    const { rows } = await this.query<AccountRow>('SELECT * FROM accounts ORDER BY created_at, name COLLATE "C"', [], 'accounts');
    return rows.map(account);
  }

  async findAccount(name: string): Promise<Account | null> {
    if (unstorable(name)) return null;
    const { rows: [row] } = await this.query<AccountRow>('SELECT * FROM accounts WHERE name = $1', [name], 'account-by-name');
    return row ? account(row) : null;
  }

  async getAccount(id: string): Promise<Account | null> {
    if (unstorable(id)) return null;
    const { rows: [row] } = await this.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id], 'account-by-id');
    return row ? account(row) : null;
  }

  async setPartner(name: string, partner: boolean): Promise<Updated<Account> | null> {
    if (unstorable(name)) return null;
    const { rows: [row] } = await this.query<AccountRow & { before: AccountRow }>(
      updateReturningBefore('accounts', 'a', 'partner = $1', 'SELECT * FROM accounts WHERE name = $2', 'a.*'), [partner, name], 'set-partner',
    );
    return updated(row, account);
  }

  async accountLimits(accountId: string): Promise<KeyLimits | null> {
    if (unstorable(accountId)) return null;
    const { rows: [row] } = await this.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [accountId], 'account-by-id');
    return row ? accountLimits(row) : null;
  }

  async setAccountLimits(accountId: string, limits: Partial<KeyLimits>): Promise<Updated<KeyLimits> | null> {
    if (unstorable(accountId)) return null;
    const given = (Object.keys(CEILING_COLUMN) as (keyof KeyLimits)[]).filter((name) => limits[name] !== undefined);
    // Column names from CEILING_COLUMN only; the values are bound. No limit given sets nothing, as the id to itself.
    const sets = given.map((name, i) => `${CEILING_COLUMN[name]} = $${i + 2}`).join(', ') || 'id = a.id';
    const { rows: [row] } = await this.query<AccountRow & { before: AccountRow }>(
      updateReturningBefore('accounts', 'a', sets, 'SELECT * FROM accounts WHERE id = $1', 'a.*'), [accountId, ...given.map((name) => limits[name])],
    );
    return updated(row, accountLimits);
  }

  createKey(input: NewKey, cap?: number): Promise<ApiKey> {
    return this.keys.create(input, cap);
  }

  getKey(id: string): Promise<ApiKey | null> {
    return this.keys.get(id);
  }

  async listKeys(accountId: string): Promise<ApiKey[]> {
    if (unstorable(accountId)) return [];
    const { rows } = await this.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 ORDER BY k.created_at, k.id COLLATE "C"`, [accountId], 'keys-of',
    );
    return rows.map(key);
  }

  async findKeyByHash(hash: string): Promise<{ key: ApiKey; account: Account } | null> {
    if (unstorable(hash)) return null;
    const { rows: [row] } = await this.query<KeyRow & { a_name: string; a_partner: boolean; a_created_at: number }>(
      `SELECT ${KEY_COLUMNS}, a.name AS a_name, a.partner AS a_partner, a.created_at AS a_created_at ` +
        'FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1',
      [hash],
      'key-by-hash',
    );
    if (!row) return null;
    return { key: key(row), account: { id: row.account_id, name: row.a_name, partner: row.a_partner, createdAt: row.a_created_at } };
  }

  setKeyStatus(id: string, status: KeyStatus, cap?: number): Promise<Updated<ApiKey> | null> {
    return this.keys.setStatus(id, status, cap);
  }

  setKeyLimits(id: string, limits: Partial<KeyLimits>): Promise<Updated<ApiKey> | null> {
    return this.keys.setLimits(id, limits);
  }

  updateKeyList(id: string, list: KeyList, change: KeyListChange): Promise<Updated<ApiKey> | null> {
    return this.keys.updateList(id, list, change);
  }

  async createSession(input: NewSession): Promise<void> {
    await this.query(
      'INSERT INTO sessions (sid, secret_hash, key_id, origin, created_at, expires_at, countries, bounds) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [
        input.sid, input.secretHash, input.keyId, input.origin, input.createdAt, input.expiresAt, input.countries ?? null,
        input.bounds == null ? null : JSON.stringify(input.bounds),
      ],
      'insert-session',
    );
  }

  async getSession(sid: string): Promise<EmbedSession | null> {
    if (unstorable(sid)) return null;
    const { rows: [row] } = await this.query<SessionRow>(
      'SELECT s.*, k.account_id, k.status, a.partner FROM sessions s JOIN api_keys k ON k.id = s.key_id ' +
        'JOIN accounts a ON a.id = k.account_id WHERE s.sid = $1',
      [sid],
      'session',
    );
    if (!row) return null;
    return {
      sid: row.sid, secretHash: row.secret_hash, keyId: row.key_id, accountId: row.account_id, origin: row.origin, createdAt: row.created_at,
      expiresAt: row.expires_at, keyActive: row.status === 'active', accountPartner: row.partner, countries: row.countries, bounds: row.bounds,
    };
  }

  async deleteSessionsExpiredBefore(time: number): Promise<number> {
    return (await this.query('DELETE FROM sessions WHERE expires_at < $1', [time], 'delete-sessions')).rowCount ?? 0;
  }

  async saveLocation(input: SavedLocation): Promise<{ location: SavedLocation; created: boolean }> {
    const table = LOCATION_TABLE[input.mode];
    // The insert decides which save was first: of concurrent ones, the others wait for its commit and
    // insert nothing. They then read the row in statements of their own: one statement (a CTE) would
    // read from a snapshot taken before that commit, and miss the row.
    const { rows: [inserted] } = await this.query<LocationRow>(
      `INSERT INTO ${table} (${LOCATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, code) DO NOTHING RETURNING *`,
      [input.accountId, input.code, input.latitude, input.longitude, input.address, input.label, input.createdAt],
      `insert-${table}`,
    );
    if (inserted) return { location: location(inserted, input.mode), created: true };
    if (input.address !== null || input.label !== null) {
      // Fills in what the stored location lacks, never replaces what it has (Store.saveLocation).
      const { rows: [filled] } = await this.query<LocationRow>(
        `UPDATE ${table} SET address = coalesce(address, $3::text), label = coalesce(label, $4::text) WHERE account_id = $1 AND code = $2 ` +
          'AND ((address IS NULL AND $3::text IS NOT NULL) OR (label IS NULL AND $4::text IS NOT NULL)) RETURNING *',
        [input.accountId, input.code, input.address, input.label],
        `fill-${table}`,
      );
      if (filled) return { location: location(filled, input.mode), created: false };
    }
    const found = await this.findLocation(input.accountId, input.mode, input.code);
    // Gone since the insert found it (a test key's saves wiped meanwhile): this save is the first again.
    return found === null ? this.saveLocation(input) : { location: found, created: false };
  }

  async findLocation(accountId: string, mode: KeyMode, code: string): Promise<SavedLocation | null> {
    if (unstorable(accountId, code)) return null;
    return this.readLocation({ accountId, mode, code });
  }

  async hasLocations(accountId: string, mode: KeyMode): Promise<boolean> {
    if (unstorable(accountId)) return false;
    const table = LOCATION_TABLE[mode];
    const { rows } = await this.query(`SELECT 1 FROM ${table} WHERE account_id = $1 LIMIT 1`, [accountId], `any-${table}`);
    return rows.length > 0;
  }

  async deleteTestLocations(accountId: string): Promise<number> {
    if (unstorable(accountId)) return 0;
    return (await this.query(`DELETE FROM ${LOCATION_TABLE.test} WHERE account_id = $1`, [accountId], 'delete-test-locations')).rowCount ?? 0;
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1', [], 'ping');
  }

  poolStats(): PoolStats {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    // Idempotent, as SQLite's: pg's pool refuses a second end.
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
