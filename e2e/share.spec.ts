/**
 * The share page `GET /{code}` in Chromium, from the suite's service (offline tiles): its map is drawn
 * from the service's own tiles with nothing requested anywhere else, and the cell is outlined in the
 * middle of the map at any width; its Copy button (an inline script the CSP allows by hash) copies,
 * tells screen readers, and says how to copy by keyboard where the clipboard is refused.
 */
import { PNG } from 'pngjs';
import { encode } from '../src/code/index.ts';
import { expect, test } from './fixtures.ts';

/** The Eiffel Tower's cell (the README's example): on land, so the offline tiles around it are land. */
const EIFFEL = encode(48.8584, 2.2945);

/** The offline streets style's land colour (src/tiles/draw.ts). */
const LAND = [242, 239, 233];
/** The map box's own background (html.ts, --panel), which shows wherever no tile covers it. */
const BOX = [246, 248, 250];

test('offline, the share page loads only from the service, its tiles render, and the cell is outlined in the middle', async ({ page, stack }, testInfo) => {
  const service = new URL(stack.service).origin;
  const requests: string[] = [];
  const failed: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('requestfailed', (request) => failed.push(request.url()));
  // Anything the page's CSP refused would be a broken map part (as the OSM frame was offline).
  await page.addInitScript(() => {
    (window as unknown as { violations: string[] }).violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { violations: string[] }).violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });

  const fetched: Record<number, number> = {};
  for (const width of [1000, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${stack.service}/${EIFFEL.loc_code}`);
    await expect(page.locator('#code')).toHaveText(EIFFEL.loc_code);
    const tiles = page.locator('.map-pane img');
    expect(await tiles.count()).toBeGreaterThanOrEqual(8);
    // Every tile in view arrived and decoded as a 256 px image; those out of view are a blank, not fetched.
    const loaded = () => tiles.evaluateAll((images) => (images as HTMLImageElement[])
      .map((image) => (!image.complete ? 'pending' : image.currentSrc.startsWith('data:') ? 'blank' : image.naturalWidth === 256 ? 'tile' : 'broken')));
    await expect.poll(async () => (await loaded()).filter((state) => state === 'pending' || state === 'broken')).toEqual([]);
    fetched[width] = (await loaded()).filter((state) => state === 'tile').length;

    const view = (await page.locator('.map-view').boundingBox())!;
    const cell = (await page.locator('.map-cell').boundingBox())!;
    expect(view.width).toBeLessThanOrEqual(width);
    expect(view.height).toBe(298);
    // Paris at zoom 19: a 3 m cell is about 15 px on a side, in the middle of the map.
    expect(cell.width).toBeGreaterThan(14);
    expect(cell.width).toBeLessThan(17);
    expect(Math.abs(cell.x + cell.width / 2 - (view.x + view.width / 2))).toBeLessThanOrEqual(1);
    expect(Math.abs(cell.y + cell.height / 2 - (view.y + view.height / 2))).toBeLessThanOrEqual(1);

    // The tiles are on screen: most of the map is the offline land colour.
    const shot = PNG.sync.read(await page.locator('.map').screenshot({ path: testInfo.outputPath(`share-map-${width}.png`) }));
    let land = 0;
    let uncovered = 0;
    const is = (i: number, [r, g, b]: number[]) => shot.data[i] === r && shot.data[i + 1] === g && shot.data[i + 2] === b;
    for (let i = 0; i < shot.data.length; i += 4) {
      if (is(i, LAND)) land++;
      if (is(i, BOX)) uncovered++;
    }
    expect(land / (shot.width * shot.height)).toBeGreaterThan(0.5);
    // No gap: the tiles a phone skips are only those out of its view.
    expect(uncovered).toBe(0);
  }
  expect(fetched[375]).toBeLessThan(fetched[1000]);

  expect(requests.filter((url) => new URL(url).origin !== service)).toEqual([]);
  expect(requests.filter((url) => url.includes('/tiles/streets/19/')).length).toBeGreaterThanOrEqual(8);
  expect(failed).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
});

test('Copy writes the code to the clipboard, says so in a polite live region, then reads "Copy code" again', async ({ page, context, stack }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.service).origin });
  await page.goto(`${stack.service}/${EIFFEL.loc_code}`);
  const button = page.locator('#copy');
  const status = page.getByRole('status');
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await expect(status).toHaveText('');

  await button.click();
  await expect(button).toHaveText('Copied');
  await expect(status).toHaveText(`Copied ${EIFFEL.loc_code}.`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(EIFFEL.loc_code);
  // After a couple of seconds the button is ready for the next copy, and the message is gone.
  await expect(button).toHaveText('Copy code');
  await expect(status).toHaveText('');

  // A second copy is announced again.
  await button.click();
  await expect(status).toHaveText(`Copied ${EIFFEL.loc_code}.`);
});

test('where the clipboard is refused, Copy selects the code and says to press Control C or Command C', async ({ page, stack }) => {
  // As a browser that denies clipboard-write does.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) },
    });
  });
  await page.goto(`${stack.service}/${EIFFEL.loc_code}`);
  const button = page.locator('#copy');
  await button.click();
  await expect(page.getByRole('status')).toHaveText(`${EIFFEL.loc_code} is selected; press Control C or Command C to copy it.`);
  expect(await page.evaluate(() => getSelection()?.toString())).toBe(EIFFEL.loc_code);
  await expect(button).toHaveText('Copy code');
});
