/**
 * Accessibility (WCAG 2.2 AA) of what loc shows people: axe-core on the picker's frame in every state
 * a visitor meets (each style; nothing chosen, a preview, a choice; with and without confirm), on the
 * share page wide and at 390 px, its 404, /docs and the demo — none may have any violation — and, past
 * what axe can judge, the keyboard, the screen reader's view and what it hears of arrow steps and
 * zooms, reflow at 320 px, forced colours and the contrast of what is drawn over map tiles, measured
 * on screenshots. docs/embed.md §9 describes the behaviour these tests hold.
 */
import type { Frame, Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { encode } from '../src/code/index.ts';
import { STYLE_NAMES } from '../src/embed/style-names.ts';
import { ANNOUNCE_AFTER_MS } from '../iframe-app/crosshair.ts';
import { axeViolations, contrast, parseRgb, type Rgb } from './a11y.ts';
import { expect, test } from './fixtures.ts';
import { mountReady, setStyle, waitForStyleTiles } from './harness.ts';
import { cellBeside } from './map-geometry.ts';

/** The Eiffel Tower's cell; the map is centred on its centre. */
const HOME = encode(48.85837, 2.29448);
const HOME_CENTER = { lat: HOME.latitude, lng: HOME.longitude };
/** The suite's map element is 800 × 400 px (pages.ts, the loader's default height). */
const MIDDLE = { x: 400, y: 200 };

declare global {
  interface Window {
    /** What the frame's polite live region was given, and when the map got each key (performance.now()). */
    locSpeech?: { said: { text: string; at: number }[]; keys: number[] };
  }
}

test.describe('axe', () => {
  test('the picker frame: every style, before and after a choice, with and without confirm', async ({ page, stack, newSession }) => {
    await page.goto(stack.pages);
    for (const confirm of [true, false]) {
      const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19, confirm });
      const panel = frame.locator('#loc-panel');
      for (const style of STYLE_NAMES) {
        if (style !== 'streets') await setStyle(page, id, style);
        await waitForStyleTiles(frame, style);
        // Nothing chosen (the previous style's choice cleared with Escape).
        await frame.locator('#loc-map').press('Escape');
        await expect(panel).toBeHidden();
        expect(await axeViolations(frame), `${style}, confirm ${confirm}, nothing chosen`).toEqual([]);

        await frame.locator('#loc-map').click({ position: MIDDLE });
        if (confirm) {
          await expect(panel).toHaveAttribute('data-state', 'preview');
          await expect(frame.locator('#loc-live')).toContainText(HOME.loc_code);
          expect(await axeViolations(frame), `${style}, preview`).toEqual([]);
          await frame.getByRole('button', { name: 'Use this location' }).click();
        }
        await expect(panel).toHaveAttribute('data-state', 'chosen');
        await expect(frame.locator('#loc-live')).toHaveText(/^Chosen: /);
        expect(await axeViolations(frame), `${style}, confirm ${confirm}, chosen`).toEqual([]);
      }
    }
  });

  test('the share page, wide and at 390 px, and its 404', async ({ page, stack }) => {
    for (const width of [1000, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(`${stack.service}/${HOME.loc_code}`);
      await expect(page.locator('#code')).toHaveText(HOME.loc_code);
      expect(await axeViolations(page), `share page at ${width} px`).toEqual([]);
    }
    // A well-formed code that no country has.
    const response = await page.goto(`${stack.service}/ZZ-0RMB-CLY0`);
    expect(response!.status()).toBe(404);
    expect(await axeViolations(page), 'share 404').toEqual([]);
  });

  test('/docs', async ({ page, stack }) => {
    await page.goto(`${stack.service}/docs`);
    expect(await axeViolations(page)).toEqual([]);
  });
});

test('the demo page: axe finds nothing, and the boxes that scroll (the code, the callback log) are Tab stops the keyboard scrolls', async ({ page, stack }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(stack.demo);
  await expect(page.locator('#log li')).not.toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);

  // At 390 px the code is wider than its box: the keyboard reaches the box and scrolls it.
  const code = page.getByRole('region', { name: 'The code for this map' });
  await expect(code).toHaveJSProperty('tabIndex', 0);
  await code.focus();
  await expect(code).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => code.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
  await expect(page.getByRole('list', { name: 'Callbacks' })).toHaveJSProperty('tabIndex', 0);
});

/** WCAG 1.4.12's text spacing, as a visitor's style sheet sets it (the frame's CSP allows no inline style). */
const TEXT_SPACING = '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }';

test('reflow at 320 px (a 1280 px screen at 400 %): the whole panel is inside the frame, the long address whole, also with WCAG text spacing', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  await page.locator('#map').evaluate((element) => void ((element as HTMLElement).style.width = '320px'));
  // The longest place name the offline geocoder knows near here.
  const { frame } = await mountReady(page, (await newSession()).session_token, { center: { lat: 53.2245, lng: -4.1985 }, zoom: 19 });
  for (const spacing of [false, true]) {
    if (spacing) {
      await frame.evaluate((css) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        document.adoptedStyleSheets = [sheet];
      }, TEXT_SPACING);
    }
    await frame.locator('#loc-map').click({ position: { x: 160, y: 100 } });
    await expect(frame.locator('#loc-address')).toHaveText('near Llanfairpwllgwyngyll, United Kingdom');
    const layout = await frame.evaluate(() => {
      const box = (id: string) => document.getElementById(id)!.getBoundingClientRect();
      const address = document.getElementById('loc-address')!;
      return {
        width: innerWidth,
        scrollWidth: document.documentElement.scrollWidth,
        rights: ['loc-panel', 'loc-code', 'loc-address', 'loc-copy', 'loc-share', 'loc-confirm'].map((id) => [id, Math.ceil(box(id).right)] as const),
        addressCut: address.scrollWidth > address.clientWidth,
      };
    });
    expect(layout.width).toBe(320);
    expect(layout.scrollWidth, `no sideways overflow (text spacing ${spacing})`).toBeLessThanOrEqual(320);
    for (const [id, right] of layout.rights) expect(right, `#${id}'s right edge (text spacing ${spacing})`).toBeLessThanOrEqual(320);
    expect(layout.addressCut, 'the address is cut short').toBe(false);
    await expect(frame.getByRole('button', { name: 'Use this location' })).toBeInViewport({ ratio: 1 });
  }
});

/** The frame's live regions: explicit ones, the live roles, and `<output>` (an implicit status). */
const liveRegions = (frame: Frame) =>
  frame.evaluate(() =>
    [...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log], [role=marquee], [role=timer], output')]
      .map((element) => `${element.id} ${element.getAttribute('role') ?? element.tagName.toLowerCase()} ${element.getAttribute('aria-live') ?? ''}`.trim()));

test('a screen reader: the map is named and described, each code is announced once by the one polite live region, a problem by the alert', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19 });
  await expect(page.locator('#map iframe')).toHaveAccessibleName('Map: choose a location');
  const map = frame.getByRole('application', { name: 'Choose a location' });
  await expect(map).toHaveAccessibleDescription(/^Arrow keys move the map under the crosshair .* Escape clears the choice\.$/);

  // The search box is the frame's first stop, the map the next.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(map).toBeFocused();
  await page.keyboard.press('Enter');
  const live = frame.locator('#loc-live');
  await expect(live).toHaveText(`${HOME.loc_code}, near Paris, France. Press Enter again, or choose “Use this location”, to confirm.`);
  // Nothing else speaks the code (or "Finding the code…" before it): the panel's text is not live.
  expect(await liveRegions(frame)).toEqual(['loc-message alert', 'loc-live div polite']);
  expect(await frame.locator('#loc-panel').ariaSnapshot()).not.toContain('status');
  await expect(frame.getByRole('region', { name: 'Previewed location' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(live).toHaveText(`Chosen: ${HOME.loc_code}, near Paris, France.`);
  await expect(frame.getByRole('region', { name: 'Chosen location' })).toBeVisible();

  // Open sea: no code there; the alert says so, and focus stays on the map.
  await frame.evaluate(() => document.getElementById('loc-map')!.blur());
  await page.evaluate(() => window.locHandles![0].setView({ lat: 45, lng: -30 }, 10));
  await map.focus();
  await page.keyboard.press('Enter');
  await expect(frame.getByRole('alert')).toHaveText('There are no codes here. Choose a point on land or near the coast.');
  await expect(map).toBeFocused();
});

/**
 * Starts recording, in the frame, each text the polite live region is given (not the clearing before
 * it) and when each key reached the map; returns a reader of the record.
 */
async function recordSpeech(frame: Frame): Promise<() => Promise<NonNullable<Window['locSpeech']>>> {
  await frame.evaluate(() => {
    const speech: NonNullable<Window['locSpeech']> = (window.locSpeech = { said: [], keys: [] });
    const live = document.getElementById('loc-live')!;
    new MutationObserver(() => {
      if (live.textContent) speech.said.push({ text: live.textContent, at: performance.now() });
    }).observe(live, { childList: true, characterData: true, subtree: true });
    document.getElementById('loc-map')!.addEventListener('keydown', () => speech.keys.push(performance.now()));
  });
  return () => frame.evaluate(() => window.locSpeech!);
}

/** A map over the Eiffel Tower's cell at `zoom`, given keyboard focus by Tab, as a visitor would. */
async function mapByKeyboard(page: Page, pages: string, token: string, zoom: number): Promise<Frame> {
  await page.goto(pages);
  const { frame } = await mountReady(page, token, { center: HOME_CENTER, zoom });
  // The search box is the frame's first stop, the map the next.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(frame.locator('#loc-map')).toBeFocused();
  return frame;
}

test('arrow steps at zoom 18 are announced once the keys stop, once, as the burst’s net movement in cells', async ({ page, stack, newSession }) => {
  const frame = await mapByKeyboard(page, stack.pages, (await newSession()).session_token, 18);
  const speech = await recordSpeech(frame);
  for (const key of ['ArrowUp', 'ArrowUp', 'ArrowLeft', 'ArrowUp']) await page.keyboard.press(key);

  const moved = 'Moved 3 cells north and 1 cell west. Enter chooses this cell.';
  await expect(frame.locator('#loc-live')).toHaveText(moved);
  const { said, keys } = await speech();
  expect(said.map(({ text }) => text), 'everything the live region said').toEqual([moved]);
  expect(keys).toHaveLength(4);
  expect(said[0].at - keys[3], 'ms from the last key to the announcement').toBeGreaterThanOrEqual(ANNOUNCE_AFTER_MS);
  // It says where the map is: Enter there previews the cell three north and one west.
  await page.keyboard.press('Enter');
  await expect(frame.locator('#loc-code')).toHaveText(cellBeside(HOME, -1, 3).loc_code);
});

test('a zoom by keyboard or by a zoom button is announced, with the cell steps on the way into zoom 18', async ({ page, stack, newSession }) => {
  const frame = await mapByKeyboard(page, stack.pages, (await newSession()).session_token, 17);
  const live = frame.locator('#loc-live');
  await page.keyboard.press('+');
  await expect(live).toHaveText('Zoom 18 of 20. Each arrow now moves one 3 metre cell.');
  await frame.getByRole('button', { name: 'Zoom out' }).click();
  await expect(live).toHaveText('Zoom 17 of 20.');
});

test('keys pressed quickly act in turn: + + zooms two levels, and an arrow right after them steps a cell at the zoom they reached', async ({ page, stack, newSession }) => {
  const frame = await mapByKeyboard(page, stack.pages, (await newSession()).session_token, 16);
  const live = frame.locator('#loc-live');
  // Well within a zoom's 250 ms animation: Leaflet ignores a zoom asked for during another.
  for (const key of ['+', '+', 'ArrowUp']) await page.keyboard.press(key);
  await expect(live).toHaveText('Zoom 18 of 20. Each arrow now moves one 3 metre cell. Moved 1 cell north. Enter chooses this cell.');
  await page.keyboard.press('Enter');
  await expect(frame.locator('#loc-code')).toHaveText(cellBeside(HOME, 0, 1).loc_code);
});

test('a choice or a clear right after arrows wins: the steps before it are never announced over the code or “Choice cleared.”', async ({ page, stack, newSession }) => {
  const frame = await mapByKeyboard(page, stack.pages, (await newSession()).session_token, 19);
  const live = frame.locator('#loc-live');
  const speech = await recordSpeech(frame);
  for (const key of ['ArrowUp', 'ArrowUp', 'Enter']) await page.keyboard.press(key);
  const preview = `${cellBeside(HOME, 0, 2).loc_code}, near Paris, France. Press Enter again, or choose “Use this location”, to confirm.`;
  await expect(live).toHaveText(preview);
  // The next burst is announced on its own (a burst left pending would have been said by now, or
  // counted into this one), so nothing came between it and the code.
  await page.keyboard.press('ArrowRight');
  await expect(live).toHaveText('Moved 1 cell east. Enter chooses this cell.');
  for (const key of ['ArrowDown', 'Escape']) await page.keyboard.press(key);
  await expect(live).toHaveText('Choice cleared.');
  await page.keyboard.press('ArrowLeft');
  await expect(live).toHaveText('Moved 1 cell west. Enter chooses this cell.');
  // Escape with nothing to clear says nothing, and so takes nothing away: the steps are still said.
  for (const key of ['ArrowDown', 'Escape']) await page.keyboard.press(key);
  await expect(live).toHaveText('Moved 1 cell south. Enter chooses this cell.');
  expect((await speech()).said.map(({ text }) => text)).toEqual([
    preview,
    'Moved 1 cell east. Enter chooses this cell.',
    'Choice cleared.',
    'Moved 1 cell west. Enter chooses this cell.',
    'Moved 1 cell south. Enter chooses this cell.',
  ]);
});

/** The frame as drawn, for reading pixels. */
async function frameShot(page: Page): Promise<{ at(x: number, y: number): Rgb; width: number; height: number }> {
  const png = PNG.sync.read(await page.locator('#map iframe').screenshot());
  return {
    width: png.width,
    height: png.height,
    at: (x, y) => {
      const i = (y * png.width + x) * 4;
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    },
  };
}

type Shot = Awaited<ReturnType<typeof frameShot>>;

/**
 * How much focus changed the map's edge: along rows of its right edge (clear of the controls), the
 * strongest contrast between a pixel without focus and with it, 7 px in; the weakest row counts.
 */
function ringChange(before: Shot, after: Shot): number {
  let weakest = Infinity;
  for (let y = 120; y <= 280; y += 20) {
    let strongest = 1;
    for (let x = after.width - 7; x < after.width; x++) strongest = Math.max(strongest, contrast(before.at(x, y), after.at(x, y)));
    weakest = Math.min(weakest, strongest);
  }
  return weakest;
}

/** Views where one colour or another of the map is hard to stand out from: a city block (zoom 19) and open sea. */
const VIEWS = [
  { name: 'city', center: HOME_CENTER, zoom: 19 },
  { name: 'sea', center: { lat: 47.5, lng: -6 }, zoom: 9 },
] as const;

/** Leaves the map without focus, ready for a Tab from the page to give it keyboard focus again. */
async function unfocus(page: Page, frame: Frame): Promise<void> {
  await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test('over the tiles of every style, light or dark: the focus ring of the map stands out at 3:1, the attributions read at 4.5:1, their links underlined', async ({ page, stack, newSession }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19 });
  const map = frame.locator('#loc-map');
  const attribution = frame.locator('.leaflet-control-attribution');
  const iframe = (await page.locator('#map iframe').boundingBox())!;
  for (const style of STYLE_NAMES) {
    await setStyle(page, id, style);
    for (const view of VIEWS) {
      await page.evaluate(({ id, view }) => window.locHandles![id - 1].setView(view.center, view.zoom), { id, view });
      await waitForStyleTiles(frame, style);
      await unfocus(page, frame);
      const before = await frameShot(page);
      // Past the search box, the frame's first stop, to the map.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(map).toBeFocused();
      const after = await frameShot(page);
      expect(ringChange(before, after), `focus ring on ${style}, ${view.name}`).toBeGreaterThanOrEqual(3);

      // The attributions' background as drawn, in their padding left of the first word.
      const box = (await attribution.boundingBox())!;
      const background = before.at(Math.round(box.x - iframe.x + 2), Math.round(box.y - iframe.y + box.height / 2));
      const colours = await attribution.evaluate((element) => [
        getComputedStyle(element).color,
        ...[...element.querySelectorAll('a')].map((link) => getComputedStyle(link).color),
      ]);
      for (const colour of colours) {
        expect(contrast(parseRgb(colour), background), `attribution ${colour} on ${background.join(',')}, ${style}, ${view.name}`).toBeGreaterThanOrEqual(4.5);
      }
      // Its links are told from its text by an underline, not by colour alone (WCAG 1.4.1).
      expect(await attribution.locator('a').evaluateAll((links) => links.map((link) => getComputedStyle(link).textDecorationLine))).toEqual(['underline', 'underline']);
    }
  }
});

/** How much focus changed the middle of the map, where the crosshair is: the strongest contrast there. */
function crosshairChange(before: Shot, after: Shot): number {
  let strongest = 1;
  const [cx, cy] = [Math.round(after.width / 2), Math.round(after.height / 2)];
  for (let y = cy - 16; y <= cy + 16; y++) {
    for (let x = cx - 16; x <= cx + 16; x++) strongest = Math.max(strongest, contrast(before.at(x, y), after.at(x, y)));
  }
  return strongest;
}

test('forced colours (a dark and a light contrast theme): the keyboard focus on the map, ring and crosshair, is still seen on light and dark tiles', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19 });
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ forcedColors: 'active', colorScheme, reducedMotion: 'reduce' });
    for (const style of ['streets', 'satellite'] as const) {
      await setStyle(page, id, style);
      await waitForStyleTiles(frame, style);
      await unfocus(page, frame);
      const before = await frameShot(page);
      // Past the search box, the frame's first stop, to the map.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(frame.locator('#loc-map')).toBeFocused();
      await expect(frame.locator('.loc-crosshair')).toBeVisible();
      const after = await frameShot(page);
      expect(ringChange(before, after), `focus ring, ${colorScheme} theme, ${style}`).toBeGreaterThanOrEqual(3);
      expect(crosshairChange(before, after), `crosshair, ${colorScheme} theme, ${style}`).toBeGreaterThanOrEqual(3);
    }
  }
});

/**
 * How much of the chosen cell's outline stands out: at each pixel along its four sides, the strongest
 * contrast that choosing made across a band 4 px either side of the side, and the share of those that
 * reach 3:1; the weakest side counts. A dashed outline (the preview) reaches it only on its dashes.
 */
function outlineShare(before: Shot, after: Shot, box: { x: number; y: number; width: number; height: number }): number {
  const band = [-4, -3, -2, -1, 0, 1, 2, 3, 4];
  const across = (point: (d: number) => [number, number]) => Math.max(...band.map((d) => point(d)).map(([x, y]) => contrast(before.at(x, y), after.at(x, y))));
  const [left, top, right, bottom] = [box.x, box.y, box.x + box.width, box.y + box.height].map((value) => Math.round(value));
  const share = (along: number[], point: (at: number, d: number) => [number, number]) =>
    along.filter((at) => across((d) => point(at, d)) >= 3).length / along.length;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const xs = range(left + 2, right - 2);
  const ys = range(top + 2, bottom - 2);
  return Math.min(
    share(ys, (y, d) => [left + d, y]),
    share(ys, (y, d) => [right + d, y]),
    share(xs, (x, d) => [x, top + d]),
    share(xs, (x, d) => [x, bottom + d]),
  );
}

test('the outline of the chosen cell stands out at 3:1 from the tiles of every style, on its dashes while previewed and all round once chosen', async ({ page, stack, newSession }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19 });
  const iframe = (await page.locator('#map iframe').boundingBox())!;
  for (const style of STYLE_NAMES) {
    await setStyle(page, id, style);
    await waitForStyleTiles(frame, style);
    await expect(frame.locator('.loc-grid canvas').first()).toBeVisible();
    await frame.locator('#loc-map').press('Escape');
    await expect(frame.locator('.loc-cell')).toHaveCount(0);
    // No crosshair over the cell: the map without keyboard focus, then a click.
    await unfocus(page, frame);
    await expect(frame.locator('.loc-crosshair')).toBeHidden();
    const before = await frameShot(page);
    await frame.locator('#loc-map').click({ position: MIDDLE });
    for (const state of ['preview', 'chosen'] as const) {
      if (state === 'chosen') await frame.getByRole('button', { name: 'Use this location' }).click();
      await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', state);
      const cell = (await frame.locator('.loc-cell').boundingBox())!;
      const inFrame = { x: cell.x - iframe.x, y: cell.y - iframe.y, width: cell.width, height: cell.height };
      // The map element's centre is in the cell, which is about 15 px wide at zoom 19.
      expect(inFrame.width).toBeGreaterThan(12);
      const after = await frameShot(page);
      expect(outlineShare(before, after, inFrame), `share of the ${state} outline at 3:1 on ${style}`).toBeGreaterThanOrEqual(state === 'preview' ? 0.4 : 0.9);
    }
  }
});

test('what the map draws for a choice is hidden from screen readers: the map holds only its controls, no unnamed image', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 16 });
  const map = frame.getByRole('application', { name: 'Choose a location' });
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
  // At zoom 16 both the outline and the dot are drawn.
  await expect(frame.locator('.loc-cell')).toHaveCount(1);
  await expect(frame.locator('.loc-dot')).toHaveCount(1);
  await expect(map.getByRole('img')).toHaveCount(0);
  await expect(map).toMatchAriaSnapshot(`
    - application "Choose a location":
      - button "Zoom in"
      - button "Zoom out"
      - button "Show my location"
      - link "Leaflet"
      - text: /Offline map by loc/
      - link "Natural Earth"
  `);
});

/** How the focused element of `frame` shows its focus: its outline, or the map's ring (drawn by ::after). */
const focusIndicator = (frame: Frame) =>
  frame.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const own = getComputedStyle(element);
    const ring = getComputedStyle(element, '::after');
    return {
      name: element.getAttribute('aria-label') ?? element.textContent!.trim(),
      outline: own.outlineStyle !== 'none' ? parseFloat(own.outlineWidth) : 0,
      ring: ring.content !== 'none' ? parseFloat(ring.borderTopWidth) : 0,
    };
  });

test('keyboard only: Tab enters the frame at the search box, then the map; every stop shows its focus, arrows and Enter choose, Escape clears, and Tab leaves the frame', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 19 });
  const map = frame.locator('#loc-map');
  const panel = frame.locator('#loc-panel');

  await page.keyboard.press('Tab');
  await expect(frame.getByRole('combobox', { name: 'Search for a place, coordinates or a code' })).toBeFocused();
  expect((await focusIndicator(frame)).outline, 'focus indicator of the search box').toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Tab');
  await expect(map).toBeFocused();
  await expect(frame.locator('.loc-crosshair')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  const target = encode(HOME.latitude + (HOME.cell.north - HOME.cell.south), HOME.longitude + (HOME.cell.east - HOME.cell.west));
  await expect(frame.locator('#loc-code')).toHaveText(target.loc_code);
  await expect(panel).toHaveAttribute('data-state', 'preview');

  // Every stop, in order, and each shows its focus with a ring at least 2 px wide.
  const stops: string[] = [];
  for (let indicator = await focusIndicator(frame); ; ) {
    expect(Math.max(indicator.outline, indicator.ring), `focus indicator of ${indicator.name}`).toBeGreaterThanOrEqual(2);
    stops.push(indicator.name);
    await page.keyboard.press('Tab');
    if (!(await frame.evaluate(() => document.hasFocus() && document.activeElement !== document.body))) break;
    indicator = await focusIndicator(frame);
    expect(stops.length).toBeLessThan(12);
  }
  expect(stops).toEqual(['Choose a location', 'Zoom in', 'Zoom out', 'Show my location', 'Leaflet', 'Natural Earth', 'Copy code', `Open ${target.loc_code} in a new tab`, 'Use this location']);
  // Out of the frame: the keyboard is not trapped in it.
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('IFRAME');

  // Back in by Shift+Tab, to the last stop; Escape on the map clears the preview.
  await page.keyboard.press('Shift+Tab');
  await expect(frame.getByRole('button', { name: 'Use this location' })).toBeFocused();
  await map.focus();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(frame.locator('.loc-cell')).toHaveCount(0);
  await expect(frame.locator('#loc-live')).toHaveText('Choice cleared.');
});

test('the zoom buttons are pressed with Space as well as Enter, as buttons are', async ({ page, stack, newSession }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
  const { frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 15 });
  const zoomOfTiles = () => frame.locator('.leaflet-tile-pane img.leaflet-tile').evaluateAll((tiles) =>
    [...new Set(tiles.map((tile) => new URL((tile as HTMLImageElement).src).pathname.split('/')[3]))]);
  await expect.poll(zoomOfTiles).toEqual(['15']);
  const zoomIn = frame.getByRole('button', { name: 'Zoom in' });
  // The search box, the map, then its first control.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(zoomIn).toBeFocused();
  await page.keyboard.press('Space');
  await expect.poll(zoomOfTiles).toEqual(['16']);
  await expect(zoomIn).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect.poll(zoomOfTiles).toEqual(['15']);
});

test('prefers-reduced-motion: the map neither fades tiles nor animates zooms and pans', async ({ page, stack, newSession }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(stack.pages);
  const { frame } = await mountReady(page, (await newSession()).session_token, { center: HOME_CENTER, zoom: 15 });
  const map = frame.locator('#loc-map');
  await expect(map).not.toHaveClass(/leaflet-fade-anim/);
  await expect(map).not.toHaveClass(/leaflet-zoom-anim/);
  // A screen step by keyboard (80 px below the grid's zoom) moves the map at once, not over a glide.
  const pane = frame.locator('.leaflet-map-pane');
  const left = () => pane.evaluate((element) => new DOMMatrixReadOnly(getComputedStyle(element).transform).m41);
  const before = await left();
  await map.focus();
  await page.keyboard.press('ArrowRight');
  expect(await left()).toBe(before - 80);
});
