/**
 * A session's area in Chromium, through the real service: the map keeps the visitor inside the
 * session's box — or its countries' box, or a box across the antimeridian — a click outside it is
 * explained and chooses nothing, the page's select and `value` outside it are refused with
 * `outside_session_area`, and the visitor can choose inside it after.
 */
import { countriesViewBox, type Box } from '../src/code/country-bounds.ts';
import { encode } from '../src/code/index.ts';
import { boundsHold } from '../src/cells/session-area.ts';
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

/** The map's size in the suite's page (pages.ts). */
const SIZE = { width: 800, height: 400 };
const MIDDLE = { x: SIZE.width / 2, y: SIZE.height / 2 };
const holds = (box: Box, { lat, lng }: { lat: number; lng: number }) => boundsHold(box, lat, lng);

test('countries only: the map opens in their box, not on the page’s view elsewhere, and stays there when the page moves it away', async ({ page, newSession }) => {
  const germany = countriesViewBox(['DE'])!;
  const session = await newSession({ area: { countries: ['DE'] } });
  const { id, frame } = await mountReady(page, session.session_token, { center: LONDON, zoom: 8 });
  const ready = await waitForEvent(page, id, 'ready');
  expect(holds(germany, ready.center), `opened at ${JSON.stringify(ready.center)}`).toBe(true);

  // Warsaw is 5.5° east of the box: the view stops at its east edge, a screen's half-width (2.2° at
  // zoom 8) inside it — in Brandenburg, where a click in the middle previews a German cell.
  const warsaw = { lat: 52.2297, lng: 21.0122 };
  await page.evaluate(({ id, warsaw }) => window.locHandles![id - 1].setView(warsaw, 8), { id, warsaw });
  await frame.locator('#loc-map').click({ position: MIDDLE });
  const preview = await waitForEvent(page, id, 'preview');
  expect(preview.country_code).toBe('DE');
  expect(holds(germany, { lat: preview.latitude, lng: preview.longitude })).toBe(true);
  expect(preview.longitude).toBeLessThan(germany.east - 1);
  expect(preview.latitude).toBeCloseTo(warsaw.lat, 0);
});

/** Fiji, from 176° E eastwards over the antimeridian to 178° W. */
const FIJI = { south: -21, west: 176, north: -12, east: -178 };
/** Tubou, on Lakeba in the Lau group: Fiji east of 180°. */
const LAKEBA = { lat: -18.233, lng: -178.8 };

test('a box across the antimeridian: the map opens inside it, holds it past 180°, and a click east of 180° previews a Fijian cell outlined where it was clicked', async ({ page, newSession }) => {
  expect(encode(LAKEBA.lat, LAKEBA.lng).country_code).toBe('FJ');
  const session = await newSession({ area: { bounds: FIJI } });
  const { id, frame } = await mountReady(page, session.session_token, { center: LONDON, zoom: 8 });
  const ready = await waitForEvent(page, id, 'ready');
  expect(holds(FIJI, ready.center), `opened at ${JSON.stringify(ready.center)}`).toBe(true);

  // East of 180°, as the page writes it (178.8° W): the view goes there, not to the box's far edge.
  await page.evaluate(({ id, at }) => window.locHandles![id - 1].setView(at, 18), { id, at: LAKEBA });
  await frame.locator('#loc-map').click({ position: MIDDLE });
  const preview = await waitForEvent(page, id, 'preview');
  expect(preview).toMatchObject({ country_code: 'FJ', loc_code: encode(LAKEBA.lat, LAKEBA.lng).loc_code });
  // The outline is on the world copy the visitor sees: round the middle of the map, not a world away.
  const map = (await frame.locator('#loc-map').boundingBox())!;
  const outline = (await frame.locator('path.loc-cell').boundingBox())!;
  expect(Math.abs(outline.x + outline.width / 2 - (map.x + MIDDLE.x))).toBeLessThan(10);
  expect(Math.abs(outline.y + outline.height / 2 - (map.y + MIDDLE.y))).toBeLessThan(10);

  // Dragged from Taveuni's west side, at 179.9° E, a third of a degree east over the antimeridian: the
  // view stays in the box, on Fiji, with no jump to another world copy for the click to land on.
  const mouse = page.mouse;
  const from = { x: map.x + MIDDLE.x, y: map.y + MIDDLE.y };
  await page.evaluate(({ id }) => window.locHandles![id - 1].setView({ lat: -16.8, lng: 179.9 }, 10), { id });
  await mouse.move(from.x, from.y);
  await mouse.down();
  await mouse.move(from.x - 300, from.y, { steps: 10 });
  await mouse.up();
  await frame.locator('#loc-map').click({ position: MIDDLE });
  const east = await waitForEvents(page, id, 'preview', 2);
  expect(east[1].country_code).toBe('FJ');
  expect(east[1].longitude).toBeLessThan(-179);
});
