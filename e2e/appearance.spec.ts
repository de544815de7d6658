/**
 * The frame's appearance through the real service (docs/embed.md, "Appearance"): every built-in theme —
 * auto under both emulated colour schemes too — passes axe with a result in the panel and with an
 * error on the message line; auto follows the scheme as it changes; the integrator's variables reach
 * the panel, the primary button, Leaflet's controls and the cell outline; and variables that would not
 * read are left out and reported as invalid_option, naming the variable.
 */
import type { Frame, Page } from '@playwright/test';
import { encode } from '../src/code/index.ts';
import { axeViolations, parseRgb } from './a11y.ts';
import { expect, test } from './fixtures.ts';
import { mountReady, waitForEvent, waitForEvents } from './harness.ts';

const HOME = encode(48.85837, 2.29448);
const HOME_VIEW = { center: { lat: HOME.latitude, lng: HOME.longitude }, zoom: 19 };
/** The suite's map is 800 × 400 px (pages.ts): its centre is the home cell's. */
const MIDDLE = { x: 400, y: 200 };
/** Open sea, where no country has codes. */
const SEA = { lat: 0, lng: -30 };

const style = (frame: Frame, selector: string, property: string) =>
  frame.locator(selector).evaluate((element, property) => getComputedStyle(element).getPropertyValue(property), property);

/** Previews the home cell, then clicks the sea: the panel with a result, then the message line with an error. */
async function resultThenError(page: Page, id: number, frame: Frame): Promise<{ result: Awaited<ReturnType<typeof axeViolations>>; error: Awaited<ReturnType<typeof axeViolations>> }> {
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
  const result = await axeViolations(frame);
  await page.evaluate(({ id, sea }) => window.locHandles![id - 1].setView(sea, 6), { id, sea: SEA });
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.getByRole('alert')).toBeVisible();
  return { result, error: await axeViolations(frame) };
}

const THEMES = [
  { theme: 'light', scheme: 'light', expected: 'light' },
  { theme: 'dark', scheme: 'light', expected: 'dark' },
  { theme: 'auto', scheme: 'dark', expected: 'dark' },
  { theme: 'auto', scheme: 'light', expected: 'light' },
] as const;

for (const { theme, scheme, expected } of THEMES) {
  test(`theme ${theme} under a ${scheme} colour scheme: ${expected}, and axe finds nothing with a result and with an error`, async ({ page, stack, newSession }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(stack.pages);
    const { id, frame } = await mountReady(page, (await newSession()).session_token, { ...HOME_VIEW, appearance: { theme } });
    await expect(frame.locator('html')).toHaveAttribute('data-theme', expected);
    const surface = parseRgb(await style(frame, '#loc-panel', 'background-color'));
    expect(surface[0] < 100, 'a dark panel').toBe(expected === 'dark');
    const { result, error } = await resultThenError(page, id, frame);
    expect(result, 'with a result').toEqual([]);
    expect(error, 'with an error').toEqual([]);
  });
}

test('auto follows the visitor’s colour scheme as it changes', async ({ page, stack, newSession }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(stack.pages);
  const { frame } = await mountReady(page, (await newSession()).session_token, { ...HOME_VIEW, appearance: { theme: 'auto', variables: { colorDanger: '#b00020' } } });
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(parseRgb(await style(frame, '.leaflet-control-zoom-in', 'background-color'))[0]).toBeLessThan(100);
});

test('variables reach the panel, the primary button, the controls, the message line and the cell outline', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const variables = { colorPrimary: '#0b57d0', colorBackground: '#fffbe6', colorText: '#1b1b1b', colorCell: '#6a1b9a', colorDanger: '#8b0000', fontFamily: 'Georgia, serif', borderRadius: '2px' };
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { ...HOME_VIEW, appearance: { variables } });
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
  expect(await style(frame, '#loc-panel', 'background-color')).toBe('rgb(255, 251, 230)');
  expect(await style(frame, '#loc-panel', 'border-radius')).toBe('2px');
  expect(await style(frame, '#loc-code', 'color')).toBe('rgb(27, 27, 27)');
  expect(await style(frame, '#loc-confirm', 'background-color')).toBe('rgb(11, 87, 208)');
  expect(await style(frame, '#loc-confirm', 'color')).toBe('rgb(255, 255, 255)');
  expect(await style(frame, '.leaflet-control-zoom-in', 'background-color')).toBe('rgb(255, 251, 230)');
  expect(await style(frame, '.loc-locate', 'color')).toBe('rgb(27, 27, 27)');
  expect(await style(frame, 'body', 'font-family')).toBe('Georgia, serif');
  expect(await style(frame, 'path.loc-cell', 'stroke')).toBe('rgb(106, 27, 154)');
  expect(await style(frame, '#loc-message', 'color')).toBe('rgb(139, 0, 0)');
  expect(await axeViolations(frame)).toEqual([]);
  // Nothing to report: every variable reads.
  expect(await page.evaluate((id) => window.locEvents!.filter((event) => event.mount === id && event.name === 'error'), id)).toEqual([]);
});

test('variables that would not read, or are not what they must be, are left out and reported as invalid_option naming them', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const variables = { colorText: '#aaaaaa', colorPrimary: '#ffeb3b', colorMuted: 'greyish', borderRadius: '4px' };
  const { id, frame } = await mountReady(page, (await newSession()).session_token, { ...HOME_VIEW, appearance: { variables } });
  const errors = await waitForEvents(page, id, 'error', 2);
  expect(errors.every((error) => error.code === 'invalid_option' && error.recoverable)).toBe(true);
  const messages = errors.map((error) => error.message).join('\n');
  expect(messages).toContain('appearance.variables.colorMuted "greyish" is not an opaque CSS colour');
  expect(messages).toMatch(/appearance\.variables\.colorText: colorText "#aaaaaa" gives text on the panel and controls a contrast of 2\.\d+:1, below WCAG AA's 4\.5:1/);
  // Yellow reads with black text on the button, but not as the outline on its white halo: only the outline is refused.
  expect(messages).toMatch(/appearance\.variables\.colorPrimary: .*the cell outline on its white halo a contrast of 1\.\d+:1, below WCAG AA's 3:1/);
  expect(errors).toHaveLength(3);

  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.locator('#loc-panel')).toHaveAttribute('data-state', 'preview');
  // The theme's text and outline stay; the primary button takes the yellow with black text; the radius applies.
  expect(await style(frame, '#loc-code', 'color')).toBe('rgb(32, 33, 36)');
  expect(await style(frame, 'path.loc-cell', 'stroke')).toBe('rgb(197, 34, 31)');
  expect(await style(frame, '#loc-confirm', 'background-color')).toBe('rgb(255, 235, 59)');
  expect(await style(frame, '#loc-confirm', 'color')).toBe('rgb(0, 0, 0)');
  expect(await axeViolations(frame)).toEqual([]);
  // The visitor is told nothing: the integrator's mistake, which the map works around.
  await expect(frame.getByRole('alert')).toBeHidden();
  expect((await waitForEvent(page, id, 'ready')).zoom).toBe(19);
});
