/**
 * The partner panel's flows in Chromium against the real service: invitation, sign-up (a session
 * token planted before it replaced), sign-in, a key created and used against the API, disabled (the
 * API refuses it) and enabled, a rotation watched until the new key's first request; the same
 * without JavaScript; accessibility (axe, keyboard) and a phone's width. Recovery and password
 * guessing are the server's answers to forms, tested without a browser in src/panel/sign-in.test.ts.
 */
import { axeViolations } from './a11y.ts';
import { expect } from './fixtures.ts';
import { callApi, createKeyInPanel, invite, newPerson, signIn, signUp, test } from './panel.ts';

// Each test signs people up and in, and every password is hashed with scrypt: longer than the suite's default.
test.describe.configure({ timeout: 60_000 });

test('invite, sign up (replacing a planted session token), create a key, use it against the API, disable and enable it, sign out and in', async ({ page, browser, stack }) => {
  const { email, account } = newPerson('flow');
  const link = invite(stack, account, email);
  const planted = 'P'.repeat(43);
  const plant = { name: 'loc_panel', value: planted, url: `${stack.service}/panel` };
  await page.context().addCookies([plant]);
  await signUp(page, link);
  await expect(page.getByText(email)).toBeVisible();
  const cookie = (await page.context().cookies(`${stack.service}/panel`)).find((c) => c.name === 'loc_panel')!;
  expect(cookie.value).not.toBe(planted);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/panel' });
  // The planter, holding the token they planted, is not signed in as the victim.
  const planter = await browser.newContext();
  await planter.addCookies([plant]);
  const planterPage = await planter.newPage();
  await planterPage.goto(`${stack.service}/panel/security`);
  await expect(planterPage.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await planter.close();

  const secret = await createKeyInPanel(page, { label: 'checkout', origins: 'https://shop.example' });
  expect(secret).toMatch(/^loc_[A-Za-z0-9_-]{43}$/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  expect(await callApi(stack.service, secret)).toEqual({ status: 200, code: undefined });

  await page.getByRole('link', { name: /stored it/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Key “checkout”' })).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await page.getByRole('button', { name: 'Disable key' }).click();
  await expect(page.getByText('The key is disabled')).toBeVisible();
  expect(await callApi(stack.service, secret)).toEqual({ status: 401, code: 'key_inactive' });
  await page.getByRole('button', { name: 'Enable key' }).click();
  expect(await callApi(stack.service, secret)).toEqual({ status: 200, code: undefined });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();
  await signIn(page, stack.service, email);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'checkout' })).toBeVisible();
});

test('rotation: the replacement, its first request seen on the page as it arrives, the old key disabled', async ({ partnerPage: page, stack }) => {
  const oldSecret = await createKeyInPanel(page, { label: 'shop', origins: 'https://shop.example' });
  await page.getByRole('link', { name: /stored it/ }).click();
  await page.getByRole('button', { name: 'Start a rotation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Replacement key created' })).toBeVisible();
  const newSecret = await page.locator('#secret').inputValue();
  expect(newSecret).not.toBe(oldSecret);
  await page.getByRole('link', { name: /continue the rotation/ }).click();
  await expect(page.getByText('No request with the new key yet')).toBeVisible();

  // The partner deploys the new key: its server's first call shows on the open page by itself.
  expect((await callApi(stack.service, newSecret)).status).toBe(200);
  await expect(page.getByRole('status').filter({ hasText: 'The new key is in use' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Disable the old key' }).click();
  await expect(page.getByText('The rotation is done')).toBeVisible();
  expect(await callApi(stack.service, oldSecret)).toEqual({ status: 401, code: 'key_inactive' });
  expect((await callApi(stack.service, newSecret)).status).toBe(200);
});

test('every flow works without JavaScript: sign-up, a key created and shown, disabled', async ({ browser, stack }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const { email, account } = newPerson('nojs');
  await signUp(page, invite(stack, account, email));
  const secret = await createKeyInPanel(page, { label: 'plain', origins: 'https://shop.example\nhttp://localhost:3000' });
  // Without script the copy button stays hidden; the key is selectable text.
  await expect(page.getByRole('button', { name: 'Copy' })).toBeHidden();
  await page.getByRole('link', { name: /stored it/ }).click();
  await page.getByLabel('Add an origin').fill('https://www.shop.example');
  await page.getByRole('button', { name: 'Add', exact: true }).first().click();
  await expect(page.getByText('The origin is added.')).toBeVisible();
  await page.getByRole('button', { name: 'Disable key' }).click();
  expect(await callApi(stack.service, secret)).toEqual({ status: 401, code: 'key_inactive' });
  await context.close();
});

test('accessible: axe finds nothing on every page, the keyboard reaches every action, and a phone shows it without sideways scrolling', async ({ page, stack }) => {
  await page.goto(`${stack.service}/panel/sign-in`);
  expect(await axeViolations(page)).toEqual([]);
  const { email, account } = newPerson('a11y');
  const link = invite(stack, account, email);
  await page.goto(link);
  expect(await axeViolations(page)).toEqual([]);
  await signUp(page, link);

  const pages: string[] = [page.url()];
  await createKeyInPanel(page, { label: 'a11y', origins: 'https://shop.example' });
  expect(await axeViolations(page), 'key created').toEqual([]);
  await page.getByRole('link', { name: /stored it/ }).click();
  pages.push(page.url());
  await page.getByRole('button', { name: 'Start a rotation' }).click();
  await page.getByRole('link', { name: /continue the rotation/ }).click();
  pages.push(page.url());
  pages.push(page.url().replace(/\/keys\/.*$/, '/keys/new'), page.url().replace(/\/keys\/.*$/, '/team'), `${stack.service}/panel/security`);
  await page.setViewportSize({ width: 360, height: 740 });
  for (const url of pages) {
    await page.goto(url);
    expect(await axeViolations(page), url).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${url} fits a phone`).toBe(true);
  }

  // The keyboard alone: skip link, then the navigation, then the page's first action.
  await page.goto(pages[0]);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Create a key' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Create an API key' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Label')).toBeFocused();
  await page.keyboard.type('typed');
  for (let i = 0; i < 20 && !(await page.getByRole('button', { name: 'Create key' }).evaluate((button) => button === document.activeElement)); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Key created' })).toBeVisible();
});
