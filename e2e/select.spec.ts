/**
 * The page chooses: `handle.select(code | point)` and `handle.clear()` with the loader from the real
 * service, sessions from the real API and offline tiles. A select chooses as a visitor's confirmed
 * choice does — the same resolve, saved, the cell outlined and brought into view, announced, onSelect
 * — and says it came from the page; its failures answer the call.
 */
import { randomInt } from 'node:crypto';
import type { Frame, Page } from '@playwright/test';
import { encode, type LocatedCell } from '../src/code/index.ts';
import type { LocCell, LocSelectResult } from '../src/embed/public-types.ts';
import { expect, test } from './fixtures.ts';
import { clear, destroy, events, mapFrame, mount, mountReady, select, waitForEvent } from './harness.ts';
import { pixelOf, type View } from './map-geometry.ts';
import type { Stack } from './stack.ts';

/** The page's map element is 800 px wide (pages.ts) and the default 400 px high. */
const SIZE = { width: 800, height: 400 };
/** Far from every cell chosen here: the map must come to the cell. */
const AWAY = { center: { lat: 20, lng: 0 }, zoom: 3 };

/** A cell of its own for each run, in Paris: what the run saves was saved by nobody before it. */
function freshCell(): LocatedCell {
  return encode(48.85 + randomInt(0, 1_000_000) / 1e8, 2.33 + randomInt(0, 1_000_000) / 1e8);
}

/** What `GET /v1/loc/lookup/{code}` says of `code`, with the suite's key. */
async function lookup(stack: Stack, code: string) {
  const response = await fetch(`${stack.service}/v1/loc/lookup/${encodeURIComponent(code)}`, { headers: { 'x-api-key': stack.apiKey } });
  expect(response.status).toBe(200);
  return (await response.json()) as { loc_code: string; location: { latitude: number; longitude: number; address: string; country_code: string }; cell: LocCell; share_url: string };
}

/** The chosen cell's outline on the frame's map, in CSS pixels from the map's top-left corner. */
async function outline(frame: Frame) {
  const map = (await frame.locator('#loc-map').boundingBox())!;
  const box = await frame.locator('.leaflet-overlay-pane path.loc-cell').boundingBox();
  return box && { left: box.x - map.x, top: box.y - map.y, right: box.x + box.width - map.x, bottom: box.y + box.height - map.y };
}

/** Where `cell` is drawn on a map of the page's size centred on its centre at `zoom`. */
function drawn(cell: LocatedCell, zoom: number) {
  const view: View = { center: { lat: cell.latitude, lng: cell.longitude }, zoom, ...SIZE };
  const northWest = pixelOf(view, { lat: cell.cell.north, lng: cell.cell.west });
  const southEast = pixelOf(view, { lat: cell.cell.south, lng: cell.cell.east });
  return { left: northWest.x, top: northWest.y, right: southEast.x, bottom: southEast.y };
}

/**
 * Waits until the frame outlines exactly `cell`, solid, in the middle of the map at zoom 19: each edge
 * within 2 px, the outline's box taking in half of its 2 px line and Leaflet's rounding to a pixel.
 */
async function expectOutlined(frame: Frame, cell: LocatedCell) {
  const expected = drawn(cell, 19);
  // A 3 m cell is about 15 px wide here: a neighbour's outline is 15 px off, the cell's own within 2.
  expect(expected.right - expected.left).toBeGreaterThan(10);
  let box: Awaited<ReturnType<typeof outline>> = null;
  await expect
    .poll(async () => {
      box = await outline(frame);
      return box !== null && Object.entries(expected).every(([edge, at]) => Math.abs(box![edge as keyof typeof box] - at) <= 2);
    }, { message: `outline at ${JSON.stringify(expected)}` })
    .toBe(true)
    .catch((error: Error) => {
      throw new Error(`${error.message}\nthe outline is at ${JSON.stringify(box)}`);
    });
  await expect(frame.locator('.leaflet-overlay-pane path.loc-cell')).not.toHaveAttribute('stroke-dasharray', /.+/);
}

async function mountAway(page: Page, token: string) {
  return mountReady(page, token, AWAY);
}

test.beforeEach(async ({ page, stack }) => {
  // No glide to the cell, so that the outline is measured where it stays.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
});

test('select by code: the exact cell is saved, outlined and brought into view, announced, and onSelect says the page chose it; the result is a lookup of the code', async ({ page, stack, newSession }) => {
  const cell = freshCell();
  const { id, frame } = await mountAway(page, (await newSession()).session_token);
  // Any form the code's normaliser takes: lower case, no hyphens, spaces around.
  const outcome = await select(page, id, ` ${cell.loc_code.replaceAll('-', '').toLowerCase()} `);
  expect(outcome).toHaveProperty('resolved');
  const result = (outcome as { resolved: LocSelectResult }).resolved;

  const selected = await waitForEvent(page, id, 'select');
  expect(result).toEqual(selected);
  expect(result).toMatchObject({ success: true, loc_code: cell.loc_code, cell: cell.cell, saved: true, source: 'page' });
  const known = await lookup(stack, cell.loc_code);
  expect(result).toEqual({
    success: true,
    loc_code: known.loc_code,
    latitude: known.location.latitude,
    longitude: known.location.longitude,
    address: known.location.address,
    country_code: known.location.country_code,
    cell: known.cell,
    saved: true,
    share_url: known.share_url,
    source: 'page',
  });

  await expectOutlined(frame, cell);
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'chosen');
  await expect(frame.locator('#loc-code')).toHaveText(cell.loc_code);
  await expect(frame.locator('#loc-live')).toHaveText(`Chosen: ${cell.loc_code}, ${known.location.address}.`);
  // Saved as a confirmed click saves: the account's own generate finds the cell stored.
  const generated = await fetch(`${stack.service}/v1/loc/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': stack.apiKey },
    body: JSON.stringify({ latitude: cell.latitude, longitude: cell.longitude }),
  });
  expect(await generated.json()).toMatchObject({ loc_code: cell.loc_code, is_existing: true });
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready', 'select']);
});

test('select by { lat, lng } and [lat, lng]: the cell that holds the point', async ({ page, newSession }) => {
  const { id, frame } = await mountAway(page, (await newSession()).session_token);
  const point = { lat: 52.516281, lng: 13.377702 };
  const cell = encode(point.lat, point.lng);
  expect(await select(page, id, point)).toEqual({ resolved: expect.objectContaining({ loc_code: cell.loc_code, cell: cell.cell, source: 'page' }) });
  await expectOutlined(frame, cell);
  await expect(frame.locator('#loc-code')).toHaveText(cell.loc_code);

  const other = encode(48.85837, 2.29448);
  expect(await select(page, id, [48.85837, 2.29448])).toEqual({ resolved: expect.objectContaining({ loc_code: other.loc_code, source: 'page' }) });
  await expectOutlined(frame, other);
});

test('a select made before onReady waits for it, and onSelect comes after onReady', async ({ page, newSession }) => {
  const cell = freshCell();
  const id = await mount(page, (await newSession()).session_token, AWAY);
  expect(await select(page, id, cell.loc_code)).toEqual({ resolved: expect.objectContaining({ loc_code: cell.loc_code, source: 'page' }) });
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready', 'select']);
  await expectOutlined(await mapFrame(page, id), cell);
});

test('invalid input: a target of neither shape throws at once, a bad code or a point without codes rejects with the stable code; no onError, and the map goes on', async ({ page, newSession }) => {
  const { id, frame } = await mountAway(page, (await newSession()).session_token);
  expect(await select(page, id, 42)).toEqual({
    threw: { kind: 'TypeError', message: 'select: target must be { lat, lng } or [lat, lng] with lat from -90 to 90 and lng from -180 to 180; received 42.' },
  });
  expect(await select(page, id, { lat: 91, lng: 0 })).toEqual({ threw: expect.objectContaining({ kind: 'TypeError', message: expect.stringContaining('received {"lat":91,"lng":0}.') }) });
  expect(await select(page, id, 'not-a-code')).toEqual({
    rejected: { code: 'invalid_code', message: 'Expected a code like FR-1A2B-3C4D, received "not-a-code".', recoverable: true },
  });
  expect(await select(page, id, 'ZZ-0000-0000')).toEqual({ rejected: expect.objectContaining({ code: 'code_not_found', recoverable: true }) });
  // Mid-Atlantic: no country's codes reach it.
  expect(await select(page, id, { lat: 0, lng: -30 })).toEqual({ rejected: expect.objectContaining({ code: 'unsupported_location', recoverable: true }) });
  await expect(frame.locator('#loc-panel')).toBeHidden();
  await expect(frame.locator('.leaflet-overlay-pane path.loc-cell')).toHaveCount(0);

  const cell = freshCell();
  expect(await select(page, id, cell.loc_code)).toEqual({ resolved: expect.objectContaining({ loc_code: cell.loc_code }) });
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready', 'select']);
});

test('clear(): the outline and the panel go as if nothing had been chosen, silently, and no onSelect', async ({ page, newSession }) => {
  const cell = freshCell();
  const { id, frame } = await mountAway(page, (await newSession()).session_token);
  await select(page, id, cell.loc_code);
  await expectOutlined(frame, cell);
  await expect(frame.locator('#loc-live')).toHaveText(/^Chosen: /);

  expect(await clear(page, id)).toEqual({ resolved: undefined });
  await expect(frame.locator('.leaflet-overlay-pane path.loc-cell')).toHaveCount(0);
  await expect(frame.locator('#loc-panel')).toBeHidden();
  await expect(frame.locator('#loc-live')).not.toHaveText('Choice cleared.');
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready', 'select']);
});

test('after destroy() select and clear reject; a select under way at destroy() rejects too', async ({ page, newSession }) => {
  const { id } = await mountAway(page, (await newSession()).session_token);
  // The frame's resolve is held: the select is under way when the map is destroyed.
  await page.route(/\/v1\/embed\/resolve$/, () => {});
  const requested = page.waitForRequest(/\/v1\/embed\/resolve$/);
  const underway = select(page, id, freshCell().loc_code);
  await requested;
  await destroy(page, id);
  const destroyed = { name: 'AbortError', message: 'The map was destroyed.' };
  expect(await underway).toEqual({ rejected: destroyed });
  expect(await select(page, id, freshCell().loc_code)).toEqual({ rejected: destroyed });
  expect(await clear(page, id)).toEqual({ rejected: destroyed });
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready']);
});

test('a visitor’s click still reports source visitor', async ({ page, newSession }) => {
  const home = encode(48.85837, 2.29448);
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: { lat: home.latitude, lng: home.longitude }, zoom: 19, confirm: false });
  await frame.locator('#loc-map').click({ position: { x: SIZE.width / 2, y: SIZE.height / 2 } });
  expect(await waitForEvent(page, id, 'select')).toMatchObject({ loc_code: home.loc_code, source: 'visitor' });
});
