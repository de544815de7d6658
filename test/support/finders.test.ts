/**
 * The finders of the test databases answer: the PostgreSQL one gives each caller a database of its
 * own, empty or migrated, and leaves nothing of a run on a server it found; the Redis one a server
 * that answers PING. A test that needs them fails rather than skips when none can be found or started
 * (the finders' own messages say what was tried).
 */
import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/postgres/postgres-migrations.ts';
import { freePort } from './loc-process.ts';
import { admin, createTestDatabase, postgresServer, sql, startRun, stopPostgres } from './postgres.ts';
import { ping, redisServer, stopRedis } from './redis.ts';

afterAll(async () => {
  await Promise.all([stopPostgres(), stopRedis()]);
});

describe('test databases', () => {
  it('gives each caller a fresh PostgreSQL database, and drops it', async () => {
    const [one, two] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    expect(one.name).not.toBe(two.name);
    const client = new pg.Client({ connectionString: one.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ db: string; tables: string }>(
        "SELECT current_database() AS db, (SELECT count(*) FROM pg_tables WHERE schemaname = 'public') AS tables",
      );
      expect(rows[0]).toEqual({ db: one.name, tables: '0' });
    } finally {
      await client.end();
    }
    await Promise.all([one.dispose(), two.dispose()]);
    const gone = new pg.Client({ connectionString: one.url });
    await expect(gone.connect()).rejects.toMatchObject({ code: '3D000' });
    await gone.end().catch(() => {});
  });

  it('gives migrated databases, cloned at once from the run\'s template, which takes no connection', async () => {
    const databases = await Promise.all(Array.from({ length: 3 }, () => createTestDatabase({ migrated: true })));
    for (const { url } of databases) expect(await sql(url, 'SELECT version FROM loc_schema')).toEqual([{ version: SCHEMA_VERSION }]);
    await Promise.all(databases.map((database) => database.dispose()));
    const provided = inject('postgres');
    if ('error' in provided) throw new Error(provided.error);
    const template = new URL(provided.adminUrl);
    template.pathname = `/${provided.template}`;
    await expect(sql(template.href, 'SELECT 1')).rejects.toMatchObject({ code: '55000' });
  });

  describe('a run', () => {
    afterEach(() => vi.unstubAllEnvs());

    it('ends on a server it found with nothing of its own left there: neither its template nor a database its tests left', async () => {
      const { adminUrl } = await postgresServer();
      vi.stubEnv('LOC_TEST_DATABASE_URL', adminUrl);
      const { provided, close } = await startRun();
      if ('error' in provided) throw new Error(provided.error);
      expect(provided).toEqual({ adminUrl, run: expect.stringMatching(/^[0-9a-f]{8}$/), template: `loc_template_${provided.run}` });
      await admin(adminUrl, `CREATE DATABASE loc_t_${provided.run}_left`);
      const ours = () => sql(adminUrl, 'SELECT datname FROM pg_database WHERE strpos(datname, $1) > 0 ORDER BY datname', [provided.run]);
      expect(await ours()).toEqual([{ datname: `loc_t_${provided.run}_left` }, { datname: provided.template }]);
      await close();
      expect(await ours()).toEqual([]);
      expect(await sql(adminUrl, 'SELECT 1 AS up')).toEqual([{ up: 1 }]);
    });

    it('hands the test files why there is no PostgreSQL, rather than failing the run where no test needs one', async () => {
      const closed = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
      vi.stubEnv('LOC_TEST_DATABASE_URL', closed);
      expect((await startRun()).provided).toEqual({ error: expect.stringMatching(new RegExp(`^LOC_TEST_DATABASE_URL=${closed} cannot be used: .*ECONNREFUSED`)) });
    });
  });

  it('finds a Redis that answers PING', async () => {
    const { url } = await redisServer();
    expect(await ping(url)).toBe('+PONG');
  });
});
