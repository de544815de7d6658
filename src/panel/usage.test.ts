/**
 * A key's usage in the partner panel against the real server and a real SQLite database: requests made
 * with the key — served server calls, embed traffic, and refusals by origin, IP range, disabled key and
 * the hourly limit — appear on its page once the meter has added them up; the period is chosen with
 * ?days= (clamped, never an error); the keys list shows the last 24 hours; another account never
 * sees the figures.
 *
 * One service for the file, each test with accounts of its own (newUser); the test that moves the
 * clock has a service of its own.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { newUser, signedUpUser } from '../../test/support/panel-client.ts';
import { fileService, freshService, json, type TestService } from '../../test/support/service.ts';
import type { Account, ApiKey } from '../store/store.ts';

const file = fileService();
/** The test's service: the file's, unless the test makes its own. */
let service: TestService;
beforeEach(() => {
  service = file;
});

const ORIGIN = 'https://shop.example';
const keyPath = (account: Account, key: ApiKey, rest = '') => `/panel/accounts/${account.id}/keys/${key.id}${rest}`;
/** A call of the partner's server with the key; `headers` adds an Origin and the like. */
const search = (secret: string, headers: Record<string, string> = {}) => service.request({ method: 'GET', url: '/v1/loc/search?q=48.8566,2.3522', headers: { 'x-api-key': secret, ...headers } });
/** A call of a visitor's browser, with an embed session's token. */
const embedSearch = (token: string) => service.request({ method: 'GET', url: '/v1/loc/search?q=48.8566,2.3522', headers: { authorization: `Bearer ${token}`, origin: ORIGIN } });

/** The text of the element of `html` that carries `hook` (an attribute), tags removed. */
function figure(html: string, hook: string): string {
  const match = new RegExp(`<(\\w+)[^>]*\\b${hook}[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  if (match === null) throw new Error(`no element with ${hook}`);
  return match[2].replace(/<[^>]+>/g, '').trim();
}
const refusals = (html: string, reason: string, kind: 'server' | 'embed') => {
  const row = new RegExp(`<tr data-refused-reason="${reason}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';
  return figure(row, `data-kind="${kind}"`);
};

describe('a key’s usage on its page', () => {
  it('counts server calls and embed traffic apart, and refusals by reason, with what to do', async () => {
    const { client: ada, account } = await newUser(service, 'acme');
    const { key, secret } = await service.key(account.name, { origins: [ORIGIN], hourlyLimit: 6 });
    const path = keyPath(account, key);
    expect(figure((await ada.get(path)).body, 'data-usage-total-server')).toBe('0');

    for (let i = 0; i < 3; i++) expect((await search(secret)).statusCode).toBe(200);
    const session = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: ORIGIN } });
    expect(session.statusCode).toBe(200);
    const token = json<{ session_token: string }>(session).session_token;
    for (let i = 0; i < 2; i++) expect((await embedSearch(token)).statusCode).toBe(200);
    // A key in a page of another origin, and a call from outside the key's ranges.
    expect(json(await search(secret, { origin: 'https://evil.example' })).code).toBe('origin_not_allowed');
    await service.app.store.updateKeyList(key.id, 'ipRanges', { add: '10.0.0.0/8' });
    expect(json(await search(secret)).code).toBe('ip_not_allowed');
    await service.app.store.updateKeyList(key.id, 'ipRanges', { remove: '10.0.0.0/8' });
    // Two more served (6 in all, the limit), then two over it.
    for (let i = 0; i < 2; i++) expect((await search(secret)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await search(secret)).statusCode).toBe(429);
    await service.app.store.setKeyStatus(key.id, 'disabled');
    expect(json(await search(secret)).code).toBe('key_inactive');
    expect((await embedSearch(token)).statusCode).toBe(401);
    await Promise.all([service.app.usage.flush(), service.app.keyUses.flush()]);

    const page = (await ada.get(path)).body;
    expect(figure(page, 'data-usage-total-server')).toBe('6');
    expect(figure(page, 'data-usage-total-embed')).toBe('2');
    expect(refusals(page, 'origin', 'server')).toBe('1');
    expect(refusals(page, 'ip', 'server')).toBe('1');
    expect(refusals(page, 'limit', 'server')).toBe('2');
    expect(refusals(page, 'inactive', 'server')).toBe('1');
    expect(refusals(page, 'inactive', 'embed')).toBe('1');
    expect(figure(page, 'data-usage-total-refused')).toBe('6 refused');
    // The chart: an image named by its figures, and the same figures as a table.
    expect(page).toMatch(/<svg class="usage-chart"[^>]*role="img"[^>]*aria-label="Requests per hour, last 7 days \(UTC\): 6 server calls, 2 embed requests, 6 refused;/);
    expect(page).toContain('<path class="bar-server"');
    expect(page).toContain('<summary>Show as a table</summary>');
    expect(page).toContain('<th scope="row"><time datetime="2030-01-01T00:00:00.000Z">2030-01-01 00:00 UTC</time></th><td>6</td><td>2</td><td>6</td>');
    expect(page).toContain('add its origin');
    expect(page).toContain('Hourly figures are kept 35 days');
    // How the figures arrive, in the service's default intervals; the page script refreshes as often.
    expect(page).toContain('Figures arrive within about 13 seconds: the service adds them up every 10 seconds (the last use every 2 seconds), and this part of the page updates by itself every 3 seconds, or reload it.');
    expect(page).toContain('<body data-refresh-ms="3000">');
    // The last use is the key's fact, shown once.
    expect(page.match(/Last used/g)).toHaveLength(1);
    expect(figure(page, 'id="key-last-use"')).toContain('2030-01-01 00:10 UTC');
    // No inline style anywhere: the CSP forbids it.
    expect(page).not.toMatch(/\sstyle=/);
  });

  it('adds the figures up as often as LOC_USAGE_FLUSH_MS says, and quotes it and LOC_PANEL_REFRESH_MS, which the page script follows', async () => {
    service = await freshService({ LOC_USAGE_FLUSH_MS: '100', LOC_PANEL_REFRESH_MS: '1500' });
    const { client: ada, account } = await newUser(service, 'acme');
    const { key, secret } = await service.key(account.name, { origins: [ORIGIN] });
    expect((await search(secret)).statusCode).toBe(200);
    // No flush here: the meter's own timer adds the figure up.
    await expect.poll(async () => figure((await ada.get(keyPath(account, key))).body, 'data-usage-total-server'), { interval: 50, timeout: 5_000 }).toBe('1');
    expect(ada.page).toContain('Figures arrive within about 1.6 seconds: the service adds them up every 0.1 seconds (the last use every 2 seconds), and this part of the page updates by itself every 1.5 seconds, or reload it.');
    expect(ada.page).toContain('<body data-refresh-ms="1500">');
  });

  it('shows the last 24 hours, 7 days or 35 days; other values are clamped to the nearest, never an error', async () => {
    // Its own service: it moves the clock.
    service = await freshService();
    const { key, secret } = await service.key('acme', { origins: [ORIGIN] });
    for (let i = 0; i < 4; i++) await search(secret);
    await service.app.usage.flush();
    service.clock.advance(3 * 24 * 3_600_000);
    await search(secret);
    await service.app.usage.flush();
    // Signed in after the clock moved: a panel session lasts 12 hours.
    const ada = await signedUpUser(service, 'acme', 'ada@example.com');
    const account = (await service.app.store.findAccount('acme'))!;
    const current = (html: string) => /<a href="[^"]*\?days=(\d+)#usage" aria-current="true">/.exec(html)?.[1];

    for (const [days, chosen, total] of [['1', '1', '1'], ['7', '7', '5'], ['35', '35', '5'], ['3', '1', '1'], ['20', '7', '5'], ['1000', '35', '5'], ['abc', '7', '5'], ['-1', '7', '5'], ['', '7', '5']]) {
      const response = await ada.get(keyPath(account, key, `?days=${days}`));
      expect(response.statusCode, days).toBe(200);
      expect(current(response.body), days).toBe(chosen);
      expect(figure(response.body, 'data-usage-total-server'), days).toBe(total);
    }
    const repeated = await ada.get(keyPath(account, key, '?days=1&days=35'));
    expect(repeated.statusCode).toBe(200);
    // Over more than a week, the table is per day.
    expect((await ada.get(keyPath(account, key, '?days=35'))).body).toContain('<th scope="row"><time datetime="2030-01-01">2030-01-01</time></th><td>4</td>');
  });

  it('lists each key’s requests of the last 24 hours', async () => {
    const { client: ada, account } = await newUser(service, 'acme');
    const busy = await service.key(account.name, { origins: [ORIGIN], label: 'busy' });
    await service.key(account.name, { origins: [ORIGIN], label: 'idle' });
    for (let i = 0; i < 3; i++) await search(busy.secret);
    await search(busy.secret, { origin: 'https://evil.example' });
    await service.app.usage.flush();
    const list = (await ada.get(`/panel/accounts/${account.id}/keys`)).body;
    const cells = [...list.matchAll(/<td data-usage-24h>([\s\S]*?)<\/td>/g)].map((match) => match[1].replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    expect(cells.sort()).toEqual(['0', '3 1 refused']);
  });

  it('reads the list’s usage in one read of the store, however many keys the account has', async () => {
    const { client: ada, account } = await newUser(service, 'acme');
    const keys = await Promise.all(Array.from({ length: 12 }, (_, i) => service.key(account.name, { origins: [ORIGIN], label: `key ${i}` })));
    for (const { secret } of keys.slice(0, 4)) await search(secret);
    await service.app.usage.flush();
    const reads = vi.spyOn(service.app.store.usage, 'usageOf');
    try {
      const list = (await ada.get(`/panel/accounts/${account.id}/keys`)).body;
      expect(reads).not.toHaveBeenCalled();
      expect([...list.matchAll(/<td data-usage-24h>([\s\S]*?)<\/td>/g)].map((match) => match[1]).sort()).toEqual([...Array(8).fill('0'), ...Array(4).fill('1')]);
    } finally {
      reads.mockRestore();
    }
  });

  it('another account’s key answers 404, figures and all', async () => {
    const { account } = await newUser(service, 'acme');
    const { key, secret } = await service.key(account.name, { origins: [ORIGIN], label: 'acme key' });
    await search(secret);
    await service.app.usage.flush();
    const { client: bo, account: bolt } = await newUser(service, 'bolt');
    for (const path of [keyPath(account, key), keyPath(account, key, '?days=35'), keyPath(bolt, key), keyPath(bolt, key, '?days=1')]) {
      const response = await bo.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain('acme key');
      expect(response.body).not.toContain('data-usage');
    }
  });
});
