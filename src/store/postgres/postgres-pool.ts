/**
 * The connections of the PostgreSQL store: one pool per process, with loc's settings, and the URL as
 * messages may show it.
 */
import type pg from 'pg';
import { translatePostgresError } from './postgres-errors.ts';

export { redactUrl } from '../database-url.ts';

/** int8's type id: pg hands it over as a string by default, lest a value above 2^53 lose digits. */
const INT8 = 20;
/** How long a statement, or getting a connection, may take before the database counts as busy or out of reach. */
export const TIMEOUT_MS = 5000;

/** Connections a pool keeps at most, unless told (LOC_DATABASE_POOL_SIZE). */
export const POOL_SIZE = 8;

export interface PoolOptions {
  /** Connections at most; default POOL_SIZE. */
  max?: number;
  /**
   * Commits that do not wait for the disk: a crash of PostgreSQL may lose the last few hundred
   * milliseconds of them, which the request counters can afford and nothing else can.
   */
  asynchronousCommit?: boolean;
}

/**
 * A pool on `url` with loc's settings; no connection is made until the first query. The driver is
 * loaded here, on first use, not with the service: one on SQLite would pay about 40 ms of start-up
 * for it (a bundle hoists a static import to its top, however late the module that holds it runs).
 */
export async function newPool(url: string, { max = POOL_SIZE, asynchronousCommit = false }: PoolOptions = {}): Promise<pg.Pool> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(asynchronousCommit && { options: '-c synchronous_commit=off' }),
    connectionTimeoutMillis: TIMEOUT_MS,
    statement_timeout: TIMEOUT_MS,
    application_name: 'loc',
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8 ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
  });
  // An idle connection the server closes (a restart, a failover) is dropped by the pool, which makes a
  // new one for the next query; unhandled, its error would end the process.
  pool.on('error', () => {});
  return pool;
}


/** One statement: named ones are prepared once per connection; errors of a machine at fault leave as StoreUnavailable. */
export type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string) => Promise<pg.QueryResult<R>>;

/**
 * `work` in one transaction on a connection of its own, committed when it resolves and rolled back
 * when it throws: for a write that must count rows before it writes, under a lock the count's
 * statement takes, since a statement's own snapshot would not see what another committed meanwhile.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (query: Query) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw translatePostgresError(error);
  }
  const query: Query = async (text, values = [], name) => {
    try {
      return await client.query({ text, values, name });
    } catch (error) {
      throw translatePostgresError(error);
    }
  };
  let broken = false;
  try {
    await query('BEGIN');
    const result = await work(query);
    await query('COMMIT');
    return result;
  } catch (error) {
    // A connection that cannot even roll back is closed rather than handed to the next caller.
    await client.query('ROLLBACK').catch(() => void (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
