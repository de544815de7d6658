/**
 * An edit page and the visitor's steps as the page hears them: `value` opens the map on a cell chosen
 * earlier, shown as chosen, without `onSelect` (`onReady` carries it); `onPreview` follows a click,
 * `onClear` the visitor's Escape. The loader from the real service, sessions from the real API,
 * offline tiles.
 */
import { encode } from '../src/code/index.ts';
import { expect, test } from './fixtures.ts';
import { events, mountReady, select, waitForEvent } from './harness.ts';

/** A cell in Paris that the suite's seeded service knows: a value is a code chosen earlier. */
const EIFFEL = encode(48.85837, 2.29448);

test.beforeEach(async ({ page, stack }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
});

test('value opens the map on the cell, shown as chosen, announced; onReady carries it and no onSelect comes', async ({ page, newSession }) => {
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { value: EIFFEL.loc_code.toLowerCase(), center: { lat: 20, lng: 0 }, zoom: 3 });
  const ready = await waitForEvent(page, id, 'ready');
  expect(ready.value).toMatchObject({ loc_code: EIFFEL.loc_code, cell: EIFFEL.cell, saved: false });
  // The map went to the cell, not to the view the options gave.
  expect(ready.zoom).toBeGreaterThanOrEqual(19);
  expect(Math.abs(ready.center.lat - EIFFEL.latitude)).toBeLessThan(0.001);
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'chosen');
  await expect(frame.locator('#loc-code')).toHaveText(EIFFEL.loc_code);
  await expect(frame.locator('#loc-confirm')).toBeHidden();
  await expect(frame.locator('#loc-live')).toHaveText(new RegExp(`^Chosen: ${EIFFEL.loc_code}, `));
  await expect(frame.locator('.leaflet-overlay-pane path.loc-cell')).toHaveCount(1);
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready']);
});

test('a value that is not a code is reported through onError, recoverable, before onReady, which carries none; the map goes on', async ({ page, newSession }) => {
  const id = (await mountReady(page, (await newSession()).session_token, { value: 'not-a-code' })).id;
  const recorded = await events(page, id);
  expect(recorded.map(({ name }) => name)).toEqual(['error', 'ready']);
  expect(recorded[0].payload).toMatchObject({ code: 'invalid_code', recoverable: true });
  expect((recorded[1].payload as { value?: unknown }).value).toBeUndefined();
  expect(await select(page, id, EIFFEL.loc_code)).toHaveProperty('resolved');
});

test('a click previews (onPreview, unsaved), Escape clears (onClear); confirming then selects', async ({ page, newSession }) => {
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: { lat: EIFFEL.latitude, lng: EIFFEL.longitude }, zoom: 19 });
  const map = frame.locator('#loc-map');
  await map.click({ position: { x: 400, y: 200 } });
  const previewed = await waitForEvent(page, id, 'preview');
  expect(previewed).toMatchObject({ loc_code: EIFFEL.loc_code, saved: false });
  expect(previewed).not.toHaveProperty('source');
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');

  await map.press('Escape');
  await waitForEvent(page, id, 'clear');
  await expect(frame.locator('#loc-panel')).toBeHidden();
  // Escape with nothing shown tells the page nothing.
  await map.press('Escape');

  await map.click({ position: { x: 400, y: 200 } });
  await frame.getByRole('button', { name: 'Use this location' }).click();
  await waitForEvent(page, id, 'select');
  expect((await events(page, id)).map(({ name }) => name)).toEqual(['ready', 'preview', 'clear', 'preview', 'select']);
});
