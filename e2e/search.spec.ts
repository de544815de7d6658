/**
 * The search box in Chromium, through the real service, its places and offline tiles: by keyboard
 * alone, as a screen reader names it; place names move the map, coordinates in the forms people paste
 * preview their cell, a code is shown — address and distance — before anything is selected and asks
 * first when it is far from the map, a code that names no cell lists what may have been meant and
 * chooses none; `search: false` hides the box; axe passes with the list open.
 */
import type { Frame, Page } from '@playwright/test';
import { encode } from '../src/code/index.ts';
import { axeViolations } from './a11y.ts';
import { expect, test } from './fixtures.ts';
import { events, mountReady, waitForEvent, type MountOptions } from './harness.ts';

const LYON = { lat: 45.764, lng: 4.8357 };
/** 2 km from the Eiffel Tower. */
const NEAR_EIFFEL = { lat: 48.8664, lng: 2.3177 };
const EIFFEL = encode(48.8584, 2.2945);

test.beforeEach(async ({ page, stack }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
});

/** The frame of a new mount, ready, with keyboard focus in its search box by Tab, as a visitor would. */
async function searchByKeyboard(page: Page, token: string, options: MountOptions, name?: string): Promise<{ id: number; frame: Frame }> {
  const mounted = await mountReady(page, token, options);
  await page.keyboard.press('Tab');
  await expect(box(mounted.frame, name)).toBeFocused();
  return mounted;
}

const box = (frame: Frame, name = 'Search for a place, coordinates or a code') => frame.getByRole('combobox', { name });
const results = (frame: Frame) => frame.getByRole('listbox', { name: 'Search results' });

/** The slippy-map tile under a point at `zoom`: the map is there once its tile is drawn. */
function tileAt({ lat, lng }: { lat: number; lng: number }, zoom: number): string {
  const n = 2 ** zoom;
  const x = Math.floor(((lng + 180) / 360) * n);
  const rad = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return `/${zoom}/${x}/${y}.png`;
}
const tilesShown = (frame: Frame) =>
  frame.locator('.leaflet-tile-pane img.leaflet-tile-loaded').evaluateAll((tiles) => tiles.map((tile) => new URL((tile as HTMLImageElement).src).pathname));

test('keyboard only: a place name typed, the arrows, Enter — the map moves there; roles, names and the count are a screen reader’s; Escape closes, then clears', async ({ page, newSession }) => {
  const { id, frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: { lat: 20, lng: 0 }, zoom: 3 });
  const input = box(frame);
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  await expect(input).toHaveAttribute('aria-autocomplete', 'list');
  await expect(frame.getByRole('search')).toBeVisible();

  await page.keyboard.type('lyon');
  const list = results(frame);
  await expect(list).toBeVisible();
  await expect(input).toHaveAttribute('aria-expanded', 'true');
  await expect(input).toHaveAttribute('aria-controls', 'loc-search-list');
  const options = list.getByRole('option');
  await expect(options.first()).toHaveAccessibleName(/^Lyon\s*France/);
  // The count said is the count listed (on a slow machine a pause mid-word may list an earlier answer first).
  const countSaid = async () => {
    const listed = await options.count();
    return listed > 1 && (await frame.locator('#loc-live').textContent()) === `${listed} results. Use the up and down arrows to move through them.`;
  };
  await expect.poll(countSaid).toBe(true);

  // Down to the first, on to the second and back: the active option is the input's, and selected.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(input).toHaveAttribute('aria-activedescendant', 'loc-search-option-0');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(input).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(list).toBeHidden();
  await expect(input).toHaveValue('Lyon');
  await expect(frame.locator('#loc-live')).toHaveText('Map moved to Lyon, France.');
  const lyon = encode(45.74846, 4.84671);
  await expect.poll(() => tilesShown(frame)).toContainEqual(expect.stringContaining(tileAt({ lat: lyon.latitude, lng: lyon.longitude }, 13)));
  // A place moves the map; it chooses nothing.
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready']);

  // Escape closes the list and keeps the text; a second one empties the box.
  await page.keyboard.press('Control+A');
  await page.keyboard.type('sain');
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  await expect(input).toHaveValue('sain');
  await page.keyboard.press('Escape');
  await expect(input).toHaveValue('');
  await expect(input).toBeFocused();
});

test('coordinates in the forms people paste — decimal, degrees-minutes-seconds, a Google Maps link — preview their cell; a pair read longitude first says so', async ({ page, newSession }) => {
  const { id, frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: LYON, zoom: 10 });
  const forms: [string, { lat: number; lng: number }][] = [
    ['48.8584, 2.2945', { lat: 48.8584, lng: 2.2945 }],
    [`48°51'30.2"N 2°17'40.2"E`, { lat: 48 + 51 / 60 + 30.2 / 3600, lng: 2 + 17 / 60 + 40.2 / 3600 }],
    ['https://www.google.com/maps/place/Tour+Eiffel/@48.85,2.29,15z/data=!4m6!3m5!8m2!3d48.8583701!4d2.2944813', { lat: 48.8583701, lng: 2.2944813 }],
  ];
  for (const [n, [text, point]] of forms.entries()) {
    await box(frame).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
    // Read in the frame, at once: one option, the point.
    await expect(results(frame).getByRole('option')).toHaveCount(1);
    await expect(results(frame).getByRole('option')).toHaveAccessibleName(`${point.lat.toFixed(6)}, ${point.lng.toFixed(6)} Coordinates`);
    await page.keyboard.press('Enter');
    const previews = await page.waitForFunction(
      ({ id, n }) => (window.locEvents ?? []).filter((event) => event.mount === id && event.name === 'preview')[n]?.payload,
      { id, n },
    );
    expect(await previews.jsonValue(), text).toMatchObject({ loc_code: encode(point.lat, point.lng).loc_code, saved: false });
    await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
    // The cell is previewed where the map now is, and Enter on the map (which now has focus) confirms it.
    await expect(frame.locator('#loc-map')).toBeFocused();
  }
  await page.keyboard.press('Enter');
  expect(await waitForEvent(page, id, 'select')).toMatchObject({ loc_code: encode(48.8583701, 2.2944813).loc_code, source: 'visitor' });

  await box(frame).focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('151.2153, -33.8568');
  await expect(results(frame).getByRole('option')).toHaveAccessibleName('-33.856800, 151.215300 Read as longitude, latitude');
});

test('a code near the map: normalised, its distance shown, then its address in a preview — nothing selected', async ({ page, newSession }) => {
  const { id, frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: NEAR_EIFFEL, zoom: 14 });
  await page.keyboard.type('fr 0rmb cly0');
  const option = results(frame).getByRole('option');
  await expect(option).toHaveCount(1);
  await expect(option).toHaveAccessibleName(/^FR-0RMB-CLY0 Location code · 1\.\d km from the map$/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  expect(await waitForEvent(page, id, 'preview')).toMatchObject({ loc_code: 'FR-0RMB-CLY0', address: 'near Paris, France', saved: false });
  await expect(frame.locator('#loc-code')).toHaveText('FR-0RMB-CLY0');
  await expect(frame.locator('#loc-address')).toHaveText('near Paris, France');
  await expect(frame.locator('#loc-live')).toHaveText(/^FR-0RMB-CLY0, near Paris, France\. Press Enter again/);
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready', 'preview']);
});

test('a code far from the map asks first: nothing is shown until the visitor says so, and Cancel shows nothing', async ({ page, newSession }) => {
  const { id, frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: LYON, zoom: 12 });
  await page.keyboard.type(EIFFEL.loc_code);
  const exact = results(frame).getByRole('option').first();
  await expect(exact).toHaveAccessibleName(/^FR-0RMB-CLY0 Location code · 39\d km from the map$/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const question = frame.getByRole('group', { name: /^FR-0RMB-CLY0 is 39\d km from the map\. Show it\?$/ });
  await expect(question).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Show it' })).toBeFocused();
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready']);

  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(question).toBeHidden();
  await expect(box(frame)).toBeFocused();
  await expect(frame.locator('#loc-panel')).toBeHidden();

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(frame.getByRole('button', { name: 'Show it' })).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await waitForEvent(page, id, 'preview')).toMatchObject({ loc_code: EIFFEL.loc_code });
  await expect(frame.locator('#loc-address')).toHaveText('near Paris, France');
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready', 'preview']);
});

test('a code outside the session’s area is never previewed: asked, the map only shows where it is', async ({ page, newSession }) => {
  const session = await newSession({ area: { countries: ['FR'] } });
  // Strasbourg, and a cell across the Rhine in Kehl, 5 km away: near, but in Germany.
  const { id, frame } = await searchByKeyboard(page, session.session_token, { center: { lat: 48.5734, lng: 7.7521 }, zoom: 13 });
  const kehl = encode(48.5725, 7.815);
  expect(kehl.country_code).toBe('DE');
  await page.keyboard.type(kehl.loc_code);
  const exact = results(frame).getByRole('option').first();
  await expect(exact).toHaveAccessibleName(new RegExp(`^${kehl.loc_code} Location code · \\d\\.\\d km from the map · outside the area this site accepts$`));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(frame.getByRole('group', { name: `${kehl.loc_code} is outside the area this site accepts and cannot be chosen here. Show where it is?` })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(frame.locator('#loc-live')).toHaveText(`Map moved to ${kehl.loc_code}, outside the area this site accepts.`);
  await expect.poll(() => tilesShown(frame)).toContainEqual(expect.stringContaining(tileAt({ lat: kehl.latitude, lng: kehl.longitude }, 19)));
  await expect(box(frame)).toBeFocused();
  await expect(frame.locator('#loc-panel')).toBeHidden();
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready']);
});

test('a code that names no cell: “did you mean”, ranked by distance from the map, never chosen by itself', async ({ page, newSession }) => {
  const { id, frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: { lat: 43.7384, lng: 7.4246 }, zoom: 15 });
  await page.keyboard.type('MC-O000-X2VW');
  await expect(frame.locator('#loc-search-status')).toHaveText('No location has this code. Did you mean one of these?');
  const option = results(frame).getByRole('option');
  await expect(option).toHaveCount(1);
  await expect(option).toHaveAccessibleName(/^Did you mean MC-0000-X2VW\? .* from the map$/);
  await expect(frame.locator('#loc-live')).toHaveText('No location has this code. Did you mean one of these? 1 result. Use the down arrow to reach it.');

  // Enter with no option active submits the text again: the list stays, nothing is chosen.
  await page.keyboard.press('Enter');
  await expect(option).toHaveCount(1);
  await expect(results(frame)).toBeVisible();
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready']);
  await expect(frame.locator('#loc-panel')).toBeHidden();

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  expect(await waitForEvent(page, id, 'preview')).toMatchObject({ loc_code: 'MC-0000-X2VW' });
});

test('axe finds nothing with the list open, nor with a question asked', async ({ page, newSession }) => {
  const { frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: LYON, zoom: 12 });
  await page.keyboard.type('sain');
  await expect(results(frame)).toBeVisible();
  await page.keyboard.press('ArrowDown');
  expect(await axeViolations(frame), 'list open').toEqual([]);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(EIFFEL.loc_code);
  await expect(results(frame).getByRole('option').first()).toHaveAccessibleName(/^FR-0RMB-CLY0/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(frame.getByRole('button', { name: 'Show it' })).toBeFocused();
  expect(await axeViolations(frame), 'question asked').toEqual([]);
});

test('fits a small map: on a 300 × 250 frame the box clears the zoom control and its list stays inside the frame', async ({ page, newSession }) => {
  await page.evaluate(() => (document.getElementById('map')!.style.width = '300px'));
  const { frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: LYON, zoom: 12, height: '250px' });
  const zoom = (await frame.locator('.leaflet-control-zoom').boundingBox())!;
  const input = (await box(frame).boundingBox())!;
  expect(input.x).toBeGreaterThanOrEqual(zoom.x + zoom.width);
  expect(await box(frame).evaluate((element) => parseFloat(getComputedStyle(element).fontSize))).toBeGreaterThanOrEqual(16);
  await page.keyboard.type('sa');
  await expect(results(frame)).toBeVisible();
  const list = (await results(frame).boundingBox())!;
  const frameBox = (await page.locator('#map iframe').boundingBox())!;
  expect(list.x + list.width).toBeLessThanOrEqual(frameBox.x + frameBox.width);
  expect(list.y + list.height).toBeLessThanOrEqual(frameBox.y + frameBox.height);
  // Three results at least are in view without scrolling.
  expect(list.height).toBeGreaterThan(3 * 40);
});

test('in Arabic and the dark theme: the box named, the count said and the distance written in the frame’s language, mirrored beside the controls, axe passing with the list open', async ({ page, newSession }) => {
  const { frame } = await searchByKeyboard(page, (await newSession()).session_token, { center: LYON, zoom: 12, locale: 'ar', appearance: { theme: 'dark' } }, 'ابحث عن مكان أو إحداثيات أو رمز');
  await expect(box(frame, 'ابحث عن مكان أو إحداثيات أو رمز')).toHaveAttribute('placeholder', 'مكان أو إحداثيات أو رمز');
  await page.keyboard.type('lyon');
  const options = frame.getByRole('listbox', { name: 'نتائج البحث' }).getByRole('option');
  await expect(options.first()).toHaveAccessibleName(/^Lyon\s*France · على بعد .* كم من الخريطة$/);
  await expect(frame.locator('#loc-live')).toHaveText(/^\d+ نتيجة|^\d+ نتائج/);
  // The zoom control is on the right: the box ends left of it.
  const zoom = (await frame.locator('.leaflet-control-zoom').boundingBox())!;
  const input = (await box(frame, 'ابحث عن مكان أو إحداثيات أو رمز').boundingBox())!;
  expect(input.x + input.width).toBeLessThanOrEqual(zoom.x);
  await page.keyboard.press('ArrowDown');
  expect(await axeViolations(frame)).toEqual([]);
});

test('the pseudo-locale finds no word of the box outside the catalogues: its names, results, count, “did you mean” and question', async ({ page, newSession }) => {
  const { frame } = await mountReady(page, (await newSession()).session_token, { center: LYON, zoom: 12, locale: 'en-XA' });
  const input = frame.getByRole('combobox');
  const bracketed = /^\[.*\]$/;
  await expect(input).toHaveAccessibleName(bracketed);
  await expect(input).toHaveAttribute('placeholder', bracketed);
  await expect(frame.locator('#loc-search-list')).toHaveAttribute('aria-label', bracketed);
  await input.focus();
  await page.keyboard.type('lyon');
  // A place's name and country are data; the distance after them is the catalogue's.
  await expect(frame.getByRole('option').first()).toHaveAccessibleName(/^Lyon\s*France · \[.*\]$/);
  await expect(frame.locator('#loc-live')).toHaveText(bracketed);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('MC-O000-X2VW');
  await expect(frame.locator('#loc-search-status')).toHaveText(bracketed);
  await expect(frame.getByRole('option').first()).toHaveAccessibleName(/^\[.*MC-0000-X2VW.*\] \[.*\]$/);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(EIFFEL.loc_code);
  await expect(frame.getByRole('option').first()).toHaveAccessibleName(/^FR-0RMB-CLY0 \[.*\] · \[.*\]$/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(frame.getByRole('group')).toHaveAccessibleName(bracketed);
  await expect(frame.locator('#loc-search-yes')).toHaveText(bracketed);
  await expect(frame.locator('#loc-search-no')).toHaveText(bracketed);
});

test('search: false hides the box', async ({ page, newSession }) => {
  const { frame } = await mountReady(page, (await newSession()).session_token, { search: false });
  await expect(frame.locator('#loc-search')).toBeHidden();
  await expect(frame.getByRole('combobox')).toHaveCount(0);
  // The map is then the frame's first stop.
  await page.keyboard.press('Tab');
  await expect(frame.locator('#loc-map')).toBeFocused();
});
