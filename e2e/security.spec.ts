/**
 * The embed's security model (docs/embed.md §8) in a real browser: a session works only on its own
 * origin, a hostile frame in the page cannot hijack the handshake, and the session token reaches no
 * one but the service — not a tile server, not a Referer.
 */
import type { Page } from '@playwright/test';
import { encode } from '../src/code/index.ts';
import { STYLE_NAMES } from '../src/embed/style-names.ts';
import { expect, test } from './fixtures.ts';
import { frameWatch, helloWatch, startForging, stopForging, watchForgeries, watchHellos } from './forger.ts';
import { countResolves, events, mapFrame, mount, setStyle, waitForEvent, waitForStyleTiles } from './harness.ts';
import { createKey, newDataDir, removeDataDir, startService } from './services.ts';
import { createSession, requestSession, secretOf, sidOf, type Stack } from './stack.ts';
import { startTileServer, type TileServer } from './tile-server.ts';

const HOME = encode(41.89021, 12.49223);
const OPTIONS = { center: { lat: HOME.latitude, lng: HOME.longitude }, zoom: 18, confirm: false };
/** The map's centre pixel (pages.ts: 800 × 400): the home cell's centre. */
const CENTRE = { x: 400, y: 200 };

/** Resolves when Chromium reports that it refused to frame the service's page under frame-ancestors. */
const frameRefused = (page: Page) => page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));

test.describe('a session for another origin is refused: the browser blocks the frame and onError says origin_mismatch', () => {
  const cases: { name: string; page: (stack: Stack) => string; sessionOrigin: (stack: Stack) => string }[] = [
    { name: "another registered origin's session (the demo's)", page: (stack) => stack.pages, sessionOrigin: (stack) => stack.demo },
    { name: 'a page on an unregistered origin, with a session it borrowed', page: (stack) => stack.foreignPages, sessionOrigin: (stack) => stack.pages },
  ];
  for (const { name, page: pageUrl, sessionOrigin } of cases) {
    test(name, async ({ page, stack, newSession }) => {
      await page.goto(pageUrl(stack));
      const refused = frameRefused(page);
      const id = await mount(page, (await newSession({ origin: sessionOrigin(stack) })).session_token, OPTIONS);

      expect((await refused).text()).toContain(`"frame-ancestors ${sessionOrigin(stack)}"`);
      const error = await waitForEvent(page, id, 'error');
      expect(error).toEqual({ code: 'origin_mismatch', recoverable: false, message: `The session is for ${sessionOrigin(stack)}, this page is ${new URL(pageUrl(stack)).origin}.` });
      // What is in the iframe is Chromium's error page, not the map.
      await expect.poll(() => page.frames().map((frame) => frame.url())).toContain('chrome-error://chromewebdata/');
      expect(await events(page)).toEqual([{ mount: id, name: 'error', payload: error }]);
    });
  }

  test('the API makes no session for an origin the key does not register', async ({ stack }) => {
    const forOrigin = (origin: string) => requestSession({ service: stack.service, apiKey: stack.apiKey, origin });
    expect(await forOrigin(stack.foreignPages)).toMatchObject({ status: 422, body: { code: 'validation_error' } });
    expect(await forOrigin('http://localhost:1')).toMatchObject({ status: 403, body: { code: 'origin_not_allowed' } });
  });
});

test('a token whose secret is wrong: onError invalid_session at mount, never onReady, and the map is stopped', async ({ page, stack, newSession }) => {
  await page.goto(stack.pages);
  const token = (await newSession()).session_token;
  const secret = secretOf(token);
  // Truncated or mangled in transit: the sid is right, so the frame loads; the secret is not.
  const mangled = `${sidOf(token)}.${secret.slice(1)}${secret[0] === 'A' ? 'B' : 'A'}`;
  const id = await mount(page, mangled, OPTIONS);

  expect(await waitForEvent(page, id, 'error')).toMatchObject({ code: 'invalid_session', recoverable: false });
  const frame = await mapFrame(page, id);
  await expect(frame.locator('#loc')).toHaveClass(/loc--stopped/);
  // The stopped map asks the service nothing (the page would not hear of it: a stopped frame reports no more).
  const resolves = await countResolves(frame);
  await frame.locator('#loc-map').click({ position: CENTRE });
  expect(await resolves(), 'resolves sent by the stopped map').toBe(0);
  await expect(frame.locator('#loc-panel')).toBeHidden();
  expect((await events(page)).map(({ name }) => name)).toEqual(['error']);
});

test('a foreign frame posting forged handshake and callback messages with the real nonce changes nothing', async ({ page, stack, newSession }) => {
  await watchForgeries(page, stack.service);
  // The frame's script is held back until the forger is in full flow, so that forged connects queue
  // up while the frame starts and reach it while it is listening.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/embed\/frame\.js\?/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${stack.pages}/?forger`);
  const forger = page.frame({ url: /\/forger\.html$/ })!;
  await watchHellos(page);

  const id = await mount(page, (await newSession()).session_token, OPTIONS);
  const src = await page.locator('#map iframe').getAttribute('src');
  await startForging(forger, new URLSearchParams(new URL(src!).hash.slice(1)).get('nonce')!);
  await expect.poll(() => helloWatch(page).then((watch) => watch.forgedWhileListening)).toBeGreaterThan(10);
  release();

  await waitForEvent(page, id, 'ready');
  const frame = await mapFrame(page, id);
  await frame.locator('#loc-map').click({ position: CENTRE });
  const selected = await waitForEvent(page, id, 'select');
  // The style the forger asked for never came: every tile on screen is still streets.
  await waitForStyleTiles(frame, 'streets');
  const report = await stopForging(forger);

  expect(selected.loc_code).toBe(HOME.loc_code);
  expect(await events(page)).toEqual([
    { mount: id, name: 'ready', payload: expect.objectContaining({ style: 'streets' }) },
    { mount: id, name: 'select', payload: selected },
  ]);
  expect(report.answered, 'messages the map frame sent on a forged port').toBe(0);
  expect((await frameWatch(frame)).forgedWhileListening, 'forged connects that reached the listening frame').toBeGreaterThan(0);
  expect(await helloWatch(page)).toMatchObject({ helloed: true });
});

/**
 * A second service whose four styles come from a third party's tile server (on this machine), so the
 * test sees exactly what a tile provider is sent; its own data directory and a key for the suite's page.
 */
const withTileProvider = test.extend<object, { provider: { service: string; apiKey: string; tiles: TileServer } }>({
  provider: [
    async ({ stack }, use) => {
      const tiles = await startTileServer();
      const dataDir = newDataDir();
      const { apiKey } = createKey(dataDir, { account: 'tiles', origins: [stack.pages] });
      const urls = Object.fromEntries(STYLE_NAMES.map((style) => [`LOC_TILES_${style.toUpperCase()}_URL`, `${tiles.url}/${style}/{z}/{x}/{y}.png`]));
      const service = await startService(dataDir, { LOC_TILES: 'online', ...urls });
      await use({ service: service.url, apiKey, tiles });
      await service.stop();
      await tiles.stop();
      removeDataDir(dataDir);
    },
    { scope: 'worker' },
  ],
});

withTileProvider('the session token never reaches a tile server, nor any URL or Referer', async ({ page, stack, provider }) => {
  const seen: Promise<{ method: string; url: string; headers: Record<string, string> }>[] = [];
  page.on('request', (request) => {
    // A tile request that Leaflet cancels (the style switched) may have no final headers: take the first ones.
    const headers = request.allHeaders().catch(() => request.headers());
    seen.push(headers.then((all) => ({ method: request.method(), url: request.url(), headers: all })));
  });
  await page.goto(`${stack.pages}/?service=${provider.service}`);
  const token = (await createSession({ service: provider.service, apiKey: provider.apiKey, origin: stack.pages })).session_token;
  const id = await mount(page, token, OPTIONS);
  await waitForEvent(page, id, 'ready');
  const frame = await mapFrame(page, id);
  await frame.locator('#loc-map').click({ position: CENTRE });
  expect((await waitForEvent(page, id, 'select')).loc_code).toBe(HOME.loc_code);
  for (const style of STYLE_NAMES) {
    await setStyle(page, id, style);
    await waitForStyleTiles(frame, style);
  }

  const secret = secretOf(token);
  for (const style of STYLE_NAMES) expect(provider.tiles.requests.some(({ url }) => url.startsWith(`/${style}/`)), `${style} tiles were requested`).toBe(true);
  for (const request of provider.tiles.requests) {
    expect(request.url).not.toContain(secret);
    expect(request.headers, `headers of ${request.url}`).not.toHaveProperty('referer');
    expect(request.headers).not.toHaveProperty('authorization');
    expect(request.headers).not.toHaveProperty('cookie');
  }
  const requests = await Promise.all(seen);
  for (const request of requests) {
    expect(request.url).not.toContain(secret);
    expect(request.headers.referer ?? '', `Referer of ${request.url}`).not.toContain(secret);
  }
  // The token travels in one place only: the Authorization header of the frame's calls to the service.
  // (the frame checks the token at mount by itself, against its page's tokenCheck).
  const carriers = requests.filter((request) => Object.values(request.headers).some((value) => value.includes(secret)));
  expect(carriers.map(({ method, url }) => `${method} ${url}`)).toEqual([`POST ${provider.service}/v1/embed/resolve`]);
  expect(carriers[0].headers.authorization).toBe(`Bearer ${token}`);
});

withTileProvider('a cross-origin isolated page (COOP same-origin, COEP require-corp) embeds the map, whose tiles come from a server that sends no Cross-Origin-Resource-Policy', async ({ page, stack, provider }) => {
  await page.goto(`${stack.pages}/?service=${provider.service}&isolated`);
  // The point of such a page: SharedArrayBuffer and precise timers, which only isolation grants.
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  const token = (await createSession({ service: provider.service, apiKey: provider.apiKey, origin: stack.pages })).session_token;
  const id = await mount(page, token, OPTIONS);
  await waitForEvent(page, id, 'ready');
  const frame = await mapFrame(page, id);
  await waitForStyleTiles(frame, 'streets');
  await frame.locator('#loc-map').click({ position: CENTRE });
  expect((await waitForEvent(page, id, 'select')).loc_code).toBe(HOME.loc_code);
});
