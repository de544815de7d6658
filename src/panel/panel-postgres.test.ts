/**
 * The partner panel on PostgreSQL, served by two servers sharing one database, as a fleet behind a
 * load balancer serves it: a sign-in made on one server holds on the other, a key made on one works
 * and is refused everywhere once disabled, a key's last use noted by one shows on the other, and the
 * sign-in throttle counts attempts across both.
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import { PASSWORD, panelClient, signedUpUser } from '../../test/support/panel-client.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { testService, type TestService } from '../../test/support/service.ts';
import { KEY_CACHE_MS } from '../server/plugins/store.ts';
import { SIGN_IN_ATTEMPTS_PER_EMAIL } from './throttle.ts';

let db: TestDatabase | undefined;
let servers: TestService[] = [];

afterEach(async () => {
  for (const server of servers) await server.close();
  await db?.dispose();
  servers = [];
  db = undefined;
});
afterAll(async () => {
  await stopPostgres();
});

const secretOf = (html: string): string => /id="secret" readonly value="([^"]+)"/.exec(html)?.[1] ?? '';

it('two servers on one PostgreSQL database serve one panel: sessions, keys, last uses and the throttle are shared', async () => {
  db = await createTestDatabase({ migrated: true });
  const settings = { LOC_DATABASE_URL: db.url, LOC_LOG_LEVEL: 'warn' };
  servers = [await testService(settings), await testService(settings)];
  const [one, two] = servers;

  const onOne = await signedUpUser(one, 'acme', 'ada@example.com');
  const account = (await one.app.store.findAccount('acme'))!;
  const onTwo = panelClient(two);
  onTwo.cookie = onOne.cookie;
  const keys = `/panel/accounts/${account.id}/keys`;
  expect((await onTwo.get(keys)).statusCode).toBe(200);

  await onTwo.get(`${keys}/new`);
  const created = await onTwo.submit(keys, { label: 'fleet', origins: 'https://shop.example' });
  expect(created.statusCode).toBe(201);
  const secret = secretOf(created.body);
  const call = (server: TestService) => server.request({ method: 'GET', url: '/v1/loc/search?q=48.8566,2.3522', headers: { 'x-api-key': secret, origin: 'https://shop.example' } });
  expect((await call(one)).statusCode).toBe(200);
  await one.app.keyUses.flush();
  expect((await onTwo.get(keys)).body).toContain('on https://shop.example');

  const [key] = await one.app.store.listKeys(account.id);
  await onTwo.get(`${keys}/${key.id}`);
  await onTwo.submit(`${keys}/${key.id}/disable`);
  one.clock.advance(KEY_CACHE_MS);
  expect((await call(one)).statusCode).toBe(401);

  const guess = panelClient(two);
  for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_EMAIL; i++) {
    const server = i % 2 === 0 ? one : two;
    expect((await panelClient(server).submit('/panel/sign-in', { email: 'ada@example.com', password: `guess ${i} of a great many` })).statusCode).toBe(401);
  }
  expect((await guess.submit('/panel/sign-in', { email: 'ada@example.com', password: PASSWORD })).statusCode).toBe(429);
});
