/**
 * loc-js/testing as an integrator's suite uses it: the BUILT helpers (packages/loc-js/dist/testing.js)
 * against the real service, its frames and sessions. They choose as the visitor does (onSelect says
 * 'visitor'), wait on the frame's ready mark, and drive renewal and expiry on real time and under
 * Playwright's fake clock; a session of a test key shows the frame's "Test mode" badge, a live one none.
 */
import type { Page } from '@playwright/test';
import { encode } from '../src/code/index.ts';
import { LOC_FRAME_SELECTOR, LOC_TEST_MODE_SELECTOR, LocPickError, advanceLocSession, expireLocSession, locFrame, pickLocation, waitForLocReady } from '../packages/loc-js/dist/testing.js';
import { expect, test } from './fixtures.ts';
import { events, mount, waitForEvent, waitForEvents } from './harness.ts';
import { createKey } from './services.ts';
import { createSession, type Stack } from './stack.ts';

const EIFFEL = encode(48.8584, 2.2945);
const BIG_BEN = encode(51.50072, -0.12462);
/** Far from both: the helpers bring the map to the cell. */
const AWAY = { center: { lat: 20, lng: 0 }, zoom: 3 };

declare global {
  interface Window {
    /** The page's getSessionToken: a new session from the test's side (exposed by `mountRenewable`). */
    locNewToken?: () => Promise<string>;
  }
}

/**
 * Gives the page `window.locNewToken`, which asks the test for a new `ttl` s session as an integrator's
 * page asks its server; returns a reader of how many it gave. Once per page: it outlives navigations.
 */
async function exposeRenewal(page: Page, stack: Stack, ttl: number): Promise<() => number> {
  let given = 0;
  await page.exposeFunction('locNewToken', async () => {
    given++;
    return (await createSession({ service: stack.service, apiKey: stack.apiKey, origin: stack.pages, ttl })).session_token;
  });
  return () => given;
}

/** Mounts a `ttl` s session with `getSessionToken: locNewToken`, far from the cells chosen here; resolves with the mount's number. */
async function mountRenewable(page: Page, stack: Stack, ttl: number): Promise<number> {
  const first = await createSession({ service: stack.service, apiKey: stack.apiKey, origin: stack.pages, ttl });
  return page.evaluate(
    ({ token, view }) => {
      const recorded = (window.locEvents ??= []);
      const handles = (window.locHandles ??= []);
      const id = handles.length + 1;
      const record = (name: 'ready' | 'select' | 'error') => (payload: unknown) => void recorded.push({ mount: id, name, payload });
      handles.push(LOC.mount('#map', { sessionToken: token, ...view, getSessionToken: () => window.locNewToken!(), onReady: record('ready'), onSelect: record('select'), onError: record('error') }));
      return id;
    },
    { token: first.session_token, view: AWAY },
  );
}

test.beforeEach(async ({ page, stack }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
});

test('pickLocation chooses a code, then a point, as the visitor: previewed, confirmed, onSelect with source visitor; waitForLocReady first', async ({ page, newSession }) => {
  const id = await mount(page, (await newSession()).session_token, AWAY);
  const frame = await waitForLocReady(page);
  // Ready means the page's onReady ran: nothing to poll for.
  expect((await events(page, id)).map((event) => event.name)).toEqual(['ready']);
  await expect(frame.locator('#loc')).toHaveAttribute('data-state', 'ready');

  const byCode = await pickLocation(page, EIFFEL.loc_code.toLowerCase().replaceAll('-', ''));
  expect(byCode).toMatchObject({ loc_code: EIFFEL.loc_code, source: 'visitor', saved: true });
  expect(await waitForEvent(page, id, 'select')).toEqual(byCode);
  await expect(frame.locator('#loc-code')).toHaveText(EIFFEL.loc_code);

  const byPoint = await pickLocation(page, { lat: 51.50072, lng: -0.12462 });
  expect(byPoint).toMatchObject({ loc_code: BIG_BEN.loc_code, latitude: BIG_BEN.latitude, longitude: BIG_BEN.longitude, source: 'visitor' });
  expect((await waitForEvents(page, id, 'select', 2))[1]).toEqual(byPoint);

  // confirm: false leaves the cell previewed: the button waits, onSelect is not called.
  const preview = await pickLocation(page, [48.8584, 2.2945], { confirm: false });
  expect(preview).toMatchObject({ loc_code: EIFFEL.loc_code, saved: false });
  expect(preview).not.toHaveProperty('source');
  await expect(frame.getByRole('button', { name: 'Use this location' })).toBeVisible();
  expect((await events(page, id)).filter((event) => event.name === 'select')).toHaveLength(2);

  const refused = await pickLocation(page, { lat: 0, lng: -30 }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(LocPickError);
  expect((refused as LocPickError).message).toMatch(/failed with unsupported_location/);
  const reported = await waitForEvent(page, id, 'error');
  expect(reported.code).toBe('unsupported_location');
  expect((refused as LocPickError).cause).toEqual(reported);
});

test('the helpers wait for the live frame: a map mounted again while waitForLocReady waits on the frame it replaces', async ({ page, newSession }) => {
  const [first, second] = [await newSession(), await newSession()];
  const sidOf = (session: { session_token: string }) => session.session_token.split('.')[0];
  // The first map's page never arrives, so the helper is still waiting on its frame when the page replaces it.
  const held = new Promise<void>((requested) => void page.route(`**/embed/frame/${sidOf(first)}*`, () => requested()));
  const waiting = waitForLocReady(page);
  await mount(page, first.session_token, AWAY);
  await held;
  // The first frame is in the page, its document still on the way: the helper is waiting on it by now.
  expect(await (await page.locator(LOC_FRAME_SELECTOR).elementHandle())?.contentFrame()).toBeTruthy();
  const replaced = await mount(page, second.session_token, AWAY);

  const live = await waiting;
  expect(live.isDetached()).toBe(false);
  expect(live.url()).toContain(sidOf(second));
  await expect(live.locator('#loc')).toHaveAttribute('data-state', 'ready');
  // Each helper goes through the same wait: a pick right after a remount chooses on the new map.
  const picked = await pickLocation(page, EIFFEL.loc_code);
  expect(await waitForEvent(page, replaced, 'select')).toEqual(picked);
});

test('pickLocation picks on the nth map of a page with two', async ({ page, newSession }) => {
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<div id="second" style="width:600px"></div>'));
  const first = await mount(page, (await newSession()).session_token, AWAY);
  const second = await mount(page, (await newSession()).session_token, AWAY, '#second');
  const picked = await pickLocation(page, EIFFEL.loc_code, { nth: 1 });
  expect(picked.loc_code).toBe(EIFFEL.loc_code);
  expect((await waitForEvent(page, second, 'select')).source).toBe('visitor');
  expect((await events(page, first)).map((event) => event.name)).toEqual(['ready']);
});

test('renewal and expiry under page.clock: getSessionToken is called before expires_at and the map goes on; unrenewed, session_expired reaches onError', async ({ page, stack, newSession }) => {
  await page.clock.install();
  await page.goto(stack.pages);
  const renewals = await exposeRenewal(page, stack, 60);
  const renewable = await mountRenewable(page, stack, 60);
  await waitForLocReady(page);
  // A 60 s session renews at three quarters of its life (from when the frame started: a little under 45 s).
  await page.clock.fastForward(40_000);
  expect(renewals()).toBe(0);
  // The renewal's check of its new token answers late, as on a busy machine: the clock jumps past the
  // first session's end, and a click comes, while the renewal is still under way.
  await page.route('**/embed/session/*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.clock.fastForward(7_000);
  await expect.poll(renewals).toBe(1);
  // Past the first session's end: the renewed one carries on, timed by the service's clock.
  await page.clock.fastForward(20_000);
  const picked = await pickLocation(page, EIFFEL.loc_code);
  expect(picked.source).toBe('visitor');
  expect((await events(page, renewable)).map((event) => event.name)).toEqual(['ready', 'select']);
  expect(renewals()).toBe(1);

  const plain = await mount(page, (await newSession({ ttl: 60 })).session_token, AWAY, '#map');
  await waitForEvent(page, plain, 'ready');
  await page.clock.fastForward(61_000);
  expect(await waitForEvent(page, plain, 'error')).toEqual({ code: 'session_expired', message: 'The session has expired.', recoverable: false });
  await expect((await locFrame(page)).locator('#loc')).toHaveAttribute('data-state', 'stopped');
  // What waitForLocReady, and so every helper, says of a stopped map: what the visitor reads.
  await expect(pickLocation(page, EIFFEL.loc_code)).rejects.toThrow('loc frame 0 stopped instead of becoming ready: This map has expired. Reload the page to choose a location.');
});

test('advanceLocSession renews and expireLocSession expires on real time and under page.clock alike', async ({ page, stack }) => {
  const renewals = await exposeRenewal(page, stack, 60);
  for (const fake of [false, true]) {
    if (fake) {
      // Paused: no timer of the frame's fires unless the helpers make it.
      await page.clock.install();
      await page.goto(stack.pages);
      await page.clock.pauseAt(Date.now() + 1000);
    }
    const before = renewals();
    const renewable = await mountRenewable(page, stack, 60);
    await waitForLocReady(page);
    await advanceLocSession(page, 10_000);
    expect(renewals() - before).toBe(0);
    await advanceLocSession(page, 36_000);
    expect(renewals() - before).toBe(1);
    expect((await pickLocation(page, { lat: 48.8584, lng: 2.2945 })).loc_code).toBe(EIFFEL.loc_code);
    await expireLocSession(page);
    expect(await waitForEvent(page, renewable, 'error')).toMatchObject({ code: 'session_expired', recoverable: false });
    expect(renewals() - before).toBe(1);
    await page.goto(stack.pages);
  }
});

test('the testing guide’s long stay: a move into each session’s last minute renews, one past expires_at ends it unasked, a fake clock jumping over it renews; the theme is on the frame', async ({ page, stack }) => {
  const renewals = await exposeRenewal(page, stack, 15 * 60);
  const stays = await mountRenewable(page, stack, 15 * 60);
  await waitForLocReady(page);
  // As docs/testing-your-integration.md shows it.
  await advanceLocSession(page, 14.5 * 60_000);
  await advanceLocSession(page, 14.5 * 60_000);
  await pickLocation(page, 'FR-0RMB-CLY0');
  expect(renewals()).toBe(2);
  expect((await events(page, stays)).map((event) => event.name)).toEqual(['ready', 'select']);

  const jumped = await mountRenewable(page, stack, 15 * 60);
  await advanceLocSession(page, 20 * 60_000);
  expect(await waitForEvent(page, jumped, 'error')).toMatchObject({ code: 'session_expired', recoverable: false });
  expect(renewals()).toBe(2);

  await page.clock.install();
  await page.goto(stack.pages);
  const overslept = await mountRenewable(page, stack, 60);
  await waitForLocReady(page);
  await page.clock.fastForward(61_000);
  await expect.poll(renewals).toBe(3);
  expect((await pickLocation(page, EIFFEL.loc_code)).source).toBe('visitor');
  expect((await events(page, overslept)).map((event) => event.name)).toEqual(['ready', 'select']);

  await page.emulateMedia({ colorScheme: 'dark' });
  await mount(page, (await createSession({ service: stack.service, apiKey: stack.apiKey, origin: stack.pages })).session_token, { ...AWAY, appearance: { theme: 'auto' } });
  await waitForLocReady(page);
  await expect((await locFrame(page)).locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('a session of a test key shows the "Test mode" badge, once, in words; a live session shows none', async ({ page, stack, newSession }) => {
  const { apiKey } = createKey(stack.dataDir, { account: 'e2e', origins: [stack.pages], test: true });
  expect(apiKey).toMatch(/^loc_test_/);
  const testSession = await createSession({ service: stack.service, apiKey, origin: stack.pages });
  await mount(page, testSession.session_token, AWAY);
  const frame = await waitForLocReady(page);
  const badge = frame.locator(LOC_TEST_MODE_SELECTOR);
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText('Test mode');
  await expect(frame.getByText('Test mode', { exact: true })).toHaveCount(1);
  // Clear of the map's controls (zoom and locate top left, attribution bottom right).
  const box = (await badge.boundingBox())!;
  for (const control of await frame.locator('.leaflet-control').all()) {
    const other = (await control.boundingBox())!;
    const apart = box.x + box.width <= other.x || other.x + other.width <= box.x || box.y + box.height <= other.y || other.y + other.height <= box.y;
    expect(apart, `the badge ${JSON.stringify(box)} is clear of ${JSON.stringify(other)}`).toBe(true);
  }
  // The badge lets clicks through: pickLocation, and a visitor's click, work as on any map.
  expect((await pickLocation(page, EIFFEL.loc_code)).loc_code).toBe(EIFFEL.loc_code);

  await mount(page, (await newSession()).session_token, AWAY);
  const live = await waitForLocReady(page);
  await expect(live.locator(LOC_TEST_MODE_SELECTOR)).toBeHidden();
});
