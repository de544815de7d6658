/**
 * loc-js/react in a real browser against the real service: a React page (react-page.ts) bundled with
 * esbuild from the built packages/loc-js/dist/react.js and React's development build, served by an
 * integrator's server of its own — on a localhost origin that a key of its own registers — with a
 * session endpoint that makes real sessions. Under StrictMode the picker makes one session and one
 * frame; a visitor's confirmed click reaches the latest onSelect; unmounting leaves nothing behind.
 */
import { build } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { encode } from '../src/code/index.ts';
import type { LocSelectResult } from '../src/embed/public-types.ts';
import { expect, test } from './fixtures.ts';
import type { ReactEvent } from './react-page.ts';
import { ROOT, createKey, freePort } from './services.ts';
import { createSession } from './stack.ts';

/** react-page.ts's SESSION_PATH; not imported, as that module runs the page when loaded. */
const SESSION_PATH = '/react/session';
const HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loc e2e: a React page</title></head><body><div id="app"></div><script src="/page.js"></script></body></html>';

/** The cell in the middle of the map: a click there, at zoom 19, is well inside it. */
const HOME = encode(48.85837, 2.29448);
const VIEW = { center: { lat: HOME.latitude, lng: HOME.longitude }, zoom: 19 };
/** The container is 800 px wide (react-page.ts), the map the default 400 px high. */
const MIDDLE = { x: 400, y: 200 };

let script: string;
let server: Server;
let origin: string;
/** The sessions the page's server has made. */
let sessions = 0;

test.beforeAll(async ({ stack }) => {
  const bundled = await build({
    entryPoints: [join(ROOT, 'e2e/react-page.ts')],
    bundle: true,
    format: 'iife',
    target: 'chrome100',
    // React's development build: the one in which StrictMode runs effects twice.
    define: { 'process.env.NODE_ENV': '"development"' },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  // The package as built, not its sources.
  expect(Object.keys(bundled.metafile.inputs)).toContain('packages/loc-js/dist/react.js');
  expect(Object.keys(bundled.metafile.inputs)).not.toContain('packages/loc-js/src/react.ts');
  script = bundled.outputFiles[0].text;

  const port = await freePort();
  origin = `http://localhost:${port}`;
  const { apiKey } = createKey(stack.dataDir, { account: `e2e-react-${randomUUID()}`, origins: [origin] });
  server = createServer((request, response) => {
    const send = (type: string, body: string) => response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
    if (request.url === SESSION_PATH && request.method === 'POST') {
      sessions++;
      createSession({ service: stack.service, apiKey, origin }).then(
        (session) => send('application/json', JSON.stringify(session)),
        (error: Error) => response.writeHead(502).end(error.message),
      );
    } else if (request.url === '/page.js') send('text/javascript', script);
    else if (request.url === '/') send('text/html', HTML);
    // The browser's own request for an icon: an empty answer, not a 404 in the console.
    else if (request.url === '/favicon.ico') response.writeHead(204).end();
    else response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(port, 'localhost', done));
});

test.afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

test('under StrictMode <LocPicker> makes one session and one frame, hands the latest onSelect a visitor’s choice, its ref is the handle, and unmounting leaves no iframe', async ({ page, stack }) => {
  const frames: string[] = [];
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && problems.push(`${message.text()} (${message.location().url})`)));
  page.on('request', (request) => void (request.url().startsWith(`${stack.service}/embed/frame/`) && request.resourceType() === 'document' && frames.push(request.url())));
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(origin);

  const eventsOf = (name: ReactEvent['name']) => page.evaluate((name) => window.reactPage.events.filter((event) => event.name === name), name);
  const waitFor = (name: ReactEvent['name'], count = 1) =>
    page.waitForFunction(({ name, count }) => window.reactPage.events.filter((event) => event.name === name).length >= count, { name, count });

  await page.evaluate(({ service, view }) => window.reactPage.render(1, service, view), { service: stack.service, view: VIEW });
  await waitFor('ready');
  expect(await page.evaluate(() => window.reactPage.probeRuns), 'StrictMode ran the effects twice').toBe(2);
  expect(sessions).toBe(1);
  expect(frames).toHaveLength(1);
  const iframe = page.locator('#app iframe');
  await expect(iframe).toHaveCount(1);
  expect(await page.evaluate(() => window.reactPage.picker.current?.iframe === document.querySelector('#app iframe'))).toBe(true);

  // A render with new callbacks (and the same view) keeps the map: the same iframe, no new session.
  await iframe.evaluate((element) => (element.dataset.first = 'yes'));
  await page.evaluate(({ service, view }) => window.reactPage.render(2, service, view), { service: stack.service, view: VIEW });
  const frame = (await (await iframe.elementHandle())!.contentFrame())!;
  await frame.locator('#loc-map').click({ position: MIDDLE });
  await expect(frame.locator('#loc-code')).toHaveText(HOME.loc_code);
  await frame.getByRole('button', { name: 'Use this location' }).click();
  await waitFor('select');
  const [chosen] = await eventsOf('select');
  expect(chosen.generation, 'the latest onSelect heard it').toBe(2);
  expect(chosen.payload).toMatchObject({ success: true, loc_code: HOME.loc_code, cell: HOME.cell, saved: true, source: 'visitor' });
  await expect(iframe).toHaveAttribute('data-first', 'yes');

  // The ref is the mount's handle: the page chooses through it, and onSelect says so.
  const other = encode(48.8606, 2.3376);
  const picked = await page.evaluate((code) => window.reactPage.picker.current!.select(code), other.loc_code);
  expect(picked).toMatchObject({ loc_code: other.loc_code, source: 'page' } satisfies Partial<LocSelectResult>);
  await waitFor('select', 2);

  await page.evaluate(() => window.reactPage.unmount());
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(await page.evaluate(() => window.reactPage.picker.current)).toBeNull();
  expect(sessions).toBe(1);
  expect(frames).toHaveLength(1);
  expect((await page.evaluate(() => window.reactPage.events)).map(({ generation, name }) => [generation, name])).toEqual([
    [1, 'ready'],
    [2, 'select'],
    [2, 'select'],
  ]);
  expect(problems).toEqual([]);
});
