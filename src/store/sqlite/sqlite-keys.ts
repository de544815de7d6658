/**
 * The SQLite store's writes of API keys (sqlite.ts): each in one IMMEDIATE transaction that reads the
 * key before and after it, so that two processes changing one key serialise and each sees what the
 * other left.
 */
import type Database from 'better-sqlite3';
import { newId } from '../ids.ts';
import { beforeAndAfter, key, type KeyRow } from './sqlite-rows.ts';
import { CapReached, type ApiKey, type KeyLimits, type KeyList, type KeyListChange, type KeyStatus, type NewKey, type Updated } from '../store.ts';

export const KEY_COLUMNS = 'k.id, k.account_id, k.label, k.status, k.origins, k.ip_ranges, k.hourly_limit, k.embed_hourly_limit, k.session_limit, k.mode, k.created_at';
const LIST_COLUMN: Record<KeyList, 'origins' | 'ip_ranges'> = { origins: 'origins', ipRanges: 'ip_ranges' };
const LIMIT_COLUMN: Record<keyof KeyLimits, string> = { hourlyLimit: 'hourly_limit', embedHourlyLimit: 'embed_hourly_limit', sessionLimit: 'session_limit' };

export class SqliteKeys {
  private readonly q;

  constructor(private readonly db: Database.Database) {
    this.q = {
      insert: db.prepare(
        'INSERT INTO api_keys (id, account_id, hash, label, status, origins, ip_ranges, hourly_limit, embed_hourly_limit, session_limit, mode, created_at) ' +
          "VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?)",
      ),
      byId: db.prepare<[string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = ?`),
      setStatus: db.prepare('UPDATE api_keys SET status = ? WHERE id = ?'),
      activeKeys: db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM api_keys WHERE account_id = ? AND status = 'active'"),
    };
  }

  get(id: string): ApiKey | null {
    const row = this.q.byId.get(id);
    return row ? key(row) : null;
  }

  /** Counted and inserted under the write lock: two keys made at once cannot both take the last place. */
  create(input: NewKey, cap?: number): ApiKey {
    return this.db.transaction(() => {
      this.holdToCap(input.accountId, cap);
      const id = newId('key');
      this.q.insert.run(
        id, input.accountId, input.hash, input.label, JSON.stringify(input.origins), JSON.stringify(input.ipRanges),
        input.hourlyLimit, input.embedHourlyLimit, input.sessionLimit, input.mode, input.createdAt,
      );
      return this.get(id)!;
    }).immediate();
  }

  setStatus(id: string, status: KeyStatus, cap?: number): Updated<ApiKey> | null {
    return this.change(id, () => {
      const before = this.get(id)!;
      if (status === 'active' && before.status !== 'active') this.holdToCap(before.accountId, cap);
      this.q.setStatus.run(status, id);
    });
  }

  /** CapReached when the account has `cap` active keys already (inside the write's transaction). */
  private holdToCap(accountId: string, cap: number | undefined): void {
    if (cap !== undefined && this.q.activeKeys.get(accountId)!.n >= cap) throw new CapReached(`the account has ${cap} active keys`);
  }

  setLimits(id: string, limits: Partial<KeyLimits>): Updated<ApiKey> | null {
    const given = (Object.keys(LIMIT_COLUMN) as (keyof KeyLimits)[]).filter((name) => limits[name] !== undefined);
    // Column names from LIMIT_COLUMN only; the values are bound.
    const sets = given.map((name) => `${LIMIT_COLUMN[name]} = ?`).join(', ');
    return this.change(id, () => {
      if (given.length > 0) this.db.prepare(`UPDATE api_keys SET ${sets} WHERE id = ?`).run(...given.map((name) => limits[name]), id);
    });
  }

  updateList(id: string, list: KeyList, change: KeyListChange): Updated<ApiKey> | null {
    const column = LIST_COLUMN[list];
    // Read-modify-write inside the IMMEDIATE transaction: two CLI processes editing the same key
    // serialise instead of losing one change.
    return this.change(id, () => {
      const values = this.get(id)![list];
      if ('add' in change && change.cap !== undefined && !values.includes(change.add) && values.length >= change.cap) {
        throw new CapReached(`the key has ${change.cap} values in its list`);
      }
      const next = 'add' in change
        ? (values.includes(change.add) ? values : [...values, change.add])
        : values.filter((value) => value !== change.remove);
      this.db.prepare(`UPDATE api_keys SET ${column} = ? WHERE id = ?`).run(JSON.stringify(next), id);
    });
  }

  /** The key before and after `write`, which changes its row. */
  private change(id: string, write: () => void): Updated<ApiKey> | null {
    return beforeAndAfter(this.db, () => this.get(id), write);
  }
}
