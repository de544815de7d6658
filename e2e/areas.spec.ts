/**
 * A session's area in Chromium, through the real service: the map keeps the visitor inside the
 * session's box, a click outside it is explained and chooses nothing, the page's select and `value`
 * outside it are refused with `outside_session_area`, and the visitor can choose inside it after.
 */
import { encode } from '../src/code/index.ts';
import { expect, test } from './fixtures.ts';
import { events, mountReady, select, waitForEvent, waitForEvents } from './harness.ts';
import { pointAt, type View } from './map-geometry.ts';

/** Central Paris. */
const PARIS = { south: 48.8, west: 2.25, north: 48.92, east: 2.42 };
const LONDON = { lat: 51.5074, lng: -0.1278 };
const inside = ({ lat, lng }: { lat: number; lng: number }) => lat >= PARIS.south && lat <= PARIS.north && lng >= PARIS.west && lng <= PARIS.east;

test.beforeEach(async ({ page, stack }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
});

test('a box: the map opens inside it, whatever view the page asked for, and stays there when the page moves it away', async ({ page, newSession }) => {
  const session = await newSession({ area: { bounds: PARIS } });
  const { id } = await mountReady(page, session.session_token, { center: LONDON, zoom: 14 });
  const ready = await waitForEvent(page, id, 'ready');
  expect(inside(ready.center), `opened at ${JSON.stringify(ready.center)}`).toBe(true);
  expect(await select(page, id, LONDON)).toEqual({ rejected: expect.objectContaining({ code: 'outside_session_area', recoverable: true }) });
});

test('a click outside the box is explained to the visitor and reported, recoverable; a click inside then previews', async ({ page, newSession }) => {
  const session = await newSession({ area: { bounds: PARIS } });
  // Zoomed out so far that the view is larger than the box: points outside it are on screen.
  const { id, frame } = await mountReady(page, session.session_token, { center: { lat: 48.86, lng: 2.335 }, zoom: 8 });
  const ready = await waitForEvent(page, id, 'ready');
  const view: View = { center: ready.center, zoom: ready.zoom, width: 800, height: 400 };
  const outside = { x: 60, y: 200 };
  expect(inside(pointAt(view, outside))).toBe(false);
  await frame.locator('#loc-map').click({ position: outside });
  const refused = await waitForEvent(page, id, 'error');
  expect(refused).toMatchObject({ code: 'outside_session_area', recoverable: true });
  await expect(frame.locator('#loc-message')).toHaveText(/outside the area this site accepts/);
  await expect(frame.locator('#loc-panel')).toBeHidden();

  await frame.locator('#loc-map').click({ position: { x: 400, y: 200 } });
  expect(await waitForEvent(page, id, 'preview')).toMatchObject({ country_code: 'FR' });
  await expect(frame.locator('#loc-message')).toBeHidden();
});

test('countries: the page’s select and a value in another country are refused with outside_session_area; one inside is chosen', async ({ page, newSession }) => {
  const session = await newSession({ area: { countries: ['FR'] } });
  const berlin = encode(52.516281, 13.377702);
  const { id } = await mountReady(page, session.session_token, { value: berlin.loc_code });
  const [opened] = await waitForEvents(page, id, 'error', 1);
  expect(opened).toMatchObject({ code: 'outside_session_area', recoverable: true });
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['error', 'ready']);

  expect(await select(page, id, berlin.loc_code)).toEqual({ rejected: expect.objectContaining({ code: 'outside_session_area' }) });
  const paris = encode(48.85837, 2.29448);
  expect(await select(page, id, paris.loc_code)).toEqual({ resolved: expect.objectContaining({ loc_code: paris.loc_code, source: 'page' }) });
});
