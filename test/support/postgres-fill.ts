/**
 * Makes a PostgreSQL test database refuse writes as a full disk does, for the store conformance
 * suite's `fill`. PostgreSQL cannot be given a disk quota per database, and filling the machine's
 * disk would stop every other test: a trigger on each of loc's tables raises, for every row about to
 * be written, the very error a full disk gives (SQLSTATE 53100, disk_full), while reads go on. What
 * this exercises is the store's own part, the mapping of 53100 to StoreUnavailable('full') and what
 * the store does after, not the engine's behaviour on a full disk (test/stress/faults.test.ts fills a
 * real disk, with SQLite).
 */
import pg from 'pg';

const TABLES = ['accounts', 'api_keys', 'sessions', 'locations', 'test_locations'];

async function run(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function postgresFill(url: string): { begin: () => Promise<void>; end: () => Promise<void> } {
  return {
    begin: () => run(url, `
      CREATE FUNCTION loc_t_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'could not extend file: No space left on device (the test''s fill)' USING ERRCODE = 'disk_full';
      END $$;
      ${TABLES.map((table) => `CREATE TRIGGER loc_t_full BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION loc_t_full();`).join('\n')}
    `),
    end: () => run(url, 'DROP FUNCTION loc_t_full() CASCADE'),
  };
}
