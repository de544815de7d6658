/**
 * The PostgreSQL store's writes of API keys (postgres.ts): each one statement that locks the key's
 * row, so that two processes changing one key serialise and each sees what the other left.
 */
import type pg from 'pg';
import { newId } from '../ids.ts';
import { key, KEY_COLUMNS, unstorable, updated, updateReturningBefore, type KeyRow } from './postgres-rows.ts';
import type { ApiKey, KeyLimits, KeyList, KeyStatus, NewKey, Updated } from '../store.ts';

/** The PostgresStore's statement: named ones are prepared once per connection. */
type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string) => Promise<pg.QueryResult<R>>;

const LIST_COLUMN: Record<KeyList, 'origins' | 'ip_ranges'> = { origins: 'origins', ipRanges: 'ip_ranges' };
const LIMIT_COLUMN: Record<keyof KeyLimits, string> = { hourlyLimit: 'hourly_limit', embedHourlyLimit: 'embed_hourly_limit', sessionLimit: 'session_limit' };

export class PostgresKeys {
  constructor(private readonly query: Query) {}

  async create(input: NewKey): Promise<ApiKey> {
    const { rows: [row] } = await this.query<KeyRow>(
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

  setStatus(id: string, status: KeyStatus): Promise<Updated<ApiKey> | null> {
    return this.change(id, 'status = $2', [status], 'set-status');
  }

  async setLimits(id: string, limits: Partial<KeyLimits>): Promise<Updated<ApiKey> | null> {
    const given = (Object.keys(LIMIT_COLUMN) as (keyof KeyLimits)[]).filter((name) => limits[name] !== undefined);
    if (given.length === 0) {
      const found = await this.get(id);
      return found && { before: found, after: found };
    }
    // Column names from LIMIT_COLUMN only; the values are bound.
    const sets = given.map((name, i) => `${LIMIT_COLUMN[name]} = $${i + 2}`).join(', ');
    return this.change(id, sets, given.map((name) => limits[name]));
  }

  updateList(id: string, list: KeyList, change: { add: string } | { remove: string }): Promise<Updated<ApiKey> | null> {
    const column = LIST_COLUMN[list];
    // One statement: the row lock serialises two processes editing the same key, and the new list is
    // made from the row as the other left it, so neither change is lost.
    const [set, value] = 'add' in change
      ? [`CASE WHEN $2 = ANY (k.${column}) THEN k.${column} ELSE array_append(k.${column}, $2) END`, change.add]
      : [`array_remove(k.${column}, $2)`, change.remove];
    return this.change(id, `${column} = ${set}`, [value], `${'add' in change ? 'add' : 'remove'}-${column}`);
  }

  /** Sets `set` ($1 the key's id, `values` from $2) on the key; the key before and after. */
  private async change(id: string, set: string, values: unknown[], name?: string): Promise<Updated<ApiKey> | null> {
    if (unstorable(id)) return null;
    const { rows: [row] } = await this.query<KeyRow & { before: KeyRow }>(
      updateReturningBefore('api_keys', 'k', set, `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, KEY_COLUMNS), [id, ...values], name,
    );
    return updated(row, key);
  }
}
