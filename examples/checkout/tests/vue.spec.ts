/**
 * The Vue checkout as a customer uses it, against `loc mock`: what is Vue's own — the code through
 * v-model into the form, the picker's session across renewal and expiry, and the delivery step kept
 * alive while the customer looks at the payment step. The errors the shop must tell are the plain and
 * React pages' (checkout.spec.ts); the Vue page handles them the same way, through the same mount.
 */
import { expect, test, type Page } from '@playwright/test';
import { advanceLocSession, expireLocSession, pickLocation, waitForLocReady } from 'loc-js/testing';

/** A cell at the foot of the Eiffel Tower. */
const EIFFEL = 'FR-0RMB-CLY0';
/** A point in the Louvre's courtyard. */
const LOUVRE = { lat: 48.8606, lng: 2.3376 };

/** Counts the sessions the page asks the shop's server for. */
function countSessions(page: Page): () => number {
  let sessions = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/loc-session') sessions++;
  });
  return () => sessions;
}

test('the customer’s choice is the form’s loc_code through v-model, and the order goes with it', async ({ page }) => {
  const sessions = countSessions(page);
  await page.goto('/vue.html');
  await expect(page.locator('#place-order')).toBeDisabled();

  const chosen = await pickLocation(page, EIFFEL);
  await expect(page.locator('#chosen')).toHaveText(`Deliver to ${EIFFEL}, ${chosen.address}.`);
  await expect(page.locator('input[name="loc_code"]')).toHaveValue(EIFFEL);
  expect(sessions()).toBe(1);
  await expect(page.locator('iframe')).toHaveCount(1);

  await page.locator('#place-order').click();
  await expect(page.locator('#placed')).toHaveText(`Order placed: delivery to ${EIFFEL}.`);
});

test('the session is renewed before it expires, and one that expired all the same gives a new map on the point chosen', async ({ page }) => {
  const sessions = countSessions(page);
  await page.goto('/vue.html');
  await waitForLocReady(page);
  await pickLocation(page, EIFFEL);
  // Into the last minute of the 15-minute session: the map asks the page for a new one.
  await advanceLocSession(page, 14.5 * 60_000);
  expect(sessions()).toBe(2);

  await expireLocSession(page);
  await expect.poll(sessions).toBe(3);
  const frame = await waitForLocReady(page);
  await expect(frame.locator('#loc-code')).toHaveText(EIFFEL);
  await expect(page.locator('iframe')).toHaveCount(1);
  await pickLocation(page, LOUVRE);
  await expect(page.locator('input[name="loc_code"]')).not.toHaveValue(EIFFEL);
});

test('back from the payment step, the map comes again on the same session, with the point chosen', async ({ page }) => {
  const sessions = countSessions(page);
  await page.goto('/vue.html');
  await pickLocation(page, EIFFEL);

  await page.locator('#switch-step').click();
  await expect(page.locator('#payment')).toBeVisible();
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.locator('#switch-step').click();

  const frame = await waitForLocReady(page);
  await expect(frame.locator('#loc-code')).toHaveText(EIFFEL);
  await expect(page.locator('input[name="loc_code"]')).toHaveValue(EIFFEL);
  await expect(page.locator('iframe')).toHaveCount(1);
  expect(sessions()).toBe(1);
  const next = await pickLocation(page, LOUVRE);
  await expect(page.locator('input[name="loc_code"]')).toHaveValue(next.loc_code);
});
