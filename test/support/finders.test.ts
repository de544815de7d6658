/**
 * The finders of the test databases answer: the PostgreSQL one gives each caller a database of its
 * own, the Redis one a server that answers PING. A test that needs them fails rather than skips when
 * none can be found or started (the finders' own messages say what was tried).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, stopPostgres } from './postgres.ts';
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

  it('finds a Redis that answers PING', async () => {
    const { url } = await redisServer();
    expect(await ping(url)).toBe('+PONG');
  });
});
