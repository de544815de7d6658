/**
 * The map picker in an integrator's page, end to end: the loader from the real service, the frame it
 * serves, sessions from the real API, offline tiles. Mounting, choosing by click and by keyboard,
 * styles, and the lifecycle of mounts.
 */
import { createHash } from 'node:crypto';
import { CONNECT_GRACE_MS } from '../iframe-app/channel.ts';
import { encode } from '../src/code/index.ts';
import { STYLE_NAMES } from '../src/embed/style-names.ts';
import { expect, test } from './fixtures.ts';
import { countResolves, destroy, events, mapFrame, mount, mountReady, setStyle, waitForEvent, waitForEvents, waitForStyleTiles } from './harness.ts';
import { cellBeside, contains, pixelOf, pointAt, type View } from './map-geometry.ts';

/** The spec's loose check, made strict: the codec writes upper case. */
const CODE_FORMAT = /^[A-Z]{2}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/** A cell by the Eiffel Tower; the map is centred on its centre, so the centre pixel is well inside it. */
const HOME = encode(48.85837, 2.29448);
const HOME_CENTER = { lat: HOME.latitude, lng: HOME.longitude };

/** The page's map element is 800 px wide (pages.ts) and the default 400 px high. */
const SIZE = { width: 800, height: 400 };


test.beforeEach(async ({ page, stack }) => {
  await page.goto(stack.pages);
});

test('mount → onReady with the view, the style and the session expiry', async ({ page, newSession }) => {
  const session = await newSession();
  const id = await mount(page, session.session_token, { center: { lat: 48.8584, lng: 2.2945 }, zoom: 17 });
  const ready = await waitForEvent(page, id, 'ready');
  expect(ready).toEqual({ style: 'streets', center: { lat: 48.8584, lng: 2.2945 }, zoom: 17, expiresAt: session.expires_at, locale: 'en', requiredMessage: 'Choose a location on the map.' });

  const iframe = page.locator('#map iframe');
  await expect(iframe).toHaveCount(1);
  await expect(iframe).toHaveAttribute('title', 'Map: choose a location');
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox');
  // onReady comes after the first tiles: they are on screen, from the service's offline tile route.
  await waitForStyleTiles(await mapFrame(page, id), 'streets');
  expect(await events(page)).toEqual([{ mount: id, name: 'ready', payload: ready }]);
});

test('zoom 0 shows the whole world, from the offline z0 tile, and cannot zoom out further', async ({ page, newSession }) => {
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: { lat: 0, lng: 0 }, zoom: 0 });
  expect((await events(page, id))[0].payload).toMatchObject({ center: { lat: 0, lng: 0 }, zoom: 0 });
  await waitForStyleTiles(frame, 'streets');
  const tiles = await frame.locator('.leaflet-tile-pane img.leaflet-tile').evaluateAll((images) => images.map((image) => new URL((image as HTMLImageElement).src).pathname));
  expect(new Set(tiles)).toEqual(new Set(['/tiles/streets/0/0/0.png']));
  await expect(frame.locator('.leaflet-control-zoom-out')).toHaveClass(/leaflet-disabled/);
  // The 3 m grid starts at zoom 18: nothing of it at the world's scale.
  await expect(frame.locator('.loc-grid canvas')).toHaveCount(0);
});

test('below zoom 18 the grid neither draws nor fetches its table, also when the style changes its tone; from 18 a change of tone redraws it', async ({ page, newSession }) => {
  const gridRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/embed/grid.json')) gridRequests.push(request.url());
  });
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 12 });
  await waitForStyleTiles(frame, 'streets');
  // Satellite draws the grid in its dark tone: the change of tone must not bring the grid up either.
  await setStyle(page, id, 'satellite');
  await waitForStyleTiles(frame, 'satellite');
  await expect(frame.locator('.loc-grid canvas')).toHaveCount(0);
  expect(gridRequests).toEqual([]);
  // At zoom 18 it is there, table and all.
  await page.evaluate(({ id, center }) => window.locHandles![id - 1].setView(center, 18), { id, center: HOME_CENTER });
  await expect(frame.locator('.loc-grid .leaflet-tile-loaded').first()).toBeAttached();
  expect(gridRequests).toHaveLength(1);
  // There, a change of tone redraws it: back to streets, its tiles are drawn anew, in the light tone.
  const drawn = await frame.locator('.loc-grid canvas').first().elementHandle();
  await setStyle(page, id, 'streets');
  await expect.poll(() => drawn!.evaluate((canvas) => canvas.isConnected)).toBe(false);
  await expect(frame.locator('.loc-grid .leaflet-tile-loaded').first()).toBeAttached();
  expect(gridRequests).toHaveLength(1);
});

test('a click previews the cell, "Use this location" gives onSelect with the cell that holds the clicked point', async ({ page, newSession }) => {
  const view: View = { center: HOME_CENTER, zoom: 19, ...SIZE };
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: view.center, zoom: view.zoom });

  // A cell a few steps away, clicked at its centre: the click lands within half a pixel (0.1 m) of it.
  const target = cellBeside(HOME, 4, 3);
  const pixel = pixelOf(view, { lat: target.latitude, lng: target.longitude });
  const at = { x: Math.round(pixel.x), y: Math.round(pixel.y) };
  const clicked = pointAt(view, at);
  await frame.locator('#loc-map').click({ position: at });

  // The preview: code and confirm button in the panel; the page has heard onPreview, no onSelect.
  const panel = frame.locator('#loc-panel');
  await expect(panel).toHaveAttribute('data-state', 'preview');
  await expect(frame.locator('#loc-code')).toHaveText(target.loc_code);
  expect(await waitForEvent(page, id, 'preview')).toMatchObject({ loc_code: target.loc_code, saved: false });
  expect((await events(page, id)).map((event) => event.name)).toEqual(['ready', 'preview']);

  await frame.getByRole('button', { name: 'Use this location' }).click();
  const result = await waitForEvent(page, id, 'select');
  expect(result.loc_code).toMatch(CODE_FORMAT);
  expect(contains(result.cell, clicked), `cell ${JSON.stringify(result.cell)} holds the clicked point ${JSON.stringify(clicked)}`).toBe(true);
  expect(result).toMatchObject({ success: true, loc_code: target.loc_code, country_code: 'FR', saved: true, cell: target.cell });
  expect(result.latitude).toBeCloseTo(target.latitude, 9);
  expect(result.longitude).toBeCloseTo(target.longitude, 9);
  await expect(panel).toHaveAttribute('data-state', 'chosen');
  await expect(frame.getByRole('button', { name: 'Use this location' })).toBeHidden();
  // Focus went back to the map, but a mouse user gets no keyboard crosshair for it.
  await expect(frame.locator('#loc-map')).toBeFocused();
  await expect(frame.locator('.loc-crosshair')).toBeHidden();
});

test('with confirm: false a click selects at once', async ({ page, newSession }) => {
  const view: View = { center: HOME_CENTER, zoom: 19, ...SIZE };
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: view.center, zoom: view.zoom, confirm: false });

  await frame.locator('#loc-map').click({ position: { x: view.width / 2, y: view.height / 2 } });
  const result = await waitForEvent(page, id, 'select');
  expect(result.loc_code).toBe(HOME.loc_code);
  expect(result.saved).toBe(true);
  expect(contains(result.cell, pointAt(view, { x: view.width / 2, y: view.height / 2 }))).toBe(true);
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'chosen');
});

test('on a short map the panel keeps the code on one line, the address and the buttons that choose; only a narrow one drops Open', async ({ page, newSession }) => {
  for (const width of [800, 300]) {
    await page.locator('#map').evaluate((element, px) => void ((element as HTMLElement).style.width = `${px}px`), width);
    const { frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19, height: '260px' });
    await frame.locator('#loc-map').click({ position: { x: width / 2, y: 130 } });
    await expect(frame.locator('#loc-code')).toHaveText(CODE_FORMAT);
    await expect(frame.locator('#loc-address')).toHaveText('near Paris, France');
    await expect(frame.locator('#loc-address')).toBeVisible();
    // One line of the compact 15 px type, not a code broken in two.
    expect((await frame.locator('#loc-code').boundingBox())!.height, `code at ${width} px`).toBeLessThan(24);
    await expect(frame.getByRole('button', { name: 'Use this location' })).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Copy code' })).toBeVisible();
    await expect(frame.locator('#loc-share')).toBeVisible({ visible: width > 520 });
  }
});

test('keyboard: Tab to the map, arrows step one cell each, Enter previews, Enter on "Use this location" selects, and so does Enter again on the map', async ({ page, newSession }) => {
  // Cell steps need the grid table. It is held back until the keys have been pressed: steps taken
  // before it arrives wait for it, in order, and so does the Enter after them.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/embed\/grid\.json$/, async (route) => {
    await held;
    await route.continue();
  });
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19 });

  // Past the search box, the frame's first stop, to the map.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(frame.locator('#loc-map')).toBeFocused();
  await expect(frame.locator('.loc-crosshair')).toBeVisible();
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'ArrowRight', 'ArrowUp']) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  await expect(frame.locator('.loc-grid .leaflet-tile-loaded')).toHaveCount(0);
  release();

  const target = cellBeside(HOME, 3, 2);
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
  await expect(frame.locator('#loc-code')).toHaveText(target.loc_code);

  // A keyboard user reaches the button with Tab (past the map's own controls and the panel's links).
  const confirm = frame.getByRole('button', { name: 'Use this location' });
  for (let presses = 0; presses < 20 && !(await confirm.evaluate((button) => button === document.activeElement)); presses++) {
    await page.keyboard.press('Tab');
  }
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  const result = await waitForEvent(page, id, 'select');
  expect(result).toMatchObject({ loc_code: target.loc_code, cell: target.cell, saved: true });

  // The button is gone; focus is back on the map (not the frame's body), crosshair and all, and the
  // choice is still announced.
  await expect(confirm).toBeHidden();
  await expect(frame.locator('#loc-map')).toBeFocused();
  await expect(frame.locator('.loc-crosshair')).toBeVisible();
  await expect(frame.locator('#loc-live')).toHaveText(`Chosen: ${result.loc_code}, ${result.address}.`);
  // So the visitor can go on choosing by keyboard.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const next = cellBeside(HOME, 4, 2);
  await expect(frame.locator('#loc-code')).toHaveText(next.loc_code);

  // Enter again on the cell just previewed confirms it, without the trip through eight Tab stops.
  await expect(frame.locator('#loc-live')).toHaveText(/Press Enter again, or choose “Use this location”, to confirm\.$/);
  await page.keyboard.press('Enter');
  const [, second] = await waitForEvents(page, id, 'select', 2);
  expect(second).toMatchObject({ loc_code: next.loc_code, cell: next.cell, saved: true });
});

test('styles switch, each drawn in its own look; a screenshot of each is kept', async ({ page, newSession }, testInfo) => {
  // No fades, so that a screenshot shows the finished map.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // Brittany's coast at zoom 7: land and sea, which the offline tiles draw in each style's palette.
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: { lat: 48.3, lng: -4.0 }, zoom: 7 });
  const iframe = page.locator('#map iframe');
  const looks = new Set<string>();
  for (const style of STYLE_NAMES) {
    if (style !== 'streets') await setStyle(page, id, style);
    await waitForStyleTiles(frame, style);
    const shot = await iframe.screenshot({ path: testInfo.outputPath(`style-${style}.png`) });
    looks.add(createHash('sha256').update(shot).digest('hex'));
  }
  expect(looks.size).toBe(STYLE_NAMES.length);
  expect((await events(page, id)).map((event) => event.name)).toEqual(['ready']);
});

test('a frame that loads after load_timeout shows the visitor that the map stopped', async ({ page, newSession }) => {
  // The frame page is held back until the loader has given up on it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/embed\/frame\/[\w-]+$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.clock.install();
  const id = await mount(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19, loadTimeout: 1000 });
  await page.clock.fastForward(1000);
  expect(await waitForEvent(page, id, 'error')).toEqual({ code: 'load_timeout', message: 'The map frame did not answer within 1000 ms.', recoverable: false });

  release();
  const frame = await mapFrame(page, id);
  // The map draws (it does so before its hello), then waits for a connect the loader will never send.
  await expect(frame.locator('#loc-map.leaflet-container')).toBeAttached();
  await expect(frame.locator('#loc')).not.toHaveClass(/loc--stopped/);
  // The loader's deadline (its loadTimeout) has passed: the frame waits only a grace for a busy page.
  await page.clock.fastForward(CONNECT_GRACE_MS);
  await expect(frame.locator('#loc')).toHaveClass(/loc--stopped/);
  await expect(frame.getByRole('alert')).toHaveText('The map did not load in time. Reload the page and try again.');
  const resolves = await countResolves(frame);
  await frame.locator('#loc-map').click({ position: { x: SIZE.width / 2, y: SIZE.height / 2 } });
  expect(await resolves(), 'resolves sent by the stopped map').toBe(0);
  await expect(frame.locator('#loc-panel')).toBeHidden();
  expect((await events(page)).map(({ name }) => name)).toEqual(['error']);
});

test('destroy() and remount leave exactly one iframe, and a destroyed mount says nothing more', async ({ page, newSession }) => {
  const options = { center: HOME_CENTER, zoom: 19, confirm: false };
  const iframes = page.locator('iframe');

  const first = await mount(page, (await newSession()).session_token, options);
  await waitForEvent(page, first, 'ready');
  // Mounting into the same element replaces the earlier map.
  const second = await mount(page, (await newSession()).session_token, options);
  await expect(iframes).toHaveCount(1);
  await waitForEvent(page, second, 'ready');

  await destroy(page, second);
  await expect(iframes).toHaveCount(0);
  await destroy(page, second);
  await expect.poll(() => page.frames().length).toBe(1);

  const third = await mount(page, (await newSession()).session_token, options);
  await waitForEvent(page, third, 'ready');
  await expect(iframes).toHaveCount(1);
  expect(page.frames()).toHaveLength(2);
  await (await mapFrame(page, third)).locator('#loc-map').click({ position: { x: SIZE.width / 2, y: SIZE.height / 2 } });
  expect((await waitForEvent(page, third, 'select')).loc_code).toBe(HOME.loc_code);

  expect((await events(page)).map(({ mount, name }) => `${mount} ${name}`)).toEqual([`${first} ready`, `${second} ready`, `${third} ready`, `${third} select`]);
});

test('a loader loaded from another name of the service (127.0.0.1 for localhost): the map draws, and the network error of a click names the public URL to load it from', async ({ page, stack, newSession }) => {
  const otherName = stack.service.replace('//localhost:', '//127.0.0.1:');
  expect(otherName).not.toBe(stack.service);
  await page.goto(`${stack.pages}/?service=${encodeURIComponent(otherName)}`);
  const view: View = { center: HOME_CENTER, zoom: 19, ...SIZE };
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: view.center, zoom: view.zoom, confirm: false });

  await frame.locator('#loc-map').click({ position: { x: view.width / 2, y: view.height / 2 } });
  const error = await waitForEvent(page, id, 'error');
  expect(error).toMatchObject({ code: 'network', recoverable: true });
  expect(error.message).toContain(`This map was loaded from ${otherName}, but the service's public URL (LOC_PUBLIC_URL) is ${stack.service}`);
});
