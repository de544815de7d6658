/**
 * The service's API reference (`/docs`) on a phone: the page itself never scrolls sideways; a table
 * wider than the screen scrolls inside its own box, so every column can still be reached.
 */
import { expect, test } from './fixtures.ts';

test.use({ viewport: { width: 390, height: 844 } });

test('/docs at 390 px: no sideways page scroll, and a wide table scrolls in its own box', async ({ page, stack }) => {
  await page.goto(`${stack.service}/docs`);
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(width.scroll, 'the page is no wider than the screen').toBeLessThanOrEqual(width.client);

  const boxes = await page.locator('table').evaluateAll((tables) =>
    tables.map((table) => {
      const box = table.parentElement!;
      return { boxed: box.classList.contains('table-scroll'), right: box.getBoundingClientRect().right, overflows: box.scrollWidth > box.clientWidth };
    }));
  expect(boxes.length).toBeGreaterThan(5);
  for (const box of boxes) expect(box.boxed).toBe(true);
  expect(Math.max(...boxes.map((box) => box.right))).toBeLessThanOrEqual(390);
  // At this width some tables are wider than the screen: they are the ones that must scroll.
  expect(boxes.some((box) => box.overflows)).toBe(true);

  const wide = page.getByRole('region', { name: 'JSON body of POST /v1/embed/sessions' });
  await wide.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => wide.evaluate((box) => box.scrollLeft), 'the keyboard scrolls the focused box').toBeGreaterThan(0);
});
