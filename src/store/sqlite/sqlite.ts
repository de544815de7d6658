/**
 * The SQLite adapter of the store port: one file `loc.db` in the data directory, opened in WAL mode so
 * the running server and the operator CLI can share it (readers never block the writer; a writer
 * waits up to `busy_timeout` for another). Every query is a prepared statement, so looking a key up on
 * each request costs microseconds and a CLI change is seen by the very next request.
 *
 * SQLite's errors that mean the machine rather than the request is at fault — a full or read-only
 * disk, an I/O error, a lock held too long — leave as the port's `StoreUnavailable`: the server
 * answers 503 and carries on, and the next statement succeeds once the disk does.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '../ids.ts';
import { DATABASE_FILE, prepareDataDir } from './sqlite-files.ts';
import { translateSqliteError } from './sqlite-errors.ts';
import { migrate } from './sqlite-migrations.ts';
import { traceStatements } from './sqlite-spans.ts';
import { SqliteKeys, KEY_COLUMNS } from './sqlite-keys.ts';
import { SqliteLocations } from './sqlite-locations.ts';
import { SqliteAuditStore } from './sqlite-audit.ts';
import { SqlitePanelStore } from './sqlite-panel.ts';
import { SqliteUsageStore } from './sqlite-usage.ts';
import { account, accountLimits, beforeAndAfter, key, type AccountLimitsRow, type AccountRow, type KeyRow, type SessionRow } from './sqlite-rows.ts';
import {
  NoDatabase, StoreConflict, type Account, type BackupCapable, type ApiKey, type EmbedSession, type KeyLimits, type KeyList, type KeyListChange,
  type KeyMode, type KeyStatus, type NewKey, type NewSession, type OpenStoreOptions, type SavedLocation, type Store, type Updated,
} from '../store.ts';

/** The ceiling's columns of an account row, by the limit each caps. */
const CEILING_COLUMN: Record<keyof KeyLimits, string> = {
  hourlyLimit: 'ceiling_hourly_limit', embedHourlyLimit: 'ceiling_embed_hourly_limit', sessionLimit: 'ceiling_session_limit',
};

/**
 * Opens the database in `dataDir`, migrating it as needed and, unless `create: false`, creating it
 * (and the directory) first; `:memory:` for a throwaway one.
 * A disk that cannot hold it — full, read-only, failing — is a StoreUnavailable, so that `loc serve`
 * can refuse to start with one line instead of a stack trace.
 */
export function openSqliteStore(dataDir: string, { create = true }: OpenStoreOptions = {}): SqliteStore {
  if (dataDir !== ':memory:') prepareDataDir(dataDir, create);
  let db: Database.Database | undefined;
  const file = dataDir === ':memory:' ? ':memory:' : join(dataDir, DATABASE_FILE);
  const isNew = file !== ':memory:' && !existsSync(file);
  try {
    // fileMustExist: a database removed since requireDatabaseFile looked is not quietly made anew.
    db = new Database(file, { fileMustExist: !create });
    // Before anything writes (WAL mode writes the header): an empty file, or one no loc ever
    // migrated, is no loc database, and must stay as it was.
    if (!create && db.pragma('user_version', { simple: true }) === 0) {
      throw new NoDatabase(dataDir, `its ${DATABASE_FILE} holds no loc schema`);
    }
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // A write answered 2xx must survive a power cut, not only a crash of the process: FULL syncs the
    // WAL at every commit (NORMAL would leave the last commits to the next checkpoint). Only writes
    // that change something pay it; measured in docs/stress.md.
    db.pragma('synchronous = FULL');
    migrate(db);
    // A new database is the owner's alone, like its directory, whatever the umask or the mode of a
    // directory made beforehand: it holds the accounts' saved labels and addresses. SQLite gives the
    // WAL and shared-memory files the database's mode when it makes them again; these two it has
    // just made. An existing file keeps the mode its operator chose.
    if (isNew) for (const name of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(name)) chmodSync(name, 0o600);
  } catch (error) {
    db?.close();
    throw translateSqliteError(error);
  }
  traceStatements(db);
  return new SqliteStore(db);
}

export class SqliteStore implements Store, BackupCapable {
  private readonly q;
  readonly engine = 'sqlite';
  readonly panel: SqlitePanelStore;
  readonly usage: SqliteUsageStore;
  readonly audit: SqliteAuditStore;
  private readonly locations: SqliteLocations;
  private readonly keys: SqliteKeys;

  constructor(private readonly db: Database.Database) {
    this.panel = new SqlitePanelStore(db, (work) => this.run(work));
    this.usage = new SqliteUsageStore(db, (work) => this.run(work));
    this.audit = new SqliteAuditStore(db, (work) => this.run(work));
    this.locations = new SqliteLocations(db);
    this.keys = new SqliteKeys(db);
    this.q = {
      insertAccount: db.prepare('INSERT INTO accounts (id, name, partner, created_at) VALUES (?, ?, ?, ?)'),
      accounts: db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY created_at, name'),
      accountByName: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE name = ?'),
      accountById: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
      setPartner: db.prepare('UPDATE accounts SET partner = ? WHERE name = ?'),
      keysOf: db.prepare<[string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.account_id = ? ORDER BY k.created_at, k.id`),
      keyByHash: db.prepare<[string], KeyRow & { a_name: string; a_partner: number; a_created_at: number }>(
        `SELECT ${KEY_COLUMNS}, a.name AS a_name, a.partner AS a_partner, a.created_at AS a_created_at ` +
          'FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?',
      ),
      ceiling: db.prepare<[string], AccountLimitsRow>('SELECT ceiling_hourly_limit, ceiling_embed_hourly_limit, ceiling_session_limit FROM accounts WHERE id = ?'),
      insertSession: db.prepare(
        'INSERT INTO sessions (sid, secret_hash, key_id, origin, created_at, expires_at, countries, bounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      session: db.prepare<[string], SessionRow>(
        'SELECT s.*, k.account_id, k.status, a.partner FROM sessions s JOIN api_keys k ON k.id = s.key_id ' +
          'JOIN accounts a ON a.id = k.account_id WHERE s.sid = ?',
      ),
      deleteSessions: db.prepare('DELETE FROM sessions WHERE expires_at < ?'),
      ping: db.prepare('SELECT 1'),
    };
  }

  /** One unit of database work: SQLite's errors of a machine at fault leave as StoreUnavailable. */
  private async run<T>(work: () => T): Promise<T> {
    try {
      return work();
    } catch (error) {
      throw translateSqliteError(error);
    }
  }

  createAccount(input: { name: string; partner: boolean; createdAt: number }): Promise<Account> {
    return this.run(() => {
      const id = newId('acct');
      try {
        this.q.insertAccount.run(id, input.name, input.partner ? 1 : 0, input.createdAt);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreConflict(`An account named ${JSON.stringify(input.name)} already exists.`);
        }
        throw error;
      }
      return { id, name: input.name, partner: input.partner, createdAt: input.createdAt };
    });
  }

  listAccounts(): Promise<Account[]> {
    return this.run(() => this.q.accounts.all().map(account));
  }

  findAccount(name: string): Promise<Account | null> {
    return this.run(() => {
      const row = this.q.accountByName.get(name);
      return row ? account(row) : null;
    });
  }

  getAccount(id: string): Promise<Account | null> {
    return this.run(() => {
      const row = this.q.accountById.get(id);
      return row ? account(row) : null;
    });
  }

  setPartner(name: string, partner: boolean): Promise<Updated<Account> | null> {
    const read = () => {
      const row = this.q.accountByName.get(name);
      return row ? account(row) : null;
    };
    return this.run(() => beforeAndAfter(this.db, read, () => this.q.setPartner.run(partner ? 1 : 0, name)));
  }

  accountLimits(accountId: string): Promise<KeyLimits | null> {
    return this.run(() => {
      const row = this.q.ceiling.get(accountId);
      return row ? accountLimits(row) : null;
    });
  }

  setAccountLimits(accountId: string, limits: Partial<KeyLimits>): Promise<Updated<KeyLimits> | null> {
    const given = (Object.keys(CEILING_COLUMN) as (keyof KeyLimits)[]).filter((name) => limits[name] !== undefined);
    // Column names from CEILING_COLUMN only; the values are bound.
    const sets = given.map((name) => `${CEILING_COLUMN[name]} = ?`).join(', ');
    const read = () => {
      const row = this.q.ceiling.get(accountId);
      return row ? accountLimits(row) : null;
    };
    return this.run(() => beforeAndAfter(this.db, read, () => {
      if (given.length > 0) this.db.prepare(`UPDATE accounts SET ${sets} WHERE id = ?`).run(...given.map((name) => limits[name]), accountId);
    }));
  }

  createKey(input: NewKey, cap?: number): Promise<ApiKey> {
    return this.run(() => this.keys.create(input, cap));
  }

  getKey(id: string): Promise<ApiKey | null> {
    return this.run(() => this.keys.get(id));
  }

  listKeys(accountId: string): Promise<ApiKey[]> {
    return this.run(() => this.q.keysOf.all(accountId).map(key));
  }

  findKeyByHash(hash: string): Promise<{ key: ApiKey; account: Account } | null> {
    return this.run(() => {
      const row = this.q.keyByHash.get(hash);
      if (!row) return null;
      return {
        key: key(row),
        account: { id: row.account_id, name: row.a_name, partner: row.a_partner === 1, createdAt: row.a_created_at },
      };
    });
  }

  setKeyStatus(id: string, status: KeyStatus, cap?: number): Promise<Updated<ApiKey> | null> {
    return this.run(() => this.keys.setStatus(id, status, cap));
  }

  setKeyLimits(id: string, limits: Partial<KeyLimits>): Promise<Updated<ApiKey> | null> {
    return this.run(() => this.keys.setLimits(id, limits));
  }

  updateKeyList(id: string, list: KeyList, change: KeyListChange): Promise<Updated<ApiKey> | null> {
    return this.run(() => this.keys.updateList(id, list, change));
  }

  async createSession(input: NewSession): Promise<void> {
    const json = (value: unknown) => (value == null ? null : JSON.stringify(value));
    await this.run(() => this.q.insertSession.run(
      input.sid, input.secretHash, input.keyId, input.origin, input.createdAt, input.expiresAt, json(input.countries), json(input.bounds),
    ));
  }

  getSession(sid: string): Promise<EmbedSession | null> {
    return this.run(() => {
      const row = this.q.session.get(sid);
      if (!row) return null;
      return {
        sid: row.sid, secretHash: row.secret_hash, keyId: row.key_id, accountId: row.account_id, origin: row.origin,
        createdAt: row.created_at, expiresAt: row.expires_at, keyActive: row.status === 'active', accountPartner: row.partner === 1,
        countries: row.countries === null ? null : JSON.parse(row.countries), bounds: row.bounds === null ? null : JSON.parse(row.bounds),
      };
    });
  }

  deleteSessionsExpiredBefore(time: number): Promise<number> {
    return this.run(() => this.q.deleteSessions.run(time).changes);
  }

  saveLocation(input: SavedLocation): Promise<{ location: SavedLocation; created: boolean }> {
    return this.run(() => this.locations.save(input));
  }

  findLocation(accountId: string, mode: KeyMode, code: string): Promise<SavedLocation | null> {
    return this.run(() => this.locations.find(accountId, mode, code));
  }

  hasLocations(accountId: string, mode: KeyMode): Promise<boolean> {
    return this.run(() => this.locations.any(accountId, mode));
  }

  deleteTestLocations(accountId: string): Promise<number> {
    return this.run(() => this.locations.deleteTest(accountId));
  }

  /**
   * Copies the database to `file` with SQLite's online backup: consistent while the server writes.
   * (Copying loc.db with cp while it runs can miss the WAL, and reading the file from the server's own
   * process would drop its locks.)
   */
  async backup(file: string): Promise<void> {
    try {
      await this.db.backup(file);
    } catch (error) {
      throw translateSqliteError(error);
    }
  }

  async ping(): Promise<void> {
    await this.run(() => this.q.ping.get());
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
