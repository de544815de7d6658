/**
 * The checkout on the shop's own Leaflet map, with loc's grid from loc-js/leaflet: against `loc mock`,
 * whose offline tiles the map shows; a click fills the form with the clicked cell's code, as the
 * service gives it, and outlines that cell.
 */
import { expect, test } from '@playwright/test';
import { LOC_URL, TEST_KEY } from './settings.ts';

/** A cell at the foot of the Eiffel Tower, the map's centre. */
const EIFFEL = 'FR-0RMB-CLY0';

test('a click on the shop’s own map outlines the cell, puts the service’s code for it in the form, and the order goes to it', async ({ page }) => {
  const outside: string[] = [];
  page.on('request', (request) => void (!/^http:\/\/localhost:\d+\//.test(request.url()) && outside.push(request.url())));
  const violations: string[] = [];
  page.on('console', (message) => void (message.text().includes('Content Security Policy') && violations.push(message.text())));
  await page.goto('/leaflet.html');
  const map = page.locator('#map');
  // The grid's tiles at zoom 18, drawn from the service's grid.json, over the service's own tiles.
  await expect(map.locator('.loc-grid canvas.leaflet-tile-loaded').first()).toBeAttached();
  await expect(map.locator('img.leaflet-tile-loaded').first()).toBeAttached();

  await map.click();
  await expect(page.locator('#loc-code')).toHaveValue(EIFFEL);
  await expect(page.locator('#status')).toHaveText(`Delivery to ${EIFFEL}.`);
  await expect(map.locator('.leaflet-overlay-pane path')).toHaveCount(1);
  // The service's code for the map's centre, where the click went; its cell is the one outlined there.
  const resolved = await fetch(`${LOC_URL}/v1/embed/resolve`, {
    method: 'POST',
    headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ lat: 48.85838891047226, lng: 2.2945143156748316 }),
  });
  expect(((await resolved.json()) as { loc_code: string }).loc_code).toBe(EIFFEL);
  const box = (await map.boundingBox())!;
  const outline = (await map.locator('.leaflet-overlay-pane path').boundingBox())!;
  expect(Math.abs(outline.x + outline.width / 2 - (box.x + box.width / 2))).toBeLessThan(outline.width);
  expect(Math.abs(outline.y + outline.height / 2 - (box.y + box.height / 2))).toBeLessThan(outline.height);

  await page.click('#place-order');
  await expect(page.locator('#placed')).toHaveText(`Order placed: delivery to ${EIFFEL}.`);
  expect(outside).toEqual([]);
  expect(violations).toEqual([]);
});
