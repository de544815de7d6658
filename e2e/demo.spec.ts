/**
 * The demo integrator (docs/demo.md) as a designer uses it: its own server makes the sessions with
 * its key, its page mounts ten maps — the playground, the four styles side by side, four themes and
 * languages side by side, the short session — and logs every callback. The tests read that log, as a person would.
 */
import type { Frame, Page } from '@playwright/test';
import { STYLE_NAMES } from '../src/embed/style-names.ts';
import { expect, test } from './fixtures.ts';
import { waitForStyleTiles } from './harness.ts';

/** The gallery of themes and languages, by the source name each logs under. */
const LOOKS = ['en_light', 'fr_dark', 'de_auto', 'ar_dark'];
const SOURCES = ['playground', ...STYLE_NAMES, ...LOOKS, 'expiry'];

interface LogEntry {
  source: string;
  name: string;
  payload: Record<string, unknown>;
}

/** The page's callback log, oldest first (the page shows the newest first). */
async function demoLog(page: Page): Promise<LogEntry[]> {
  const lines = await page.locator('#log li').allTextContents();
  return lines.reverse().map((line) => {
    // `<local time> <source> <callback> <JSON>`; the local time may hold spaces of its own.
    const match = / (\w+) (onReady|onSelect|onError|getSessionToken) (.*)$/.exec(line);
    if (!match) throw new Error(`unexpected log line: ${line}`);
    return { source: match[1], name: match[2], payload: JSON.parse(match[3]) as Record<string, unknown> };
  });
}

const logged = async (page: Page, source: string, name: string) =>
  (await demoLog(page)).filter((entry) => entry.source === source && entry.name === name);

/** The map frame mounted in the page's element `#id`. */
async function frameIn(page: Page, id: string): Promise<Frame> {
  const frame = await (await page.locator(`#${id} iframe`).elementHandle())?.contentFrame();
  if (!frame) throw new Error(`no map frame in #${id}`);
  return frame;
}

test('every map of the demo becomes ready; a screenshot of each style, side by side', async ({ page, stack }, testInfo) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.demo);
  await expect.poll(async () => (await demoLog(page)).filter((entry) => entry.name === 'onReady').map((entry) => entry.source).sort()).toEqual([...SOURCES].sort());
  expect((await demoLog(page)).filter((entry) => entry.name === 'onError')).toEqual([]);

  for (const style of STYLE_NAMES) {
    await waitForStyleTiles(await frameIn(page, `style-${style}`), style);
    await page.locator(`#style-${style}`).screenshot({ path: testInfo.outputPath(`demo-${style}.png`) });
  }
  await expect(page.locator('#problem')).toBeHidden();
});

test('the playground: a click and "Use this location" log onSelect; the style control switches the map', async ({ page, stack }) => {
  await page.goto(stack.demo);
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(1);
  const frame = await frameIn(page, 'playground-map');

  await frame.locator('#loc-map').click();
  await frame.getByRole('button', { name: 'Use this location' }).click();
  await expect.poll(async () => (await logged(page, 'playground', 'onSelect')).length).toBe(1);
  const [selected] = await logged(page, 'playground', 'onSelect');
  expect(selected.payload).toMatchObject({ success: true, saved: true, country_code: 'FR', loc_code: expect.stringMatching(/^FR-[0-9A-Z]{4}-[0-9A-Z]{4}$/) });
  await expect(frame.locator('#loc-code')).toHaveText(selected.payload.loc_code as string);

  await page.getByRole('combobox', { name: 'Style' }).selectOption('satellite');
  await waitForStyleTiles(frame, 'satellite');
  await expect(page.locator('#snippet')).toContainText("style: 'satellite'");
  expect(await logged(page, 'playground', 'onReady'), 'a style change is not a remount').toHaveLength(1);
});

test('each map has its own accessible name; the code shows a title only when the designer types one', async ({ page, stack }) => {
  await page.goto(stack.demo);
  await expect.poll(async () => (await demoLog(page)).filter((entry) => entry.name === 'onReady').length).toBe(SOURCES.length);
  const titles = await page.locator('iframe').evaluateAll((frames) => frames.map((frame) => frame.getAttribute('title')));
  expect(titles).toHaveLength(SOURCES.length);
  expect(new Set(titles).size, `distinct names: ${titles.join(' | ')}`).toBe(SOURCES.length);
  expect(titles).not.toContain('Map: choose a location');
  await expect(page.locator('#snippet')).not.toContainText('title:');

  const playground = page.locator('#playground-map iframe');
  const demoName = await playground.getAttribute('title');
  await page.getByRole('textbox', { name: 'Map title' }).fill('Drop-off point');
  await expect(playground).toHaveAttribute('title', 'Drop-off point');
  await expect(page.locator('#snippet')).toContainText("title: 'Drop-off point',");
  await page.getByRole('textbox', { name: 'Map title' }).fill('');
  await expect(playground).toHaveAttribute('title', demoName!);
  await expect(page.locator('#snippet')).not.toContainText('title:');
});

test('themes and languages side by side, and the playground’s language, theme and primary colour, live', async ({ page, stack }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(stack.demo);
  for (const source of LOOKS) await expect.poll(async () => (await logged(page, source, 'onReady')).length).toBe(1);
  const french = await frameIn(page, 'look-fr_dark');
  await expect(french.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(french.getByRole('button', { name: 'Zoom avant' })).toBeVisible();
  await expect((await frameIn(page, 'look-de_auto')).locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect((await frameIn(page, 'look-ar_dark')).locator('html')).toHaveAttribute('dir', 'rtl');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('ja');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await expect(page.locator('#snippet')).toContainText("locale: 'ja',");
  await expect(page.locator('#snippet')).toContainText("appearance: { theme: 'dark' },");
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(3);
  const playground = await frameIn(page, 'playground-map');
  await expect(playground.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(playground.locator('html')).toHaveAttribute('data-theme', 'dark');

  // A colour that would not read is the frame's to refuse: the designer sees invalid_option in the log.
  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#ffff00');
  await expect.poll(async () => (await logged(page, 'playground', 'onError')).map((entry) => entry.payload.code)).toEqual(['invalid_option']);
  await expect(page.locator('#snippet')).toContainText("variables: { colorPrimary: '#ffff00' }");
});

test('a height the loader refuses: its message beside the form, the field marked, the last good map and code, no uncaught error; a good one remounts', async ({ page, stack }) => {
  const uncaught: string[] = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
  await page.goto(stack.demo);
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(1);
  const snippet = await page.locator('#snippet').textContent();
  const height = page.getByRole('textbox', { name: 'Height' });
  const message = 'height must be a CSS length such as "400px"; received "abc".';

  await height.fill('abc');
  await expect(page.locator('#control-problems')).toHaveText(message);
  await expect(height).toHaveAttribute('aria-invalid', 'true');
  await expect(height).toHaveAccessibleDescription(message);
  await expect(height).toHaveCSS('outline-style', 'solid');
  await expect(page.getByRole('spinbutton', { name: 'Latitude' })).not.toHaveAttribute('aria-invalid');
  await expect(page.locator('#snippet')).toHaveText(snippet!);
  await expect(page.locator('#playground-map iframe')).toHaveCSS('height', '420px');

  await height.fill('300px');
  await expect(page.locator('#control-problems')).toBeEmpty();
  await expect(height).not.toHaveAttribute('aria-invalid');
  await expect(height).toHaveAccessibleDescription('');
  await expect(height).not.toHaveCSS('outline-style', 'solid');
  await expect(page.locator('#snippet')).toContainText("height: '300px',");
  await expect(page.locator('#playground-map iframe')).toHaveCSS('height', '300px');
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(2);
  await expect(page.locator('#problem')).toBeHidden();
  expect(uncaught).toEqual([]);
});

test('the short session expires after 60 s and the page mounts a new one', async ({ page, stack }) => {
  // Playwright's clock, in the page and its frames: a minute passes at once (see expiry.spec.ts).
  await page.clock.install();
  await page.goto(stack.demo);
  // Every map ready before the minute passes: one still loading would rightly report load_timeout.
  for (const source of SOURCES) await expect.poll(async () => (await logged(page, source, 'onReady')).length).toBe(1);

  await page.clock.fastForward(61_000);
  await expect.poll(async () => (await logged(page, 'expiry', 'onReady')).length).toBe(2);
  expect((await logged(page, 'expiry', 'onError')).map((entry) => entry.payload)).toEqual([
    { code: 'session_expired', message: 'The session has expired.', recoverable: false },
  ]);
  await expect(page.locator('#expiry-status')).toContainText('remounted 1 times');
  await expect(page.locator('#expiry-map iframe')).toHaveCount(1);
  // The other maps' sessions last 15 minutes: none of them expired.
  expect((await demoLog(page)).filter((entry) => entry.name === 'onError' && entry.source !== 'expiry')).toEqual([]);
});
