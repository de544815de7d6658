/**
 * The frame's languages through the real service (docs/embed.md, "Languages"): the pseudo-locale finds
 * any word that bypasses the catalogues, in every state a visitor meets; French is French; Arabic runs
 * right to left with the panel and the controls mirrored; a locale the frame does not have is the
 * integrator's `invalid_option`, with English shown; the page's own language is the default; and each
 * language passes axe once.
 */
import type { Frame, Page } from '@playwright/test';
import { encode } from '../src/code/index.ts';
import { axeViolations } from './a11y.ts';
import { expect, test } from './fixtures.ts';
import { mountReady, waitForEvent } from './harness.ts';

const HOME = encode(48.85837, 2.29448);
const HOME_VIEW = { center: { lat: HOME.latitude, lng: HOME.longitude }, zoom: 19 };
/** The suite's map is 800 × 400 px (pages.ts): its centre is the home cell's. */
const MIDDLE = { x: 400, y: 200 };
/** Open sea, where no country has codes: a click there is the visitor's unsupported_location. */
const SEA = { lat: 0, lng: -30 };

/**
 * Every word of the frame a visitor can see or hear that is not pseudo-localised ("[Ƒóó]"): text nodes
 * with a letter in them — the live regions' too — and the names and hints of elements. Left out: what
 * is data (the code, the address) and the tile providers' attributions, which the service configures.
 */
function unlocalised(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const skip = (node: Node | null) => !!(node instanceof Element ? node : node?.parentElement)?.closest('#loc-code, #loc-address, .leaflet-control-attribution, script, style');
    const pseudo = (text: string) => /^\[.*\]$/s.test(text.trim());
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (/\p{L}/u.test(text) && !skip(node) && !pseudo(text)) found.push(`text: ${text.trim()}`);
    }
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of ['aria-label', 'aria-roledescription', 'title', 'alt', 'placeholder']) {
        const value = element.getAttribute(attribute);
        if (value && /\p{L}/u.test(value) && !skip(element) && !pseudo(value)) found.push(`${attribute}: ${value}`);
      }
    }
    if (!pseudo(document.title)) found.push(`title: ${document.title}`);
    return found;
  });
}

/** Mounts with `options` and waits for onReady; the page says `<html lang=pageLang>` first when given. */
async function open(page: Page, token: string, options: Parameters<typeof mountReady>[2], pageLang?: string) {
  if (pageLang !== undefined) await page.evaluate((lang) => (document.documentElement.lang = lang), pageLang);
  return mountReady(page, token, options);
}

test('the pseudo-locale reaches every word: at start, on an error, in the preview and the choice, in what the keys announce, and the locate button’s message', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { id, frame } = await open(page, (await newSession()).session_token, { center: SEA, zoom: 6, locale: 'en-XA' });
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en-XA');
  expect(await unlocalised(frame), 'at start').toEqual([]);

  await frame.locator('#loc-map').click({ position: MIDDLE });
  expect((await waitForEvent(page, id, 'error')).code).toBe('unsupported_location');
  await expect(frame.getByRole('alert')).toHaveText(/^\[Ŧĥéŕé àŕé ñó çóđéš ĥéŕé/);
  expect(await unlocalised(frame), 'the error message').toEqual([]);

  await page.evaluate(({ id, view }) => window.locHandles![id - 1].setView(view.center, view.zoom), { id, view: HOME_VIEW });
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
  await expect(frame.locator('#loc-live')).toContainText(HOME.loc_code);
  expect(await unlocalised(frame), 'the preview').toEqual([]);

  await frame.locator('#loc-confirm').click();
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'chosen');
  await expect(frame.locator('#loc-live')).toContainText(HOME.loc_code);
  expect(await unlocalised(frame), 'the choice').toEqual([]);

  await frame.locator('#loc-map').focus();
  await frame.locator('#loc-map').press('ArrowUp');
  await frame.locator('#loc-map').press('+');
  // Said once the keys stop (crosshair.ts), in pseudo-English.
  await expect(frame.locator('#loc-live')).toHaveText(/^\[Žóóɱ 20 óƒ 20\.\] \[Ɱóṽéđ \[\[1 çéĺĺ\] ñóŕŧĥ\]\.\]/);
  expect(await unlocalised(frame), 'the keys’ announcement').toEqual([]);
  await frame.locator('#loc-map').press('Escape');
  await expect(frame.locator('#loc-live')).toHaveText('[Çĥóíçé çĺéàŕéđ.]');

  // The locate button without the permission to locate: its message, too.
  await frame.locator('.loc-locate').click();
  await expect(frame.getByRole('alert')).toHaveText(/^\[Ýóúŕ ĺóçàŧíóñ íš ñóŧ àṽàíĺàƀĺé/);
  expect(await unlocalised(frame), 'the locate message').toEqual([]);
});

test('French: the page, the controls and the panel speak it', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { id, frame } = await open(page, (await newSession()).session_token, { ...HOME_VIEW, locale: 'fr-CA' });
  // The page hears the language too, and the sentence <loc-picker required> says while empty.
  expect(await waitForEvent(page, id, 'ready')).toMatchObject({ locale: 'fr', requiredMessage: 'Choisissez un emplacement sur la carte.' });
  await expect(frame.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(frame.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(frame.getByRole('application', { name: 'Choisir un emplacement' })).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Zoom avant' })).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Afficher ma position' })).toBeVisible();
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.getByRole('button', { name: 'Utiliser cet emplacement' })).toBeVisible();
  await expect(frame.getByRole('region', { name: 'Emplacement proposé' })).toBeVisible();
  await expect(frame.locator('#loc-live')).toContainText('Appuyez de nouveau sur Entrée');
});

test('Arabic: right to left, the panel and the controls mirrored, the map not', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { frame } = await open(page, (await newSession()).session_token, { ...HOME_VIEW, locale: 'ar' });
  await expect(frame.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'ar');
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.getByRole('button', { name: 'استخدام هذا الموقع' })).toBeVisible();

  const box = async (selector: string) => (await frame.locator(selector).boundingBox())!;
  // The code and address start the line on the right; the buttons follow them to the left.
  expect((await box('.loc-result')).x).toBeGreaterThan((await box('.loc-actions')).x);
  // Zoom and locate at the top right, the attribution at the bottom left, the test badge's corner free.
  expect((await box('.leaflet-control-zoom')).x).toBeGreaterThan(600);
  expect((await box('.loc-locate')).x).toBeGreaterThan(600);
  expect((await box('.leaflet-control-attribution')).x).toBeLessThan(200);
  // The map is not mirrored: the clicked point is still the home cell, under the pointer.
  await frame.getByRole('button', { name: 'استخدام هذا الموقع' }).click();
  await expect(frame.locator('#loc-code')).toHaveText(HOME.loc_code);
});

test('a locale the frame does not have: onError invalid_option, recoverable, naming it and the supported ones; English shown, the visitor told nothing', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const { id, frame } = await open(page, (await newSession()).session_token, { ...HOME_VIEW, locale: 'tlh' });
  const error = await waitForEvent(page, id, 'error');
  expect(error).toMatchObject({ code: 'invalid_option', recoverable: true });
  expect(error.message).toContain('locale "tlh"');
  expect(error.message).toContain('en, fr, de, es, ar, ja');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en');
  await expect(frame.getByRole('alert')).toBeHidden();
  // The map works on.
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.getByRole('button', { name: 'Use this location' })).toBeVisible();
});

test('without the option, the page’s <html lang> decides; an unsupported one falls back to English silently', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const german = await open(page, (await newSession()).session_token, HOME_VIEW, 'de');
  await expect(german.frame.locator('html')).toHaveAttribute('lang', 'de');
  await expect(german.frame.getByRole('button', { name: 'Vergrößern' })).toBeVisible();

  const swahili = await open(page, (await newSession()).session_token, HOME_VIEW, 'sw-KE');
  await expect(swahili.frame.locator('html')).toHaveAttribute('lang', 'en');
  await expect(swahili.frame.getByRole('button', { name: 'Zoom in' })).toBeVisible();
  expect(await page.evaluate((id) => window.locEvents!.filter((event) => event.mount === id && event.name === 'error'), swahili.id)).toEqual([]);
});

test('each language passes axe, with a previewed location shown', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  for (const locale of ['fr', 'de', 'es', 'ar', 'ja', 'en-XA']) {
    const { frame } = await open(page, (await newSession()).session_token, { ...HOME_VIEW, locale });
    await frame.locator('#loc-map').click({ position: MIDDLE });
    await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
    expect(await axeViolations(frame), locale).toEqual([]);
  }
});
