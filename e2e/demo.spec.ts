/**
 * The demo integrator (docs/demo.md) as a designer uses it: its own server makes the sessions with
 * its key, its page mounts twelve maps — the playground, the four styles side by side, the three
 * themes and three languages side by side, the short session — and logs every callback. The tests
 * read that log, as a person would.
 */
import type { Frame, Page } from '@playwright/test';
import { STYLE_NAMES } from '../src/embed/style-names.ts';
import { expect, test } from './fixtures.ts';
import { waitForStyleTiles } from './harness.ts';

const THEMES = ['light', 'dark', 'auto'];
const LANGUAGES = ['fr', 'ar', 'ja'];
const SOURCES = ['playground', ...STYLE_NAMES, ...THEMES, ...LANGUAGES, 'expiry'];

interface LogEntry {
  source: string;
  name: string;
  payload: Record<string, unknown>;
}

/** The page's callback log, oldest first (the page shows the newest first). */
async function demoLog(page: Page): Promise<LogEntry[]> {
  const lines = await page.locator('#log li').allTextContents();
  return lines.reverse().map((line) => {
    // `<local time> <source> <callback> <JSON>`, without the JSON for a callback of no argument
    // (onClear); the local time may hold spaces of its own.
    const match = / (\w+) (onReady|onSelect|onPreview|onClear|onError|getSessionToken)(?: (.*))?$/.exec(line);
    if (!match) throw new Error(`unexpected log line: ${line}`);
    return { source: match[1], name: match[2], payload: (match[3] === undefined ? {} : JSON.parse(match[3])) as Record<string, unknown> };
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

test('every map of the demo becomes ready; a screenshot of each style, theme and language, side by side', async ({ page, stack }, testInfo) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.demo);
  await expect.poll(async () => (await demoLog(page)).filter((entry) => entry.name === 'onReady').map((entry) => entry.source).sort()).toEqual([...SOURCES].sort());
  expect((await demoLog(page)).filter((entry) => entry.name === 'onError')).toEqual([]);

  for (const style of STYLE_NAMES) {
    await waitForStyleTiles(await frameIn(page, `style-${style}`), style);
    await page.locator(`#style-${style}`).screenshot({ path: testInfo.outputPath(`demo-${style}.png`) });
  }
  // The themes and languages open on the same code, its panel shown: in the theme's colours, in the language's words.
  for (const look of [...THEMES, ...LANGUAGES]) {
    const frame = await frameIn(page, `look-${look}`);
    await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'chosen');
    const html = frame.locator('html');
    if (THEMES.includes(look)) await expect(html).toHaveAttribute('data-theme', look === 'auto' ? 'light' : look);
    else await expect(html).toHaveAttribute('lang', look);
    if (look === 'fr') await expect(frame.getByRole('button', { name: 'Copier le code' })).toBeVisible();
    await expect(html).toHaveAttribute('dir', look === 'ar' ? 'rtl' : 'ltr');
    await page.locator(`#look-${look}`).screenshot({ path: testInfo.outputPath(`demo-look-${look}.png`) });
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

test('the playground: a preview and a clear in the log; a code chosen opens the map again as its value; the search box off', async ({ page, stack }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.demo);
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(1);
  let frame = await frameIn(page, 'playground-map');
  const map = frame.locator('#loc-map');

  await map.click();
  await expect.poll(async () => (await logged(page, 'playground', 'onPreview')).length).toBe(1);
  const [preview] = await logged(page, 'playground', 'onPreview');
  expect(preview.payload).toMatchObject({ saved: false, country_code: 'FR', loc_code: expect.stringMatching(/^FR-/) });
  await map.press('Escape');
  await expect.poll(async () => (await logged(page, 'playground', 'onClear')).length).toBe(1);

  const useLast = page.getByRole('button', { name: 'Use the last chosen code' });
  await expect(useLast).toBeDisabled();
  await map.click();
  await frame.getByRole('button', { name: 'Use this location' }).click();
  await expect.poll(async () => (await logged(page, 'playground', 'onSelect')).length).toBe(1);
  const code = (await logged(page, 'playground', 'onSelect'))[0].payload.loc_code as string;
  await useLast.click();
  await expect(page.getByRole('textbox', { name: 'Open on code' })).toHaveValue(code);
  await expect(page.locator('#snippet')).toContainText(`value: '${code}',`);
  // Mounted again on the code: onReady carries it, and no onSelect comes for it.
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(2);
  expect((await logged(page, 'playground', 'onReady'))[1].payload.value).toMatchObject({ loc_code: code, saved: false });
  frame = await frameIn(page, 'playground-map');
  await expect(frame.locator('#loc-code')).toHaveText(code);
  expect(await logged(page, 'playground', 'onSelect')).toHaveLength(1);

  await page.getByRole('checkbox', { name: 'Search box' }).uncheck();
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(3);
  await expect(page.locator('#playground-map iframe')).toHaveAttribute('src', /[#&]search=false(&|$)/);
  await expect(page.locator('#snippet')).toContainText('search: false,');
  expect((await demoLog(page)).filter((entry) => entry.name === 'onError')).toEqual([]);
});

test('the playground’s session area: a click outside its countries is refused in the log; an area the service refuses is the page’s problem, the map keeps its session', async ({ page, stack }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.demo);
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(1);
  const countries = page.getByRole('textbox', { name: 'Countries' });

  // Belgium only, while the map shows Paris: every click there is outside.
  await countries.fill('BE');
  await countries.press('Tab');
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(2);
  await expect(page.locator('#snippet')).toContainText('{"countries":["BE"]}');
  const frame = await frameIn(page, 'playground-map');
  await frame.locator('#loc-map').click();
  await expect.poll(async () => (await logged(page, 'playground', 'onError')).map((entry) => entry.payload)).toEqual([
    expect.objectContaining({ code: 'outside_session_area', recoverable: true, message: expect.stringContaining('BE') }),
  ]);
  expect(await logged(page, 'playground', 'onPreview')).toEqual([]);

  // Lower case is not a code the API takes: its 422 reaches the page's problem line, the map stays.
  await countries.fill('be');
  await countries.press('Tab');
  await expect(page.locator('#problem')).toContainText('Cannot create a session for the playground:');
  await expect(page.locator('#snippet')).toContainText('{"countries":["BE"]}');
  expect(await logged(page, 'playground', 'onReady')).toHaveLength(2);

  await countries.fill('');
  await countries.press('Tab');
  await expect(page.locator('#problem')).toBeHidden();
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(3);
  await expect(page.locator('#snippet')).not.toContainText('countries');
});

test('the playground: a language and a theme remount the map with them; a language it lacks and a colour it cannot read are its invalid_option in the log; auto follows a dark scheme', async ({ page, stack }) => {
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
  await page.goto(stack.demo);
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(1);
  await expect.poll(async () => (await logged(page, 'auto', 'onReady')).length).toBe(1);
  await expect((await frameIn(page, 'look-auto')).locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect((await frameIn(page, 'look-light')).locator('html')).toHaveAttribute('data-theme', 'light');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(2);
  let html = (await frameIn(page, 'playground-map')).locator('html');
  await expect(html).toHaveAttribute('lang', 'ar');
  await expect(html).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('#snippet')).toContainText("locale: 'ar',");

  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(3);
  html = (await frameIn(page, 'playground-map')).locator('html');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(html).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('#snippet')).toContainText("theme: 'dark',");
  expect(await logged(page, 'playground', 'onError')).toEqual([]);

  // Text in the dark theme's own background colour: picking it sets the variable, the map refuses it.
  await page.locator('input[name="colorText"]').fill('#202124');
  await expect(page.getByRole('checkbox', { name: 'Text colour' })).toBeChecked();
  await expect(page.locator('#snippet')).toContainText("variables: { colorText: '#202124' },");
  await expect.poll(async () => (await logged(page, 'playground', 'onError')).map((entry) => entry.payload)).toEqual([
    expect.objectContaining({ code: 'invalid_option', recoverable: true, message: expect.stringContaining('colorText') }),
  ]);
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(4);

  await page.getByRole('checkbox', { name: 'Text colour' }).uncheck();
  await expect.poll(async () => (await logged(page, 'playground', 'onReady')).length).toBe(5);
  await expect(page.locator('#snippet')).not.toContainText('variables:');
  expect(await logged(page, 'playground', 'onError')).toHaveLength(1);

  await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
  await expect.poll(async () => (await logged(page, 'playground', 'onError')).map((entry) => entry.payload)).toEqual([
    expect.objectContaining({ code: 'invalid_option' }),
    expect.objectContaining({ code: 'invalid_option', recoverable: true, message: expect.stringContaining('"pt-BR"') }),
  ]);
  await expect(page.locator('#snippet')).toContainText("locale: 'pt-BR',");
});
