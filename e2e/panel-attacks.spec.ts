/**
 * The partner panel under attack, in Chromium against the real service: a forged form from another
 * origin, a user of one account reaching another account's key by id, the key looked for after its
 * creation screen, script in the embed frame — same origin as the panel, inside a partner's
 * page — trying to read a panel page, and a one-time link's token looked for in what its page sends. A session token planted before sign-in is the sign-up flow's
 * (panel.spec.ts); password guessing is the server's throttle, tested in src/panel/sign-in.test.ts.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { mountReady } from './harness.ts';
import { expect } from './fixtures.ts';
import { PASSWORD, callApi, createKeyInPanel, invite, newPerson, signUp, test } from './panel.ts';
import { cli, newDataDir, removeDataDir, startService } from './services.ts';

// Each test signs people up and in, and every password is hashed with scrypt: longer than the suite's default.
test.describe.configure({ timeout: 60_000 });

/** The key `keyId` as the operator CLI lists it. */
function keyStatus(dataDir: string, account: string, keyId: string): string {
  const keys = JSON.parse(cli(dataDir, ['keys', 'list', '--account', account, '--json'])) as { id: string; status: string }[];
  return keys.find((key) => key.id === keyId)!.status;
}

/** A window of the frame's, holding what its script opened. */
type WithOpened = Window & { opened?: Window | null };

/** The id of the key whose page is open. */
const openKeyId = (page: Page): string => /\/keys\/(key_[A-Za-z0-9_-]+)/.exec(page.url())![1];

test('a form posted from another origin changes nothing, whether the cookie comes along (same site) or not', async ({ partnerPage: page, partner, stack }) => {
  const { account } = partner;
  await createKeyInPanel(page, { label: 'target', origins: 'https://shop.example' });
  await page.getByRole('link', { name: /stored it/ }).click();
  const keyUrl = page.url();
  const keyId = openKeyId(page);

  for (const attacker of [stack.foreignPages, stack.pages]) {
    await page.goto(`${attacker}/forger.html`);
    const answer = page.waitForResponse((response) => response.url() === `${keyUrl}/disable`);
    await page.evaluate((action) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      document.body.append(form);
      form.submit();
    }, `${keyUrl}/disable`);
    expect((await answer).status(), attacker).toBe(403);
    await page.waitForURL(`${keyUrl}/disable`);
    expect(keyStatus(stack.dataDir, account, keyId)).toBe('active');
  }
});

test('a user of one account cannot reach another account’s key by its id', async ({ partnerPage: page, browser, stack }) => {
  await createKeyInPanel(page, { label: 'owned' });
  await page.getByRole('link', { name: /stored it/ }).click();
  const keyUrl = page.url();
  const keyId = openKeyId(page);

  const context = await browser.newContext();
  const intruder = await context.newPage();
  const other = newPerson('intruder');
  await signUp(intruder, invite(stack, other.account, other.email));
  const ownAccountPath = new URL(intruder.url()).pathname.replace(/\/keys$/, '');
  for (const url of [keyUrl, `${stack.service}${ownAccountPath}/keys/${keyId}`, keyUrl.replace(/\/keys\/.*$/, '/keys')]) {
    const response = await intruder.goto(url);
    expect(response!.status(), url).toBe(404);
    await expect(intruder.getByText('owned')).toHaveCount(0);
  }
  await context.close();
});

test('a key is on its creation screen only: not on any later page, in the service’s log or in the database in clear', async ({ page }) => {
  // A service of its own, logging every request, as an operator's would at the default level.
  const dataDir = newDataDir();
  const service = await startService(dataDir, { LOC_LOG_LEVEL: 'info' });
  try {
    const { email, account } = newPerson('secret');
    await signUp(page, invite({ dataDir, service: service.url }, account, email));
    const secret = await createKeyInPanel(page, { label: 'hidden', origins: 'https://shop.example' });
    expect((await callApi(service.url, secret)).status).toBe(200);
    await page.getByRole('link', { name: /stored it/ }).click();
    const keyUrl = page.url();
    for (const url of [keyUrl, keyUrl.replace(/\/keys\/.*$/, '/keys'), `${service.url}/panel/security`]) {
      await page.goto(url);
      expect(await page.content(), url).not.toContain(secret);
    }
    await page.goBack();
    expect(await page.content()).not.toContain(secret);
    await service.stop();
    expect(service.output()).toContain('"url":"/panel/accounts/');
    expect(service.output()).not.toContain(secret.slice(4));
    const files = readdirSync(dataDir).filter((name) => statSync(join(dataDir, name)).isFile());
    const stored = files.map((name) => readFileSync(join(dataDir, name)).toString('latin1')).join('');
    expect(stored).toContain(email);
    expect(stored).not.toContain(secret.slice(4));
    expect(stored).not.toContain(PASSWORD);
  } finally {
    await service.stop();
    removeDataDir(dataDir);
  }
});

test('script in the embed frame cannot read a panel page, frame it, or reach a panel window it opens', async ({ partnerPage: page, stack, newSession }) => {
  await createKeyInPanel(page, { label: 'guarded' });
  await page.getByRole('link', { name: /stored it/ }).click();
  const keyUrl = page.url();

  // The partner's page, on the service's own site (localhost): the browser sends the panel's cookie
  // with the frame's requests, so SameSite alone would not keep the frame out.
  await page.goto(stack.pages);
  const { frame } = await mountReady(page, (await newSession()).session_token, {});
  expect(new URL(frame.url()).origin).toBe(stack.service);

  const fetched = await frame.evaluate(async (url) => {
    const response = await fetch(url, { credentials: 'include' });
    return { url: response.url, body: await response.text() };
  }, keyUrl);
  // The sign-in page (which names the page asked for, to go back to it), none of the key's own page.
  expect(fetched.body).toContain('<h1>Sign in</h1>');
  expect(fetched.body).not.toContain('guarded');

  const framed = await frame.evaluate(async (url) => {
    const iframe = document.createElement('iframe');
    iframe.src = url;
    // A page that refuses to be framed still ends in a load: of the browser's error page in its place.
    const loaded = new Promise((done) => iframe.addEventListener('load', done, { once: true }));
    document.body.append(iframe);
    await loaded;
    try {
      return iframe.contentDocument?.body?.innerHTML ?? 'no document';
    } catch (error) {
      return `threw ${(error as Error).name}`;
    }
  }, keyUrl);
  expect(framed).not.toContain('guarded');

  const popupOpened = page.context().waitForEvent('page');
  await frame.evaluate((url) => void ((window as WithOpened).opened = window.open(url)), keyUrl);
  const popup = await popupOpened;
  // The window itself is the panel, signed in — the barrier is the browsing context group, not the cookie.
  await expect(popup.getByRole('heading', { level: 1, name: 'Key “guarded”' })).toBeVisible();
  // Read from the frame once the key's page is there to read.
  const opened = await frame.evaluate(() => {
    const handle = (window as WithOpened).opened;
    if (handle === null || handle === undefined) return 'no handle';
    try {
      return handle.closed ? 'closed' : handle.document.body.innerHTML;
    } catch (error) {
      return `threw ${(error as Error).name}`;
    }
  });
  expect(opened).not.toContain('guarded');
  await popup.close();
});

test('a one-time link opened from another site signs up, and no request of its page carries its token, in the URL or the Referer', async ({ page, stack }) => {
  const { email, account } = newPerson('linked');
  const link = invite(stack, account, email);
  const token = new URL(link).searchParams.get('token')!;
  const sent: Promise<{ url: string; method: string; referer: string; origin: string }>[] = [];
  page.context().on('request', (request) => {
    // A request the browser gives up on may have no final headers: take the first ones.
    const headers = request.allHeaders().catch(() => request.headers());
    sent.push(headers.then((all) => ({ url: request.url(), method: request.method(), referer: all.referer ?? '', origin: all.origin ?? '' })));
  });

  // As from a mail or a chat: a link on a page of another site.
  await page.goto(`${stack.foreignPages}/forger.html`);
  await page.evaluate((href) => {
    const anchor = document.createElement('a');
    anchor.href = href;
    anchor.textContent = 'Join the panel';
    document.body.append(anchor);
  }, link);
  await page.getByRole('link', { name: 'Join the panel' }).click();
  await expect(page.getByLabel('New password')).toBeVisible();
  const address = page.url();
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and join' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  const requests = await Promise.all(sent);
  const panel = requests.filter((request) => request.url.startsWith(stack.service));
  // The link itself, then the page, its style, its script and the form's POST, which the panel's
  // Origin check let through (it signed up).
  expect(panel.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual(expect.arrayContaining([
    'GET /panel/link', 'GET /panel/assets/panel.css', 'GET /panel/assets/panel.js', 'POST /panel/link',
  ]));
  expect(panel.find((request) => request.method === 'POST')!.origin).toBe(stack.service);
  const carrying = panel.filter((request) => request.url !== link && (request.url.includes(token) || request.referer.includes(token)));
  expect(carrying).toEqual([]);
  // What the panel's pages send is their origin alone (the link's GETs carry the other site's referrer).
  const fromPanel = panel.filter((request) => request.referer.startsWith(stack.service));
  expect(fromPanel.length).toBeGreaterThanOrEqual(3);
  for (const request of fromPanel) expect(request.referer, request.url).toBe(`${stack.service}/`);
  expect(address).toBe(`${stack.service}/panel/link`);
  expect((await page.context().cookies(stack.service)).map((cookie) => cookie.name)).not.toContain('loc_link');
});
