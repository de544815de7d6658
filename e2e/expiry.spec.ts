/**
 * Session expiry, both ways it happens, and the integrator's answer to it — a new session and a
 * remount — without waiting out a real session (60 s at the least):
 *
 * - The frame's own timer. Playwright's clock is installed in the page and, through its init script,
 *   in every frame; fast-forwarding it past `expires_at` fires the frame's expiry timer exactly as
 *   time would. The service's clock is untouched, so the remount that follows runs in a browser whose
 *   clock is a minute fast — which the frame must correct by the service's `now` (docs/embed.md §6).
 * - The service's verdict. The frame trusts the service over its timer: a resolve answered 401
 *   `session_expired` ends the map too. To get that answer from the real service at once, the test
 *   moves the session's `expires_at` into the past in the service's own database, the way only time
 *   would otherwise; the frame still believes the session has a quarter of an hour left.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { encode } from '../src/code/index.ts';
import { expect, test } from './fixtures.ts';
import { events, mapFrame, mount, waitForEvent } from './harness.ts';
import { sidOf } from './stack.ts';

const HOME = encode(51.50072, -0.12462);
const OPTIONS = { center: { lat: HOME.latitude, lng: HOME.longitude }, zoom: 19, confirm: false };
/** The map's centre pixel (pages.ts: 800 × 400): the home cell's centre. */
const CENTRE = { x: 400, y: 200 };

test('at expires_at the frame reports session_expired and stops; a remount with a new session recovers', async ({ page, stack, newSession }) => {
  await page.clock.install();
  await page.goto(stack.pages);
  const first = await newSession({ ttl: 60 });
  const expired = await mount(page, first.session_token, OPTIONS);
  await waitForEvent(page, expired, 'ready');

  await page.clock.fastForward(61_000);
  expect(await waitForEvent(page, expired, 'error')).toEqual({ code: 'session_expired', message: 'The session has expired.', recoverable: false });
  const frame = await mapFrame(page, expired);
  await expect(frame.locator('#loc')).toHaveClass(/loc--stopped/);
  await expect(frame.getByRole('alert')).toHaveText('This map has expired. Reload the page to choose a location.');
  // Clicking the stopped map asks the service nothing (checked below: every resolve is the new session's).
  const resolves: (string | null)[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/v1/embed/resolve')) resolves.push(request.headers().authorization ?? null);
  });
  await frame.locator('#loc-map').click({ position: CENTRE });

  const second = await newSession({ ttl: 60 });
  const remounted = await mount(page, second.session_token, OPTIONS);
  const ready = await waitForEvent(page, remounted, 'ready');
  expect(ready.expiresAt).toBe(second.expires_at);
  // The browser's clock now runs a minute ahead of the service's; the new frame must not care.
  const frameClock = await (await mapFrame(page, remounted)).evaluate(() => Date.now());
  expect(frameClock - Date.now()).toBeGreaterThan(55_000);
  await (await mapFrame(page, remounted)).locator('#loc-map').click({ position: CENTRE });
  expect((await waitForEvent(page, remounted, 'select')).loc_code).toBe(HOME.loc_code);
  expect(resolves).toEqual([`Bearer ${second.session_token}`]);
  expect((await events(page)).map(({ mount, name }) => `${mount} ${name}`)).toEqual([`${expired} ready`, `${expired} error`, `${remounted} ready`, `${remounted} select`]);
});

/** Ends a session now, as its expiry would, in the service's database (see the header). */
function expireInDatabase(dataDir: string, sid: string): void {
  const db = new Database(join(dataDir, 'loc.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const changed = db.prepare('UPDATE sessions SET expires_at = ? WHERE sid = ?').run(Date.now() - 1000, sid).changes;
    if (changed !== 1) throw new Error(`no session ${sid} in ${dataDir}`);
  } finally {
    db.close();
  }
}

test('when the service answers session_expired (401), the frame reports it and stops; a remount recovers', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const first = await newSession();
  const expired = await mount(page, first.session_token, OPTIONS);
  await waitForEvent(page, expired, 'ready');

  const sid = sidOf(first.session_token);
  expireInDatabase(stack.dataDir, sid);
  // The service caches sessions for a second: wait until its public record shows the new expiry.
  await expect
    .poll(async () => Date.parse(((await (await fetch(`${stack.service}/embed/session/${sid}`)).json()) as { expires_at: string }).expires_at))
    .toBeLessThan(Date.now());

  const answer = page.waitForResponse((response) => response.url().endsWith('/v1/embed/resolve'));
  await (await mapFrame(page, expired)).locator('#loc-map').click({ position: CENTRE });
  const response = await answer;
  expect(response.status()).toBe(401);
  expect(await response.json()).toMatchObject({ success: false, code: 'session_expired' });
  expect(await waitForEvent(page, expired, 'error')).toMatchObject({ code: 'session_expired', recoverable: false });
  await expect((await mapFrame(page, expired)).getByRole('alert')).toHaveText('This map has expired. Reload the page to choose a location.');

  const remounted = await mount(page, (await newSession()).session_token, OPTIONS);
  await waitForEvent(page, remounted, 'ready');
  await (await mapFrame(page, remounted)).locator('#loc-map').click({ position: CENTRE });
  expect((await waitForEvent(page, remounted, 'select')).loc_code).toBe(HOME.loc_code);
  expect((await events(page)).map(({ mount, name }) => `${mount} ${name}`)).toEqual([`${expired} ready`, `${expired} error`, `${remounted} ready`, `${remounted} select`]);
});
