/**
 * Passkeys in the partner panel, in Chromium with a virtual authenticator (DevTools' WebAuthn
 * domain: a platform authenticator that keeps discoverable passkeys and verifies its user): joining
 * through an invitation with a passkey, signing in with it without typing an address, adding a
 * second one, re-authenticating with one, removing one; and what the page says when a ceremony fails.
 */
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { invite, newPerson } from './panel.ts';

/** A platform authenticator for `page`, as a laptop's with a fingerprint reader: the user is verified. */
async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return authenticatorId;
}

async function webAuthn(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  return cdp;
}

test('join with a passkey, sign in with it, add another, re-authenticate with one, remove one', async ({ page, stack }) => {
  const cdp = await webAuthn(page);
  const laptop = await addAuthenticator(cdp);
  const { email, account } = newPerson('passkey');

  await page.goto(invite(stack, account, email));
  await page.getByRole('button', { name: 'Create a passkey (recommended)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const [created] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: laptop })).credentials;
  expect(created).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // The laptop holds a passkey of this user already: the panel excludes it, and the page says so.
  await page.getByRole('link', { name: 'Sign-in and security' }).click();
  await expect(page.locator('.passkey-unsupported')).toBeHidden();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('alert')).toHaveText('This device already holds one of your passkeys for the panel: you can sign in with it.');

  // A second device: its passkey is added beside the first.
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
  const phone = await addAuthenticator(cdp);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('The passkey is added: you can sign in with it.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Remove Passkey added/ })).toHaveCount(2);

  // Ten minutes after signing in, adding a passkey needs a confirmation first (the panel's answer is
  // stood in for here): the page goes to confirm, and a user who joined with a passkey has no
  // password — the passkey is how they confirm it is them; then they are back at their passkeys.
  await page.route('**/panel/passkeys/add/options', (route) =>
    route.fulfill({ status: 401, json: { success: false, code: 'reauthentication_required', message: 'Confirm it is you again before making this change.' } }), { times: 1 });
  const [added] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: phone })).credentials;
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm it is you' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('next')).toBe('/panel/security#passkeys');
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await page.getByRole('button', { name: 'Confirm with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-in and security' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#passkeys');
  const [used] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: phone })).credentials;
  expect(used.signCount).toBeGreaterThan(added.signCount);

  await page.getByRole('button', { name: /^Remove Passkey added/ }).first().click();
  await expect(page.getByText('The passkey is removed.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Remove Passkey added/ })).toHaveCount(1);
});

test('a passkey the panel no longer knows is refused in words, and a cancelled prompt says so', async ({ page, stack }) => {
  const cdp = await webAuthn(page);
  const authenticatorId = await addAuthenticator(cdp);
  const { email, account } = newPerson('passkey-gone');
  await page.goto(invite(stack, account, email));
  await page.getByRole('button', { name: 'Create a passkey (recommended)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  // Removed in the panel, still on the device.
  await page.getByRole('link', { name: 'Sign-in and security' }).click();
  await page.getByRole('button', { name: /^Remove Passkey added/ }).click();
  await expect(page.getByText('The passkey is removed.')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText('This passkey is not registered with the panel');
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();

  // The person fails the device's check (a wrong fingerprint, the prompt turned down): the browser refuses, the page says so.
  await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toHaveText('The passkey request was cancelled or timed out. Try again when you are ready.');
  expect(new URL(page.url()).pathname).toBe('/panel/sign-in');
});
