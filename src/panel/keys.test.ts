/**
 * Keys in the partner panel against the real server and a real SQLite database: create (shown once,
 * then usable against the API), live and test apart, origins and ranges, disable and enable, rotation
 * with the new key's first request, and one account never reaching another's keys.
 *
 * One service for the file, each test with accounts of its own (newUser); a test that reads the logs,
 * closes the app or moves the clock has a service of its own.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, newPerson, newUser, panelClient, signedUpUser, type PanelClient } from '../../test/support/panel-client.ts';
import { fileService, freshService, type TestService } from '../../test/support/service.ts';
import type { Account } from '../store/store.ts';

const file = fileService();
/** The test's service: the file's, unless the test makes its own. */
let service: TestService;
beforeEach(() => {
  service = file;
});

const keysPath = (account: Account, rest = '') => `/panel/accounts/${account.id}/keys${rest}`;
const secretOf = (html: string): string => /id="secret" readonly value="([^"]+)"/.exec(html)?.[1] ?? '';
/** A call to the API with `secret`, as the partner's server makes it. */
const callApi = (secret: string) => service.request({ method: 'GET', url: '/v1/loc/search?q=48.8566,2.3522', headers: { 'x-api-key': secret } });

async function createKey(client: PanelClient, account: Account, fields: Record<string, string>): Promise<string> {
  await client.get(keysPath(account, '/new'));
  const created = await client.submit(keysPath(account), fields);
  expect(created.statusCode, created.body.slice(0, 400)).toBe(201);
  return secretOf(created.body);
}

describe('creating a key', () => {
  it('shows the key once, and the key works against the API; no later page, log line or row holds it', async () => {
    const lines: string[] = [];
    service = await freshService({ LOC_LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    const client = await signedUpUser(service, 'acme', 'ada@example.com');
    const account = (await service.app.store.findAccount('acme'))!;
    const secret = await createKey(client, account, { label: 'checkout', mode: 'live', origins: 'https://shop.example\nhttp://localhost:3000', ip_ranges: '', hourly_limit: '500' });
    expect(secret).toMatch(/^loc_[A-Za-z0-9_-]{43}$/);
    const [key] = await service.app.store.listKeys(account.id);
    expect(key).toMatchObject({ label: 'checkout', mode: 'live', origins: ['https://shop.example', 'http://localhost:3000'], hourlyLimit: 500, status: 'active' });
    expect((await callApi(secret)).statusCode).toBe(200);

    for (const path of [keysPath(account), keysPath(account, `/${key.id}`)]) {
      const page = await client.get(path);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(key.id);
      expect(page.body).not.toContain(secret);
    }
    await service.app.close();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('lists live and test keys apart', async () => {
    const { client, account } = await newUser(service, 'ada');
    const test = await createKey(client, account, { label: 'ci', mode: 'test', origins: '' });
    expect(test).toMatch(/^loc_test_/);
    await createKey(client, account, { label: 'prod', mode: 'live', origins: '' });
    const page = (await client.get(keysPath(account))).body;
    const live = page.indexOf('id="live"');
    const testSection = page.indexOf('id="test"');
    expect(page.indexOf('>prod<')).toBeGreaterThan(live);
    expect(page.indexOf('>prod<')).toBeLessThan(testSection);
    expect(page.indexOf('>ci<')).toBeGreaterThan(testSection);
  });

  it('refuses a bad origin, range or limit, naming it, keeping what was typed, and creates nothing', async () => {
    const { client, account } = await newUser(service, 'ada');
    await client.get(keysPath(account, '/new'));
    for (const [fields, words] of [
      [{ label: 'x', origins: 'http://shop.example' }, 'https'],
      [{ label: 'x', ip_ranges: '10.0.0.0/99' }, '10.0.0.0/99'],
      [{ label: 'x', hourly_limit: 'lots' }, 'hourly limit'],
    ] as const) {
      const refused = await client.submit(keysPath(account), fields);
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain(words);
      expect(refused.body).toContain('aria-invalid="true"');
    }
    expect(await service.app.store.listKeys(account.id)).toEqual([]);
  });
});

describe('changing a key', () => {
  it('adds and removes origins and ranges, disables (the API then refuses the key) and enables', async () => {
    const { client, account } = await newUser(service, 'ada');
    const secret = await createKey(client, account, { label: 'shop', origins: 'https://shop.example' });
    const [key] = await service.app.store.listKeys(account.id);
    const path = keysPath(account, `/${key.id}`);
    await client.get(path);
    expect((await client.submit(`${path}/origins`, { origin: 'https://www.shop.example' })).headers.location).toBe(`${path}?done=origin_added#origins`);
    await client.get(path);
    expect((await client.submit(`${path}/origins`, { origin: 'shop.example' })).statusCode).toBe(422);
    await client.submit(`${path}/origins/remove`, { origin: 'https://shop.example' });
    await client.get(path);
    await client.submit(`${path}/ip-ranges`, { ip_range: '203.0.113.0/24' });
    expect(await service.app.store.getKey(key.id)).toMatchObject({ origins: ['https://www.shop.example'], ipRanges: ['203.0.113.0/24'] });
    await client.get(path);
    await client.submit(`${path}/ip-ranges/remove`, { ip_range: '203.0.113.0/24' });

    await client.get(path);
    expect((await client.submit(`${path}/disable`)).headers.location).toBe(`${path}?done=disabled`);
    const refused = await callApi(secret);
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(refused.body).code).toBe('key_inactive');
    await client.get(path);
    await client.submit(`${path}/enable`);
    expect((await callApi(secret)).statusCode).toBe(200);
  });

  it('rotation: a replacement with the same settings, its first request seen, then the old key disabled', async () => {
    service = await freshService();
    const client = await signedUpUser(service, 'acme', 'ada@example.com');
    const account = (await service.app.store.findAccount('acme'))!;
    const oldSecret = await createKey(client, account, { label: 'shop', origins: 'https://shop.example', ip_ranges: '', hourly_limit: '700' });
    const [old] = await service.app.store.listKeys(account.id);
    await client.get(keysPath(account, `/${old.id}`));
    const started = await client.submit(keysPath(account, `/${old.id}/rotate`));
    expect(started.statusCode).toBe(201);
    const newSecret = secretOf(started.body);
    const replacement = (await service.app.store.listKeys(account.id)).find((key) => key.id !== old.id)!;
    expect(replacement).toMatchObject({ label: 'shop', origins: ['https://shop.example'], hourlyLimit: 700 });

    const rotation = keysPath(account, `/${old.id}/rotation`);
    expect((await client.get(rotation)).body).toContain('No request with the new key yet. Deploy it where the old key is used; this page updates by itself every 3 seconds (or reload it).');
    expect(client.page).toContain('<body data-refresh-ms="3000">');
    // Disabling before the new key is used needs a deliberate tick.
    expect((await client.submit(`${rotation}/finish`)).statusCode).toBe(422);

    service.clock.advance(60_000);
    expect((await service.request({ method: 'GET', url: '/v1/loc/search?q=48.8566,2.3522', headers: { 'x-api-key': newSecret, origin: 'https://shop.example' } })).statusCode).toBe(200);
    await service.app.keyUses.flush();
    const seen = (await client.get(rotation)).body;
    expect(seen).toContain('The new key is in use');
    expect(seen).toContain('https://shop.example');

    expect((await client.submit(`${rotation}/finish`)).headers.location).toBe(`${keysPath(account)}?done=rotated`);
    expect((await callApi(oldSecret)).statusCode).toBe(401);
    expect((await callApi(newSecret)).statusCode).toBe(200);
    expect((await service.app.store.panel.listRotations(account.id))[0].finishedAt).toBe(service.clock.now());
  });
});

describe('accounts apart', () => {
  it('a user of one account reaches no key of another by id, nor its pages; an operator reaches every account', async () => {
    const { client: ada, email: adaEmail, account: acme } = await newUser(service, 'acme');
    await createKey(ada, acme, { label: 'acme key' });
    const [acmeKey] = await service.app.store.listKeys(acme.id);
    const { client: bo, account: bolt } = await newUser(service, 'bolt');

    for (const path of [keysPath(acme), keysPath(acme, `/${acmeKey.id}`), keysPath(bolt, `/${acmeKey.id}`), `/panel/accounts/${acme.id}/team`, '/panel/accounts']) {
      const response = await bo.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain('acme key');
    }
    await bo.get(keysPath(bolt));
    for (const path of [keysPath(bolt, `/${acmeKey.id}/disable`), keysPath(acme, `/${acmeKey.id}/disable`), keysPath(bolt, `/${acmeKey.id}/origins`)]) {
      expect((await bo.submit(path, { origin: 'https://evil.example' })).statusCode, path).toBe(404);
    }
    expect(await service.app.store.getKey(acmeKey.id)).toMatchObject({ status: 'active', origins: [] });
    const adaId = (await service.app.store.panel.findUserByEmail(adaEmail))!.id;
    for (const accountId of [bolt.id, acme.id]) expect((await bo.submit(`/panel/accounts/${accountId}/team/remove`, { user: adaId })).statusCode).toBe(404);
    expect(await service.app.store.panel.getUser(adaId)).not.toBeNull();

    const { client: operator } = await newUser(service, 'ops', { operator: true });
    expect((await operator.get('/panel/accounts')).body).toContain(acme.name);
    expect((await operator.get(keysPath(acme))).body).toContain('acme key');
    await operator.submit('/panel/accounts/partner', { account: bolt.id, partner: 'off' });
    expect((await service.app.store.getAccount(bolt.id))?.partner).toBe(false);
  });
});

describe('the team', () => {
  it('a user invites another to the account with a link shown once; an address already in use is refused', async () => {
    const { client: ada, email: adaEmail, account: acme } = await newUser(service, 'acme');
    const cyEmail = newPerson('cy').email;
    await ada.get(`/panel/accounts/${acme.id}/team`);
    const invited = await ada.submit(`/panel/accounts/${acme.id}/team`, { email: cyEmail });
    expect(invited.statusCode).toBe(201);
    const url = /id="invite-link" readonly value="([^"]+)"/.exec(invited.body)![1].replaceAll('&amp;', '&');
    const cy = panelClient(service);
    await cy.get(new URL(url).pathname + new URL(url).search);
    await cy.get('/panel/link');
    expect(cy.page).toContain(acme.name);
    expect((await cy.submit('/panel/link', { token: new URL(url).searchParams.get('token')!, password: PASSWORD })).headers.location).toBe(`/panel/accounts/${acme.id}/keys`);
    await ada.get(`/panel/accounts/${acme.id}/team`);
    const again = await ada.submit(`/panel/accounts/${acme.id}/team`, { email: cyEmail.toUpperCase() });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('already has a user');

    // Cy leaves: removed by Ada, signed out at once, and no way back in; nobody removes themselves.
    const cyUser = (await service.app.store.panel.findUserByEmail(cyEmail))!;
    const adaUser = (await service.app.store.panel.findUserByEmail(adaEmail))!;
    expect((await cy.get(`/panel/accounts/${acme.id}/keys`)).statusCode).toBe(200);
    await ada.get(`/panel/accounts/${acme.id}/team`);
    expect((await ada.submit(`/panel/accounts/${acme.id}/team/remove`, { user: adaUser.id })).statusCode).toBe(404);
    const removed = await ada.submit(`/panel/accounts/${acme.id}/team/remove`, { user: cyUser.id });
    expect(removed.headers.location).toBe(`/panel/accounts/${acme.id}/team?done=removed`);
    expect((await cy.get(`/panel/accounts/${acme.id}/keys`)).headers.location).toBe(`/panel/sign-in?next=${encodeURIComponent(`/panel/accounts/${acme.id}/keys`)}`);
    expect((await panelClient(service).submit('/panel/sign-in', { email: cyEmail, password: PASSWORD })).statusCode).toBe(401);
    expect((await ada.get(`/panel/accounts/${acme.id}/team?done=removed`)).body).toContain('The person is removed');
    expect(ada.page).not.toContain(cyEmail);
  });
});
