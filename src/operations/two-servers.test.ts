/**
 * Two loc servers on one PostgreSQL, one partner signed in on both, as behind a load balancer that
 * sends each request where it likes: a change made through one server after the other changed the
 * same key is applied and audited, though the server making it still holds the key as it was.
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import { panelClient, signedUpUser } from '../../test/support/panel-client.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { testService, type TestService } from '../../test/support/service.ts';

let db: TestDatabase | undefined;
let servers: TestService[] = [];

afterEach(async () => {
  for (const server of servers) await server.close();
  await db?.dispose();
  servers = [];
});
afterAll(() => stopPostgres());

it('applies and records a change to a key another server changed a moment before', async () => {
  db = await createTestDatabase({ migrated: true });
  const settings = { LOC_DATABASE_URL: db.url, LOC_LOG_LEVEL: 'silent' };
  servers = [await testService(settings), await testService(settings)];
  const [one, two] = servers;
  const onOne = await signedUpUser(one, 'acme', 'ada@example.com');
  // The same browser, its requests sent to the other server: the panel's session is in the database.
  const onTwo = panelClient(two);
  onTwo.cookie = onOne.cookie;
  const account = (await one.app.store.findAccount('acme'))!;
  const { key } = await one.key('acme');
  const page = `/panel/accounts/${account.id}/keys/${key.id}`;

  // Server one reads the key (active) into its cache, which keeps it while the test's clock stands still.
  expect((await onOne.get(page)).statusCode).toBe(200);
  await onTwo.get(page);
  expect((await onTwo.submit(`${page}/disable`)).statusCode).toBe(303);
  expect((await onOne.submit(`${page}/enable`)).statusCode).toBe(303);

  expect((await two.app.store.getKey(key.id))?.status).toBe('active');
  const entries = await two.app.store.audit.listAudit({ accountId: account.id, limit: 10 });
  expect(entries.filter((entry) => entry.target === key.id).map((entry) => entry.action)).toEqual(['key.enable', 'key.disable']);
});
