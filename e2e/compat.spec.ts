/**
 * Within v1, a loader and a frame of different releases work together: a page may keep a loader it
 * cached (or pinned) while the service moves on, and during a rolling deploy the loader and the frame
 * can come from servers a release apart. Here the other side is the release before `select` and
 * `clear` (commit c6f6d98), built once and kept in e2e/compat/: its `loc-embed.js`, and its frame
 * script, gzipped. The browser is handed them in place of today's files (`page.route`); everything
 * else — the service, the frame page, the session — is today's.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { encode } from '../src/code/index.ts';
import { expect, test } from './fixtures.ts';
import { FIRST_V1_CALLBACKS, destroy, events, mountReady, select, setStyle, waitForEvent, waitForStyleTiles } from './harness.ts';

const EARLIER = 'c6f6d98';
const EARLIER_LOADER = readFileSync(new URL(`compat/loc-embed.${EARLIER}.js`, import.meta.url));
const EARLIER_FRAME = gunzipSync(readFileSync(new URL(`compat/frame.${EARLIER}.js.gz`, import.meta.url)));

/** A cell in Paris, at the centre of a map of zoom 19: a click in the middle chooses it. */
const HOME = encode(48.85837, 2.29448);
const VIEW = { center: { lat: HOME.latitude, lng: HOME.longitude }, zoom: 19, confirm: false };

/** Serves the earlier release's file for every request of `pattern`; counts them. */
async function serveEarlier(page: Page, pattern: string, body: Buffer): Promise<() => number> {
  let served = 0;
  await page.route(pattern, (route) => {
    served++;
    return route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body });
  });
  return () => served;
}

test('an earlier v1 loader with this frame: ready, a click chosen, the style switched, destroyed without a trace', async ({ page, stack, newSession }) => {
  const served = await serveEarlier(page, '**/embed/loc-embed.js', EARLIER_LOADER);
  await page.goto(stack.pages);
  expect(served()).toBe(1);

  // That loader refuses the callbacks it predates, as unknown options.
  const { id, frame } = await mountReady(page, (await newSession()).session_token, VIEW, FIRST_V1_CALLBACKS);
  // The earlier loader's handle has no select: the loader on the page is that one.
  expect(await page.evaluate((n) => typeof (window.locHandles![n - 1] as { select?: unknown }).select, id)).toBe('undefined');

  await frame.locator('#loc-map').click();
  const chosen = await waitForEvent(page, id, 'select');
  expect(chosen).toMatchObject({ loc_code: HOME.loc_code, saved: true, source: 'visitor' });

  await setStyle(page, id, 'biking');
  await waitForStyleTiles(frame, 'biking');

  await destroy(page, id);
  await expect(page.locator('#map iframe')).toHaveCount(0);
  expect((await events(page, id)).filter((event) => event.name === 'error')).toEqual([]);
});

test('this loader with an earlier v1 frame: ready, a click chosen, the style switched; a select, which that frame does not know, settles at destroy()', async ({ page, stack, newSession }) => {
  const served = await serveEarlier(page, '**/embed/frame.js?*', EARLIER_FRAME);
  await page.goto(stack.pages);

  const { id, frame } = await mountReady(page, (await newSession()).session_token, VIEW);
  expect(served()).toBe(1);

  await frame.locator('#loc-map').click();
  const chosen = await waitForEvent(page, id, 'select');
  expect(chosen).toMatchObject({ loc_code: HOME.loc_code, saved: true });

  await setStyle(page, id, 'satellite');
  await waitForStyleTiles(frame, 'satellite');
  expect((await events(page, id)).filter((event) => event.name === 'error')).toEqual([]);

  // That frame drops a call it does not know, so a select would never settle; destroy() settles it.
  const pending = select(page, id, HOME.loc_code);
  await destroy(page, id);
  expect(await pending).toEqual({ rejected: { name: 'AbortError', message: 'The map was destroyed.' } });
});
