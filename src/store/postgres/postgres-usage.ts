/**
 * The PostgreSQL adapter of the usage store (usage-store.ts), through the queries of the PostgresStore
 * that holds it. A batch is one INSERT … SELECT FROM unnest … ON CONFLICT DO UPDATE that adds to the
 * stored counts (limits/usage-meter.ts sends one every few seconds per process): its rows come in key,
 * kind and hour order, so that two processes' batches lock the rows they share in the same order and
 * never deadlock, and each adds to the row as the other committed it — none is lost.
 */
import type pg from 'pg';
import { mergedUsage, type UsageHour, type UsageStore } from '../usage-store.ts';
import { unstorable, usageHour, type UsageRow } from './postgres-rows.ts';

/** The PostgresStore's statement: named ones are prepared once per connection; errors of a machine at fault leave as StoreUnavailable. */
type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string) => Promise<pg.QueryResult<R>>;

export class PostgresUsageStore implements UsageStore {
  constructor(private readonly query: Query) {}

  async addUsage(hours: readonly UsageHour[]): Promise<void> {
    const rows = mergedUsage(hours);
    if (rows.length === 0) return;
    const column = (pick: (row: UsageHour) => unknown) => rows.map(pick);
    await this.query(
      'INSERT INTO key_usage AS u (key_id, kind, hour, used, refused_limit, refused_origin, refused_ip, refused_inactive) ' +
        'SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[]) ' +
        'AS b (key_id, kind, hour, used, l, o, i, d) ORDER BY key_id COLLATE "C", kind, hour ' +
        'ON CONFLICT (key_id, kind, hour) DO UPDATE SET used = u.used + excluded.used, refused_limit = u.refused_limit + excluded.refused_limit, ' +
        'refused_origin = u.refused_origin + excluded.refused_origin, refused_ip = u.refused_ip + excluded.refused_ip, ' +
        'refused_inactive = u.refused_inactive + excluded.refused_inactive',
      [
        column((row) => row.keyId), column((row) => row.kind), column((row) => row.hour), column((row) => row.used), column((row) => row.refused.limit),
        column((row) => row.refused.origin), column((row) => row.refused.ip), column((row) => row.refused.inactive),
      ],
      'usage-add',
    );
  }

  async usageOf(keyId: string, since: number): Promise<UsageHour[]> {
    if (unstorable(keyId)) return [];
    // Server before embed within an hour: the port's order, not the kinds' alphabetical one.
    const { rows } = await this.query<UsageRow>(
      "SELECT * FROM key_usage WHERE key_id = $1 AND hour >= $2 ORDER BY hour, CASE kind WHEN 'server' THEN 0 ELSE 1 END", [keyId, since], 'usage-of',
    );
    return rows.map(usageHour);
  }

  async usageOfKeys(keyIds: readonly string[], since: number): Promise<UsageHour[]> {
    const storable = keyIds.filter((keyId) => !unstorable(keyId));
    const { rows } = await this.query<UsageRow>(
      'SELECT * FROM key_usage WHERE key_id = ANY($1::text[]) AND hour >= $2 ' +
        "ORDER BY key_id COLLATE \"C\", hour, CASE kind WHEN 'server' THEN 0 ELSE 1 END",
      [storable, since], 'usage-of-keys',
    );
    return rows.map(usageHour);
  }

  async deleteUsageBefore(before: number): Promise<number> {
    return (await this.query('DELETE FROM key_usage WHERE hour < $1', [before], 'usage-delete-before')).rowCount ?? 0;
  }
}
