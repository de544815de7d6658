/**
 * `<loc-picker>`, the form field, in a real browser against the real service: served by the service
 * (`loc-picker.js`, one tag), in pages of an integrator's server of its own — on a localhost origin
 * that a key of its own registers, under the Content-Security-Policy the guide asks for — whose
 * session endpoint passes the API's session response through, as `session-url` allows. The pages have
 * no script: what the form does, it does by itself; the test listens from an init script.
 */
import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { encode } from '../src/code/index.ts';
import type { LocPickerElement } from '../src/embed/picker-types.ts';
import { locFrame, pickLocation } from '../packages/loc-js/dist/testing.js';
import { expect, test } from './fixtures.ts';
import { createKey, freePort } from './services.ts';
import { createSession } from './stack.ts';

const EIFFEL = encode(48.8584, 2.2945).loc_code;
const BIG_BEN = encode(51.50072, -0.12462).loc_code;

/** What the init script records: the field's events, as the page would hear them. */
interface Heard {
  type: string;
  detail: unknown;
  value: string;
}

declare global {
  interface Window {
    heard: Heard[];
  }
}

let server: Server;
let origin: string;
/** The sessions the page's server made, and the orders it took. */
let sessions = 0;
const orders: string[] = [];

/** A form with the field; `attributes` are the picker's beyond its name, label and session-url. */
function formPage(service: string, attributes: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loc e2e: a form</title>
<script src="${service}/embed/v1/loc-picker.js"></script></head>
<body><form id="order" action="/order" method="post">
<label for="point">Delivery point</label>
<loc-picker id="point" name="loc_code" session-url="/session" center="48.8584,2.2945" zoom="17" ${attributes}></loc-picker>
<button id="submit">Order</button></form><div id="elsewhere"></div></body></html>`;
}

/** The picker's attributes from the page's query: `?required&locale=fr` is `required locale="fr"`. */
const attributesOf = (query: URLSearchParams) => [...query].map(([name, value]) => (value ? `${name}="${value}"` : name)).join(' ');

test.beforeAll(async ({ stack }) => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  const { apiKey } = createKey(stack.dataDir, { account: `e2e-picker-${randomUUID()}`, origins: [origin] });
  const csp = `default-src 'self'; script-src 'self' ${stack.service}; connect-src 'self' ${stack.service}; frame-src ${stack.service}; style-src 'self'; img-src 'self' data:`;
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const send = (status: number, type: string, body: string) => response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store', 'content-security-policy': csp }).end(body);
    if (url.pathname === '/session' && request.method === 'POST') {
      sessions++;
      // The API's own answer, passed through.
      const session = await createSession({ service: stack.service, apiKey, origin });
      return send(200, 'application/json', JSON.stringify(session));
    }
    if (url.pathname === '/no-session') return send(403, 'application/json', '{"error":"signed_out"}');
    if (url.pathname === '/form') return send(200, 'text/html', formPage(stack.service, attributesOf(url.searchParams)));
    if (url.pathname === '/bare') return send(200, 'text/html', '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loc e2e: no script yet</title></head><body></body></html>');
    if (url.pathname === '/order' && request.method === 'POST') {
      let body = '';
      for await (const chunk of request) body += chunk;
      orders.push(body);
      return send(200, 'text/html', `<!doctype html><title>Ordered</title><p id="placed">${new URLSearchParams(body).get('loc_code')}</p>`);
    }
    response.writeHead(request.url === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((done) => server.listen(port, 'localhost', done));
});

test.afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

test.beforeEach(async ({ page }) => {
  sessions = 0;
  orders.length = 0;
  await page.addInitScript(() => {
    window.heard = [];
    for (const type of ['loc-ready', 'loc-select', 'loc-preview', 'loc-clear', 'loc-error', 'loc-load-error', 'change']) {
      document.addEventListener(type, (event) => {
        const detail = (event as CustomEvent).detail as unknown;
        window.heard.push({ type, detail: detail instanceof Error ? detail.message : detail, value: (event.target as LocPickerElement).value });
      }, true);
    }
  });
});

/** What the page heard of `type`, once it heard it `count` times. */
async function heard(page: Page, type: string, count = 1): Promise<Heard[]> {
  await page.waitForFunction(([type, count]) => window.heard.filter((event) => event.type === type).length >= count, [type, count] as const);
  return page.evaluate((type) => window.heard.filter((event) => event.type === type), type);
}

/** The field's value, validity and the form's data. */
const field = (page: Page) =>
  page.locator('loc-picker').evaluate((picker: LocPickerElement) => ({
    value: picker.value,
    valid: picker.checkValidity(),
    message: picker.validationMessage,
    data: [...new FormData(picker.form!)],
  }));

/** The role and name Chromium's accessibility tree gives the element `selector` finds: what a screen reader hears. */
async function accessible(page: Page, selector: string): Promise<{ role: unknown; name: unknown }> {
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  await cdp.detach();
  return { role: nodes[0]?.role?.value, name: nodes[0]?.name?.value };
}

/** The frame documents the page loaded. */
function countFrames(page: Page, service: string): () => number {
  let frames = 0;
  page.on('request', (request) => void (request.url().startsWith(`${service}/embed/frame/`) && request.resourceType() === 'document' && frames++));
  return () => frames;
}

test('from markup: the form refuses it empty in the map’s language, its label names it, and the chosen code posts with the form and comes back with the page', async ({ page }) => {
  await page.goto(`${origin}/form?required&locale=fr`);
  await heard(page, 'loc-ready');
  expect(await field(page)).toEqual({ value: '', valid: false, message: 'Choisissez un emplacement sur la carte.', data: [['loc_code', '']] });
  await expect(page.locator('loc-picker:invalid')).toHaveCount(1);
  expect(await accessible(page, 'loc-picker')).toEqual({ role: 'group', name: 'Delivery point' });
  await expect(page.locator('loc-picker iframe')).toHaveAttribute('title', 'Delivery point');
  await page.click('#submit');
  // Refused: the browser brought the visitor to the field instead.
  await expect(page.locator('loc-picker')).toBeFocused();
  expect(orders).toEqual([]);

  await pickLocation(page, EIFFEL);
  expect(await field(page)).toEqual({ value: EIFFEL, valid: true, message: '', data: [['loc_code', EIFFEL]] });
  expect((await heard(page, 'change')).map((event) => event.value)).toEqual([EIFFEL]);
  await page.click('#submit');
  await expect(page.locator('#placed')).toHaveText(EIFFEL);
  expect(orders).toEqual([`loc_code=${EIFFEL}`]);

  // Back to the form, a new document (no-store): the browser restores the field, and the map opens on it.
  await page.goBack();
  const [ready] = await heard(page, 'loc-ready');
  expect(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type)).toBe('back_forward');
  expect((ready.detail as { value?: { loc_code: string } }).value?.loc_code).toBe(EIFFEL);
  expect((await field(page)).data).toEqual([['loc_code', EIFFEL]]);
  expect(sessions).toBe(2);
});

test('an edit page opens on its value, a reset goes back to it, `form` names another form, and a disabled field is left out of the form', async ({ page }) => {
  // As a visitor might have typed it: the field takes the map's own writing of it.
  await page.goto(`${origin}/form?value=${BIG_BEN.toLowerCase()}`);
  const [ready] = await heard(page, 'loc-ready');
  expect((ready.detail as { value?: { loc_code: string } }).value?.loc_code).toBe(BIG_BEN);
  expect((await field(page)).data).toEqual([['loc_code', BIG_BEN]]);

  await pickLocation(page, EIFFEL);
  expect((await field(page)).value).toBe(EIFFEL);
  await page.evaluate(() => document.querySelector('form')!.reset());
  expect((await field(page)).value).toBe(BIG_BEN);
  // The map shows it again, as the page's choice.
  const selects = await heard(page, 'loc-select', 2);
  expect(selects[1].detail).toMatchObject({ loc_code: BIG_BEN, source: 'page' });

  // `form` names a form elsewhere in the page, as for any field.
  const elsewhere = await page.locator('loc-picker').evaluate((picker: LocPickerElement) => {
    document.body.insertAdjacentHTML('beforeend', '<form id="other"></form>');
    picker.setAttribute('form', 'other');
    const moved = [picker.form?.id, [...new FormData(document.querySelector<HTMLFormElement>('#other')!)], [...new FormData(document.querySelector<HTMLFormElement>('#order')!)]];
    picker.removeAttribute('form');
    return moved;
  });
  expect(elsewhere).toEqual(['other', [['loc_code', BIG_BEN]], []]);

  await page.locator('loc-picker').evaluate((picker: LocPickerElement) => (picker.disabled = true));
  expect(await page.locator('loc-picker').evaluate((picker: LocPickerElement) => [picker.willValidate, picker.matches(':disabled'), picker.shadowRoot!.querySelector('div')!.inert])).toEqual([false, true, true]);
  expect((await field(page)).data).toEqual([]);
  expect(sessions).toBe(1);
});

test('moved, it keeps its session and its choice; moved atomically, its very frame; removed, it leaves no frame', async ({ page, stack }) => {
  const frames = countFrames(page, stack.service);
  await page.goto(`${origin}/form`);
  await heard(page, 'loc-ready');
  await pickLocation(page, EIFFEL);

  // An ordinary move reloads any iframe: the field mounts again, on the session it has and the code chosen.
  await page.evaluate(() => document.getElementById('elsewhere')!.append(document.querySelector('loc-picker')!));
  const [, again] = await heard(page, 'loc-ready', 2);
  expect((again.detail as { value?: { loc_code: string } }).value?.loc_code).toBe(EIFFEL);
  expect(sessions).toBe(1);
  await expect(page.locator('iframe')).toHaveCount(1);
  const loaded = frames();

  // moveBefore keeps the frame's document: nothing to mount.
  const kept = await page.evaluate(() => {
    const picker = document.querySelector('loc-picker')!;
    const before = picker.iframe;
    // Chromium 133 and later; TypeScript's DOM types do not have it yet.
    (document.body as HTMLElement & { moveBefore(node: Node, child: Node | null): void }).moveBefore(picker, document.body.firstChild);
    return picker.iframe === before && picker.isConnected;
  });
  expect(kept).toBe(true);
  await pickLocation(page, BIG_BEN);
  expect([sessions, frames()]).toEqual([1, loaded]);

  await page.evaluate(() => document.querySelector('loc-picker')!.remove());
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(sessions).toBe(1);
});

test('properties and attributes: getSessionToken first, map-style switched in place, height remounted on the same session; an endpoint or an attribute refused is told', async ({ page, stack }) => {
  const frames = countFrames(page, stack.service);
  await page.goto(`${origin}/form?map-style=satellite`);
  await heard(page, 'loc-ready');
  expect(await page.evaluate(() => window.heard.find((event) => event.type === 'loc-ready')!.detail)).toMatchObject({ style: 'satellite', zoom: 17 });

  await page.locator('loc-picker').evaluate((picker: LocPickerElement) => picker.setAttribute('map-style', 'traffic'));
  await page.locator('loc-picker').evaluate((picker: LocPickerElement) => {
    picker.setAttribute('height', '300px');
    picker.setAttribute('zoom', '18');
  });
  // Two attributes, one remount, on the session the field had.
  const [, remounted] = await heard(page, 'loc-ready', 2);
  expect(remounted.detail).toMatchObject({ style: 'traffic', zoom: 18 });
  expect([sessions, frames()]).toEqual([1, 2]);
  expect(await page.locator('loc-picker iframe').evaluate((iframe) => iframe.getBoundingClientRect().height)).toBe(300);

  // From script: getSessionToken is asked before session-url; a refusal is the field's loc-load-error.
  const told = await page.evaluate(async () => {
    const load = (setUp: (picker: LocPickerElement) => void) =>
      new Promise<string>((resolve) => {
        const picker = document.createElement('loc-picker');
        setUp(picker);
        picker.addEventListener('loc-load-error', (event) => {
          event.preventDefault();
          resolve(event.detail.message);
          picker.remove();
        });
        document.body.append(picker);
      });
    return [
      await load((picker) => picker.setAttribute('session-url', '/no-session')),
      await load((picker) => {
        picker.setAttribute('session-url', '/session');
        picker.getSessionToken = () => Promise.reject(new Error('signed out'));
      }),
      await load((picker) => {
        picker.setAttribute('session-url', '/session');
        picker.setAttribute('zoom', 'far');
      }),
    ];
  });
  expect(told).toEqual([
    '<loc-picker>: POST /no-session must answer 200 with JSON holding session_token (the API\'s session response, passed through) or sessionToken; it answered 403.',
    'signed out',
    '<loc-picker>: LOC.mount: options.zoom must be an integer from 0 to 20; received "far".',
  ]);
  expect(sessions).toBe(2);
});

test('properties a framework set before the script ran are the element’s once it is defined', async ({ page, stack }) => {
  await page.goto(`${origin}/bare`);
  await page.evaluate(() => {
    const picker = document.body.appendChild(document.createElement('loc-picker'));
    Object.assign(picker, {
      value: 'fr-0rmb-cly0',
      appearance: { theme: 'dark' },
      getSessionToken: () => fetch('/session', { method: 'POST' }).then((response) => response.json()).then((session: { session_token: string }) => session.session_token),
    });
  });
  await page.addScriptTag({ url: `${stack.service}/embed/v1/loc-picker.js` });
  const [ready] = await heard(page, 'loc-ready');
  expect((ready.detail as { value?: { loc_code: string } }).value?.loc_code).toBe(EIFFEL);
  expect(await page.locator('loc-picker').evaluate((picker: LocPickerElement) => [picker.value, Object.hasOwn(picker, 'value')])).toEqual([EIFFEL, false]);
  await expect((await locFrame(page)).locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(sessions).toBe(1);
});
