/**
 * The request counters in PostgreSQL, the default wherever the store is (LOC_DATABASE_URL): every loc
 * process on the database counts in the same rows (`request_counts`, postgres-migrations.ts), so a
 * key's limit is exact across processes and machines.
 *
 * One round trip per step: the function `loc_take_v2` (postgres-counters-sql.ts) locks the rows of
 * the budget sets shared-counters.ts gathered and counts, set by set, as many of their requests as
 * the budgets have room for, each all or nothing. The counters have a pool of their own whose
 * commits do not wait for the disk: nothing waits on an fsync per request, the rows are still
 * replicated, and a crash of PostgreSQL may lose the last few hundred milliseconds of counts — a few
 * requests a key may make again, never a location or a key.
 *
 * The row's `refused_*` columns are no longer written: a key's usage, refusals included, is the
 * store's (key_usage, limits/usage-meter.ts). They stay for a loc of schema 2 or 3 that may still run
 * beside this one during an upgrade.
 */
import type pg from 'pg';
import { translatePostgresError } from './postgres-errors.ts';
import { newPool } from './postgres-pool.ts';
import { sharedCounters, type CountEngine, type SharedCounters, type Wanted } from '../shared-counters.ts';

/**
 * Connections the counters keep: one for the step in flight (shared-counters.ts sends one at a
 * time), one for the hourly sweep and the health check, which must not wait behind it.
 */
const COUNTER_CONNECTIONS = 2;

export function postgresCountEngine(pool: pg.Pool): CountEngine {
  const query = async <R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> => {
    try {
      return (await pool.query<R>({ name, text, values })).rows;
    } catch (error) {
      throw translatePostgresError(error);
    }
  };
  return {
    engine: 'postgres',
    async take(sets: readonly Wanted[], now: number) {
      const budgets = sets.flatMap((set) => set.budgets);
      const [row] = await query<{ granted: number[]; spent: number[]; counts: string[]; first_refusal: boolean[] }>(
        'loc-take',
        'SELECT granted, spent, counts, first_refusal FROM loc_take_v2($1, $2, $3, $4, $5, $6, $7, $8)',
        [
          sets.flatMap((set, s) => set.budgets.map(() => s + 1)), budgets.map((b) => b.id), budgets.map((b) => b.keyId), budgets.map((b) => b.kind),
          budgets.map((b) => b.limit), budgets.map((b) => b.resetsAt), sets.map((set) => set.wanted), now,
        ],
      );
      // bigint[] arrives as strings: pg parses only the scalar int8 as a Number (postgres-pool.ts).
      const counts = row.counts.map(Number);
      let first = 0;
      return sets.map((set, s) => {
        const of = counts.slice(first, (first += set.budgets.length));
        return { granted: row.granted[s], spent: row.spent[s], counts: of, firstRefusal: row.first_refusal[s] };
      });
    },
    async sweep(now) {
      await query('loc-sweep-counts', 'DELETE FROM request_counts WHERE resets_at <= $1', [now]);
    },
    async ping() {
      await query('loc-ping-counters', 'SELECT 1', []);
    },
    close: () => pool.end(),
  };
}

/** Counters on the PostgreSQL database at `url`, which loc's migrations have brought to schema 2 or later. */
export async function postgresCounters(url: string, options: { now: () => number }): Promise<SharedCounters> {
  const pool = await newPool(url, { max: COUNTER_CONNECTIONS, asynchronousCommit: true });
  return sharedCounters(postgresCountEngine(pool), options);
}
