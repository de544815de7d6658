/**
 * The partner panel's flows as a person goes through them in the browser, for the panel's specs: an
 * invitation made with the operator CLI (as an operator makes it), signing up through its link,
 * signing in, creating a key; and each e-mail address new per test, so tests share the stack's
 * database without meeting. A test that needs a signed-in partner rather than the sign-up itself
 * takes `partnerPage`: one partner per worker, signed up once, whose session each test's page carries.
 */
import { randomBytes } from 'node:crypto';
import type { Cookie, Page } from '@playwright/test';
import { REAUTH_WINDOW_MS } from '../src/panel/panel-sessions.ts';
import { expect, test as base } from './fixtures.ts';
import { cli } from './services.ts';

/** A password the panel accepts (15 characters and more). */
export const PASSWORD = 'correct horse battery staple';

/** A fresh e-mail address and account name, unique in the stack's database. */
export function newPerson(label: string): { email: string; account: string } {
  const tag = randomBytes(4).toString('hex');
  return { email: `${label}-${tag}@example.com`, account: `${label}-${tag}` };
}

/**
 * Creates the account (a partner; new: newPerson's names are), and an invitation for `email` to the panel of the
 * service at `service`, whose address the CLI reads from LOC_PUBLIC_URL as an operator's would; returns the link.
 */
export function invite(stack: { dataDir: string; service: string }, account: string, email: string, options: { operator?: boolean } = {}): string {
  const { dataDir } = stack;
  cli(dataDir, ['accounts', 'create', '--name', account, '--partner', '--json']);
  const invited = JSON.parse(cli(dataDir, ['accounts', 'invite', '--account', account, '--email', email, ...(options.operator ? ['--operator'] : []), '--json'], { LOC_PUBLIC_URL: stack.service })) as { link: { url: string } };
  return invited.link.url;
}

/** Opens `link` and chooses PASSWORD: the person lands signed in on the account's keys. */
export async function signUp(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByRole('button', { name: /Set password and join|Set new password/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
}

export async function signIn(page: Page, service: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${service}/panel/sign-in`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Creates a key from the keys page; returns its secret, read from the page that shows it once. */
export async function createKeyInPanel(page: Page, fields: { label: string; origins?: string; test?: boolean; hourlyLimit?: number }): Promise<string> {
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('link', { name: 'Create a key' }).click();
  await page.getByLabel('Label').fill(fields.label);
  if (fields.test) await page.getByLabel(/Test key/).check();
  if (fields.origins) await page.getByLabel('Allowed origins').fill(fields.origins);
  if (fields.hourlyLimit !== undefined) await page.getByLabel('Hourly limit').fill(String(fields.hourlyLimit));
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /created/ })).toBeVisible();
  return page.locator('#secret').inputValue();
}

/**
 * A call of the partner's server to the API with `secret` (or, with `headers`, another caller's: a
 * page's Origin, an embed session's token): the status, and the error code if any.
 */
export async function callApi(service: string, secret: string, headers: Record<string, string> = {}): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${service}/v1/loc/search?q=48.8566,2.3522`, { headers: secret === '' ? headers : { 'x-api-key': secret, ...headers } });
  const body = (await response.json()) as { code?: string };
  return { status: response.status, code: body.code };
}

/** The worker's partner: who they are, and the cookies of their session and when it began. */
interface Partner {
  email: string;
  account: string;
  cookies: Cookie[];
  signedInAt: number;
}

/**
 * The panel specs' `test`: the suite's, plus `partnerPage`, the test's page signed in as the
 * worker's partner and on their keys. Their session is renewed (a sign-in) once half the
 * re-authentication window has passed, so that changes never stop at a confirmation page.
 */
export const test = base.extend<{ partnerPage: Page }, { partner: Partner }>({
  partner: [
    async ({ browser, stack }, use) => {
      const person = newPerson('partner');
      const context = await browser.newContext();
      await signUp(await context.newPage(), invite(stack, person.account, person.email));
      const partner = { ...person, cookies: await context.cookies(), signedInAt: Date.now() };
      await context.close();
      await use(partner);
    },
    { scope: 'worker' },
  ],
  partnerPage: async ({ page, context, partner, stack }, use) => {
    if (Date.now() - partner.signedInAt > REAUTH_WINDOW_MS / 2) {
      await signIn(page, stack.service, partner.email);
      await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
      Object.assign(partner, { cookies: await context.cookies(), signedInAt: Date.now() });
    } else {
      await context.addCookies(partner.cookies);
      await page.goto(`${stack.service}/panel`);
      await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    }
    await use(page);
  },
});
