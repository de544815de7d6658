/**
 * The partner panel on PostgreSQL, served by two servers sharing one database, as a fleet behind a
 * load balancer serves it: a sign-in made on one server holds on the other, a key made on one works
 * and is refused everywhere once disabled, a key's last use noted by one shows on the other, the
 * sign-in throttle counts attempts across both, and a change made through one server after the other
 * changed the same key is applied and audited, though the server making it still holds the key as it was.
 */
import { expect, it } from 'vitest';
import { PASSWORD, panelClient } from '../../test/support/panel-client.ts';
import { panelFleets } from '../../test/support/panel-fleet.ts';
import type { TestService } from '../../test/support/service.ts';
import { KEY_CACHE_MS } from '../server/plugins/store.ts';
import { SIGN_IN_ATTEMPTS_PER_EMAIL } from './throttle.ts';

/** Two servers on one new database, and one partner signed in on both: the same browser, its requests sent to either. */
const fleet = panelFleets();

const secretOf = (html: string): string => /id="secret" readonly value="([^"]+)"/.exec(html)?.[1] ?? '';

it('two servers on one PostgreSQL database serve one panel: sessions, keys, last uses and the throttle are shared', async () => {
  const { one, two, onOne, onTwo, account } = await fleet();
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

it('applies and records a change to a key another server changed a moment before', async () => {
  const { one, two, onOne, onTwo, account } = await fleet();
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
