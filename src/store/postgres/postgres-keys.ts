/**
 * The PostgreSQL store's writes of API keys (postgres.ts): each one statement that locks the key's
 * row, so that two processes changing one key serialise and each sees what the other left. A write
 * held to a cap of the account's active keys is a transaction instead: it locks the account's row,
 * then counts, in a statement of its own that sees what the holder of the lock before it committed.
 */
import { newId } from '../ids.ts';
import type { Query } from './postgres-pool.ts';
import { key, KEY_COLUMNS, unstorable, updated, updateReturningBefore, type KeyRow } from './postgres-rows.ts';
import { CapReached, type ApiKey, type KeyLimits, type KeyList, type KeyListChange, type KeyStatus, type NewKey, type Updated } from '../store.ts';

/** Runs `work` in one transaction, its statements through the query it is given. */
type Transaction = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

const LIST_COLUMN: Record<KeyList, 'origins' | 'ip_ranges'> = { origins: 'origins', ipRanges: 'ip_ranges' };
const LIMIT_COLUMN: Record<keyof KeyLimits, string> = { hourlyLimit: 'hourly_limit', embedHourlyLimit: 'embed_hourly_limit', sessionLimit: 'session_limit' };

export class PostgresKeys {
  constructor(private readonly query: Query, private readonly transaction: Transaction) {}

  create(input: NewKey, cap?: number): Promise<ApiKey> {
    if (cap === undefined) return this.insert(this.query, input);
    return this.transaction(async (query) => {
      const { active } = await this.lockAccount(query, input.accountId, null);
      if (active >= cap) throw new CapReached(`the account has ${cap} active keys`);
      return this.insert(query, input);
    });
  }

  private async insert(query: Query, input: NewKey): Promise<ApiKey> {
    const { rows: [row] } = await query<KeyRow>(
      'INSERT INTO api_keys AS k (id, account_id, hash, label, status, origins, ip_ranges, hourly_limit, embed_hourly_limit, session_limit, mode, created_at) ' +
        `VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $9, $10, $11) RETURNING ${KEY_COLUMNS}`,
      [
        newId('key'), input.accountId, input.hash, input.label, input.origins, input.ipRanges, input.hourlyLimit, input.embedHourlyLimit,
        input.sessionLimit, input.mode, input.createdAt,
      ],
      'insert-key',
    );
    return key(row);
  }

  async get(id: string): Promise<ApiKey | null> {
    if (unstorable(id)) return null;
    const { rows: [row] } = await this.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, [id], 'key-by-id');
    return row ? key(row) : null;
  }

  async setStatus(id: string, status: KeyStatus, cap?: number): Promise<Updated<ApiKey> | null> {
    if (status !== 'active' || cap === undefined) return this.change(this.query, id, 'status = $2', [status], 'set-status');
    if (unstorable(id)) return null;
    const { rows: [owner] } = await this.query<{ account_id: string }>('SELECT account_id FROM api_keys WHERE id = $1', [id], 'key-account');
    if (owner === undefined) return null;
    return this.transaction(async (query) => {
      const { active, keyStatus } = await this.lockAccount(query, owner.account_id, id);
      if (keyStatus !== 'active' && active >= cap) throw new CapReached(`the account has ${cap} active keys`);
      return this.change(query, id, 'status = $2', [status], 'set-status');
    });
  }

  /**
   * Locks the account's row for the rest of the transaction, then reads, as the last holder of the
   * lock left them, its active keys and the status of the key `keyId`.
   */
  private async lockAccount(query: Query, accountId: string, keyId: string | null): Promise<{ active: number; keyStatus: KeyStatus | null }> {
    await query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId], 'lock-account');
    const { rows: [row] } = await query<{ active: number; status: KeyStatus | null }>(
      "SELECT (SELECT count(*)::integer FROM api_keys WHERE account_id = $1 AND status = 'active') AS active, " +
        '(SELECT status FROM api_keys WHERE id = $2) AS status',
      [accountId, keyId],
      'active-keys',
    );
    return { active: row.active, keyStatus: row.status };
  }

  async setLimits(id: string, limits: Partial<KeyLimits>): Promise<Updated<ApiKey> | null> {
    const given = (Object.keys(LIMIT_COLUMN) as (keyof KeyLimits)[]).filter((name) => limits[name] !== undefined);
    if (given.length === 0) {
      const found = await this.get(id);
      return found && { before: found, after: found };
    }
    // Column names from LIMIT_COLUMN only; the values are bound.
    const sets = given.map((name, i) => `${LIMIT_COLUMN[name]} = $${i + 2}`).join(', ');
    return this.change(this.query, id, sets, given.map((name) => limits[name]));
  }

  async updateList(id: string, list: KeyList, change: KeyListChange): Promise<Updated<ApiKey> | null> {
    const column = LIST_COLUMN[list];
    // One statement: the row lock serialises two processes editing the same key, and the new list is
    // made from the row as the other left it, so neither change is lost, nor a cap passed. A full
    // list is left as it is, which tells the add that the cap refused it.
    if (!('add' in change)) return this.change(this.query, id, `${column} = array_remove(k.${column}, $2)`, [change.remove], `remove-${column}`);
    const set = `CASE WHEN $2 = ANY (k.${column}) OR cardinality(k.${column}) >= $3 THEN k.${column} ELSE array_append(k.${column}, $2) END`;
    const done = await this.change(this.query, id, `${column} = ${set}`, [change.add, change.cap ?? null], `add-${column}`);
    if (done !== null && !done.after[list].includes(change.add)) throw new CapReached(`the key has ${change.cap} values in its list`);
    return done;
  }

  /** Sets `set` ($1 the key's id, `values` from $2) on the key; the key before and after. */
  private async change(query: Query, id: string, set: string, values: unknown[], name?: string): Promise<Updated<ApiKey> | null> {
    if (unstorable(id)) return null;
    const { rows: [row] } = await query<KeyRow & { before: KeyRow }>(
      updateReturningBefore('api_keys', 'k', set, `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, KEY_COLUMNS), [id, ...values], name,
    );
    return updated(row, key);
  }
}
