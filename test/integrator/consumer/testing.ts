/**
 * An integrator's own tests, written against loc-js/testing alone as its README shows: a Playwright
 * test that picks as the visitor, drives renewal and expiry and switches the mock's failures, and a
 * component test on the fake LOC. Type-checked only (the helpers run in the repository's browser
 * suite, e2e/testing.spec.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { loadLoc, type LocGlobal, type LocResolveResult, type LocSelectResult } from 'loc-js/embed';
import {
  LOC_TEST_MODE_SELECTOR,
  advanceLocSession,
  clearMockFailures,
  createFakeLoc,
  expireLocSession,
  locFrame,
  mockFailure,
  pickLocation,
  waitForLocReady,
  type FakeLoc,
  type FakeMount,
  type LocMockFailureCode,
} from 'loc-js/testing';

const MOCK = 'http://localhost:4010';

test('checkout picks a delivery point', async ({ page }: { page: Page }) => {
  await page.clock.install();
  await page.goto('/checkout');
  const frame = await waitForLocReady(page);
  await expect(frame.locator(LOC_TEST_MODE_SELECTOR)).toBeVisible();
  const chosen: LocSelectResult = await pickLocation(page, 'FR-0RMB-CLY0');
  const byPoint: LocSelectResult = await pickLocation(page, { lat: 48.8584, lng: 2.2945 }, { nth: 1 });
  const previewed: LocSelectResult | LocResolveResult = await pickLocation(page, [48.8584, 2.2945], { confirm: false });
  expect([chosen.source, byPoint.loc_code, previewed.loc_code]).toBeTruthy();
  await advanceLocSession(page, 50_000);
  await page.clock.fastForward(61_000);
  await expireLocSession(page, { nth: 0, timeout: 5000 });
  await (await locFrame(page)).locator('#loc').waitFor();
  const code: LocMockFailureCode = 'rate_limited';
  await mockFailure(MOCK, code, { times: 2, scope: 'embed' });
  await clearMockFailures(MOCK);
});

export async function componentTest(): Promise<FakeMount> {
  const fake: FakeLoc = createFakeLoc({ baseUrl: MOCK });
  const uninstall = fake.install();
  const LOC: LocGlobal = await loadLoc({ baseUrl: MOCK });
  LOC.mount('#map', { sessionToken: 'sid.secret', onSelect: (result) => void result.loc_code });
  const mount = fake.lastMount();
  mount.ready();
  mount.select('FR-0RMB-CLY0');
  mount.error('network');
  mount.expire();
  uninstall();
  return mount;
}
