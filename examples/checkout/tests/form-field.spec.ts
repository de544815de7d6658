/**
 * The shop's checkout with the form field, `<loc-picker>`: a page with no script of its own, whose
 * form posts the chosen code, and a React 19 page that renders the element itself. Against
 * `loc mock`, with the loc-js/testing helpers.
 */
import { expect, test, type Page } from '@playwright/test';
import { expireLocSession, locFrame, pickLocation, waitForLocReady } from 'loc-js/testing';

/** A cell at the foot of the Eiffel Tower. */
const EIFFEL = 'FR-0RMB-CLY0';

/** Counts the sessions the page asks the shop's server for. */
function countSessions(page: Page): () => number {
  let sessions = 0;
  page.on('request', (request) => void (new URL(request.url()).pathname === '/api/loc-session' && sessions++));
  return () => sessions;
}

/** The form's data, as the browser would post it. */
const formData = (page: Page) => page.locator('form').evaluate((form: HTMLFormElement) => [...new FormData(form)]);

test.describe('the form-field checkout, no script of the shop’s', () => {
  test('the form will not go without a delivery point, and posts the one chosen', async ({ page }) => {
    const sessions = countSessions(page);
    await page.goto('/form.html');
    await waitForLocReady(page);
    expect(await formData(page)).toEqual([['loc_code', '']]);
    await page.click('#place-order');
    // The browser refused the form and brought the customer to the field.
    await expect(page.locator('#delivery-point')).toBeFocused();
    await expect(page).toHaveURL(/\/form\.html$/);

    await pickLocation(page, EIFFEL);
    expect(await formData(page)).toEqual([['loc_code', EIFFEL]]);
    await page.click('#place-order');
    await expect(page.locator('#placed')).toHaveText(`Order placed: delivery to ${EIFFEL}.`);
    expect(sessions()).toBe(1);
  });

  test('a session that expired is replaced through the shop’s endpoint, and the customer’s choice goes through', async ({ page }) => {
    const sessions = countSessions(page);
    await page.goto('/form.html');
    const first = await waitForLocReady(page);
    await expireLocSession(page);

    await expect.poll(sessions).toBe(2);
    await expect.poll(() => locFrame(page).then((frame) => frame !== first, () => false)).toBe(true);
    await pickLocation(page, EIFFEL);
    expect(await formData(page)).toEqual([['loc_code', EIFFEL]]);
    await expect(page.locator('iframe')).toHaveCount(1);
  });
});

test('the React 19 checkout renders <loc-picker> itself: its getSessionToken property, its events, one session under StrictMode, the code in the form', async ({ page }) => {
  const sessions = countSessions(page);
  await page.goto('/element.html');
  const chosen = await pickLocation(page, EIFFEL);
  await expect(page.locator('#chosen')).toHaveText(`Deliver to ${EIFFEL}, ${chosen.address}.`);
  expect(await formData(page)).toEqual([['loc_code', EIFFEL]]);
  expect(sessions()).toBe(1);
  await expect(page.locator('iframe')).toHaveCount(1);
  await page.click('#place-order');
  await expect(page.locator('#placed')).toHaveText(`Order placed: delivery to ${EIFFEL}.`);
});
