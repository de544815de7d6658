/**
 * A key's usage and the audit log in Chromium against the real, built service: traffic made with a
 * key — its server's calls and its embed sessions' — shows on the open key page by itself within a
 * minute; refusals show by reason; every change made in the panel or with the CLI shows in the
 * account's audit log with who made it and from where; and another account's user sees neither.
 *
 * A service of its own for this file: its sign-ups and the figures it waits for stay apart from the
 * rest of the suite's (whose sign-ins share one address's throttle).
 */
import { hostname, userInfo } from 'node:os';
import type { Page } from '@playwright/test';
import { axeViolations } from './a11y.ts';
import { expect, test } from './fixtures.ts';
import { callApi, createKeyInPanel, invite, newPerson, signUp } from './panel.ts';
import { SHORT_INTERVALS, cli, newDataDir, removeDataDir, startService, type RunningProcess } from './services.ts';
import { createSession } from './stack.ts';

// The service adds figures up and the page refreshes every 0.5 s, as the suite's (global-setup.ts)
// does: a figure arrives within a second or two. At the defaults (10 s, 3 s) it may take most of a
// minute, which stays the bound: a figure later than that is a bug at any interval.
test.describe.configure({ timeout: 150_000 });
const ARRIVAL = { timeout: 60_000 };
const ORIGIN = 'https://shop.example';

let dataDir: string;
let service: RunningProcess;
let stack: { dataDir: string; service: string };
test.beforeAll(async () => {
  dataDir = newDataDir();
  service = await startService(dataDir, SHORT_INTERVALS);
  stack = { dataDir, service: service.url };
});
test.afterAll(async () => {
  await service?.stop();
  removeDataDir(dataDir);
});

/** A new person of a new account, signed up and on the account's keys. */
async function newUser(page: Page, label: string): Promise<{ email: string; account: string }> {
  const person = newPerson(label);
  await signUp(page, invite(stack, person.account, person.email));
  return person;
}

/** Creates a key in the panel and opens its page; returns its secret and id. */
async function keyOpened(page: Page, fields: Parameters<typeof createKeyInPanel>[1]): Promise<{ secret: string; keyId: string }> {
  const secret = await createKeyInPanel(page, fields);
  await page.getByRole('link', { name: /stored it/ }).click();
  return { secret, keyId: /\/keys\/(key_[A-Za-z0-9_-]+)/.exec(page.url())![1] };
}

const total = (page: Page, kind: 'server' | 'embed') => page.locator(`[data-usage-total-${kind}]`);
const refused = (page: Page, reason: string, kind: 'server' | 'embed' = 'server') => page.locator(`tr[data-refused-reason="${reason}"] td[data-kind="${kind}"]`);

test('traffic made with a key, its server’s and its embed sessions’, appears in its chart within a minute', async ({ page, browser }) => {
  await newUser(page, 'usage');
  const { secret } = await keyOpened(page, { label: 'busy', origins: ORIGIN });
  await expect(total(page, 'server')).toHaveText('0');
  await expect(page.getByRole('img', { name: /^Requests per hour, last 7 days \(UTC\): 0 server calls/ })).toBeVisible();

  for (let i = 0; i < 3; i++) expect((await callApi(stack.service, secret)).status).toBe(200);
  const session = await createSession({ service: stack.service, apiKey: secret, origin: ORIGIN });
  for (let i = 0; i < 2; i++) expect((await callApi(stack.service, '', { authorization: `Bearer ${session.session_token}`, origin: ORIGIN })).status).toBe(200);

  // The open page updates by itself: three calls and the session's creation, two of the session's.
  await expect(total(page, 'server')).toHaveText('4', ARRIVAL);
  await expect(total(page, 'embed')).toHaveText('2', ARRIVAL);
  await expect(page.getByRole('img', { name: /^Requests per hour, last 7 days \(UTC\): 4 server calls, 2 embed requests, 0 refused; busiest hour .* with \d+\.$/ })).toBeVisible();
  await expect(page.locator('#usage-summary')).toHaveText('In the last 7 days: 4 server calls, 2 embed requests and 0 refused.');
  await expect(page.locator('#key-last-use')).not.toHaveText('never');
  await page.getByText('Show as a table').click();
  await expect(page.getByRole('table').filter({ hasText: 'Hours with requests' }).getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('link', { name: 'Last 24 hours' }).click();
  await expect(page.locator('#usage-summary')).toHaveText('In the last 24 hours: 4 server calls, 2 embed requests and 0 refused.');

  expect(await axeViolations(page), 'key page with usage').toEqual([]);
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'fits a phone').toBe(true);

  // Without script, a reload shows the same figures.
  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const reloaded = await plain.newPage();
  await reloaded.goto(page.url());
  await expect(total(reloaded, 'server')).toHaveText('4');
  await expect(total(reloaded, 'embed')).toHaveText('2');
  await plain.close();

  // The keys list: the last 24 hours per key.
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.locator('[data-usage-24h]')).toHaveText('6');
});

test('refusals are shown by reason: origin, IP address, the hourly limit, the key disabled', async ({ page }) => {
  await newUser(page, 'refusals');
  const { secret } = await keyOpened(page, { label: 'strict', origins: ORIGIN, hourlyLimit: 2 });

  expect(await callApi(stack.service, secret, { origin: 'https://evil.example' })).toMatchObject({ code: 'origin_not_allowed' });
  await page.getByLabel('Add an IP range').fill('10.0.0.0/8');
  await page.locator('form').filter({ has: page.getByLabel('Add an IP range') }).getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('The IP range is added.')).toBeVisible();
  expect(await callApi(stack.service, secret)).toMatchObject({ code: 'ip_not_allowed' });
  await page.getByRole('button', { name: 'Remove 10.0.0.0/8' }).click();
  for (let i = 0; i < 2; i++) expect((await callApi(stack.service, secret)).status).toBe(200);
  expect(await callApi(stack.service, secret)).toMatchObject({ status: 429 });
  await page.getByRole('button', { name: 'Disable key' }).click();
  await expect(page.getByText('The key is disabled')).toBeVisible();
  expect(await callApi(stack.service, secret)).toMatchObject({ status: 401, code: 'key_inactive' });

  await expect(refused(page, 'origin')).toHaveText('1', ARRIVAL);
  await expect(refused(page, 'ip')).toHaveText('1', ARRIVAL);
  await expect(refused(page, 'limit')).toHaveText('1', ARRIVAL);
  await expect(refused(page, 'inactive')).toHaveText('1', ARRIVAL);
  await expect(total(page, 'server')).toHaveText('2');
  await expect(page.locator('tr[data-refused-reason="origin"]')).toContainText('add its origin');
  await expect(page.locator('#usage-summary')).toContainText('4 refused');
});

test('every change made in the panel and with the CLI shows in the audit log, with who and from where', async ({ page }) => {
  const { email, account } = await newUser(page, 'audit');
  const { keyId } = await keyOpened(page, { label: 'audited', origins: ORIGIN });
  await page.getByLabel('Add an origin').fill('https://www.shop.example');
  await page.locator('form').filter({ has: page.getByLabel('Add an origin') }).getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('The origin is added.')).toBeVisible();
  await page.getByRole('button', { name: 'Disable key' }).click();
  await page.getByRole('button', { name: 'Enable key' }).click();
  await expect(page.getByText('The key is active again.')).toBeVisible();
  await page.getByRole('button', { name: 'Start a rotation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Replacement key created' })).toBeVisible();
  const mate = newPerson('mate').email;
  await page.getByRole('link', { name: 'Team' }).click();
  await page.getByLabel('Their e-mail address').fill(mate);
  await page.getByRole('button', { name: 'Make an invitation link' }).click();
  await page.getByRole('button', { name: `Remove ${mate}` }).click();
  await expect(page.getByText('The person is removed')).toBeVisible();
  cli(dataDir, ['keys', 'disable', keyId]);
  cli(dataDir, ['accounts', 'set-partner', account, '--off']);

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const row = (action: string) => page.locator(`tr[data-action="${action}"]`);
  for (const action of ['key.create', 'key.origin_add', 'key.disable', 'key.enable', 'key.rotate', 'user.invite', 'user.remove']) {
    await expect(row(action).filter({ hasText: email }).filter({ hasText: /Panel, from / }).first(), action).toBeVisible();
  }
  await expect(row('key.origin_add')).toContainText('https://www.shop.example');
  await expect(row('user.invite').filter({ hasText: mate }).filter({ hasText: email })).toHaveCount(1);
  // The CLI's changes: the system user who ran it, on this machine.
  const cliRow = (action: string) => row(action).filter({ hasText: `CLI, on ${hostname()}` });
  await expect(cliRow('key.disable')).toContainText(keyId);
  await expect(cliRow('key.disable').locator('[data-audit-actor]')).toHaveText(userInfo().username);
  await expect(cliRow('account.partner_off')).toHaveCount(1);
  // And the operator's own: the account made and its first user invited (e2e/panel.ts's invite).
  await expect(cliRow('account.create')).toHaveCount(1);
  await expect(cliRow('user.invite')).toContainText(email);
  // Newest first: the CLI's last change heads the log.
  await expect(page.locator('tr[data-action]').first()).toHaveAttribute('data-action', 'account.partner_off');

  expect(await axeViolations(page), 'audit log').toEqual([]);
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'fits a phone').toBe(true);
});

test('a user of another account sees neither the key’s usage nor the audit log', async ({ page, browser }) => {
  await newUser(page, 'owner');
  const { secret, keyId } = await keyOpened(page, { label: 'private', origins: ORIGIN });
  expect((await callApi(stack.service, secret)).status).toBe(200);
  await expect(total(page, 'server')).toHaveText('1', ARRIVAL);
  const keyUrl = page.url();
  const auditUrl = keyUrl.replace(/\/keys\/.*$/, '/audit');

  const context = await browser.newContext();
  const intruder = await context.newPage();
  await newUser(intruder, 'intruder');
  const ownAudit = new URL(intruder.url()).pathname.replace(/\/keys$/, '/audit');
  for (const url of [keyUrl, `${keyUrl}?days=35`, `${stack.service}${ownAudit.replace(/\/audit$/, '')}/keys/${keyId}`, auditUrl, `${stack.service}/panel/audit`]) {
    const response = await intruder.goto(url);
    expect(response!.status(), url).toBe(404);
    await expect(intruder.locator('[data-usage-total-server], tr[data-action]')).toHaveCount(0);
  }
  await intruder.goto(`${stack.service}${ownAudit}`);
  await expect(intruder.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  expect(await intruder.content()).not.toContain(keyId);
  await context.close();
});
