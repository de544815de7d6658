/**
 * The shop's checkout, plain and in React, as a customer uses it — against `loc mock`, with the
 * loc-js/testing helpers: choose the delivery point, see the errors the shop must handle, and keep
 * the map working as its session runs out.
 */
import { expect, test, type Page } from '@playwright/test';
import { LOC_TEST_MODE_SELECTOR, LocPickError, advanceLocSession, clearMockFailures, expireLocSession, locFrame, mockFailure, pickLocation, waitForLocReady } from 'loc-js/testing';
import { LOC_URL } from './settings.ts';

/** A cell at the foot of the Eiffel Tower. */
const EIFFEL = 'FR-0RMB-CLY0';

const PAGES = [
  { name: 'plain', path: '/' },
  { name: 'React', path: '/react.html' },
];

/** Counts the sessions the page asks the shop's server for. */
function countSessions(page: Page): () => number {
  let sessions = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/loc-session') sessions++;
  });
  return () => sessions;
}

test.afterEach(() => clearMockFailures(LOC_URL));

for (const { name, path } of PAGES) {
  test.describe(`the ${name} checkout`, () => {
    test('the customer chooses the delivery point, and the order can be placed', async ({ page }) => {
      const sessions = countSessions(page);
      await page.goto(path);
      await expect(page.locator('#place-order')).toBeDisabled();

      const chosen = await pickLocation(page, EIFFEL);
      expect(chosen).toMatchObject({ loc_code: EIFFEL, country_code: 'FR', saved: true, source: 'visitor' });
      await expect(page.locator('#chosen')).toHaveText(`Deliver to ${EIFFEL}, ${chosen.address}.`);
      await expect(page.locator('input[name="loc_code"]')).toHaveValue(EIFFEL);
      await expect(page.locator('#place-order')).toBeEnabled();
      // One map, one session: StrictMode's second effect run made none.
      expect(sessions()).toBe(1);
      await expect(page.locator('iframe')).toHaveCount(1);
    });

    test('the map says it runs on a test key', async ({ page }) => {
      await page.goto(path);
      const frame = await waitForLocReady(page);
      await expect(frame.locator(LOC_TEST_MODE_SELECTOR)).toBeVisible();
    });

    for (const code of ['rate_limited', 'network', 'unsupported_location'] as const) {
      test(`a ${code} answer is told to the customer, who then chooses again`, async ({ page }) => {
        await page.goto(path);
        await waitForLocReady(page);
        await mockFailure(LOC_URL, code, { scope: 'embed' });

        const failed = await pickLocation(page, { lat: 48.8584, lng: 2.2945 }).then(() => null, (error: unknown) => (error instanceof LocPickError ? error.cause : error));
        expect(failed).toMatchObject({ code, recoverable: true });
        await expect(page.locator('#problem')).toBeVisible();
        await expect(page.locator('#problem')).toHaveText(/Try again\.$/);
        await expect(page.locator('#place-order')).toBeDisabled();

        await pickLocation(page, EIFFEL);
        await expect(page.locator('#problem')).toBeHidden();
        await expect(page.locator('#place-order')).toBeEnabled();
      });
    }

    test('the session is renewed before it expires, through the shop’s server, and the map goes on', async ({ page }) => {
      const sessions = countSessions(page);
      await page.goto(path);
      await waitForLocReady(page);
      // Into the last minute of the 15-minute session: the map asks the page for a new one.
      await advanceLocSession(page, 14.5 * 60_000);
      expect(sessions()).toBe(2);
      await pickLocation(page, EIFFEL);
      await expect(page.locator('#place-order')).toBeEnabled();
    });

    test('a session that expired all the same is replaced by a new map', async ({ page }) => {
      const sessions = countSessions(page);
      await page.goto(path);
      const first = await waitForLocReady(page);
      await expireLocSession(page);

      // The shop mounts again with a new session: a new frame, ready, that chooses.
      await expect.poll(sessions).toBe(2);
      // While the shop swaps the maps, the old iframe may be on its way out, without a document: not yet.
      await expect.poll(() => locFrame(page).then((frame) => frame !== first, () => false)).toBe(true);
      await pickLocation(page, EIFFEL);
      await expect(page.locator('#place-order')).toBeEnabled();
      await expect(page.locator('iframe')).toHaveCount(1);
    });

    test('a session the service ends early is renewed, and the customer’s choice goes through', async ({ page }) => {
      const sessions = countSessions(page);
      await page.goto(path);
      await waitForLocReady(page);
      await mockFailure(LOC_URL, 'session_expired', { scope: 'embed' });

      const chosen = await pickLocation(page, EIFFEL);
      expect(chosen.loc_code).toBe(EIFFEL);
      expect(sessions()).toBe(2);
      await expect(page.locator('#place-order')).toBeEnabled();
    });
  });
}
