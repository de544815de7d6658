/**
 * Why the embed's origin rule refuses some hosts the URL parser takes (src/auth/origin.ts): Chromium
 * lets a page frame the map only when the frame's `frame-ancestors` names the page's origin, and it
 * cannot parse a source whose host has "_" or is an IPv6 address — it ignores the source, which
 * leaves `frame-ancestors 'none'`. For each host, a page on it frames a page served with the frame's
 * own headers for that origin (frameHeaders); the frame loads exactly when the rule accepts the host.
 *
 * The hosts are names the browser is told to resolve to 127.0.0.1 (so the test launches its own
 * Chromium, with that rule) and plain-http origins: the host matching under test is the same for
 * https, and the rule is asked about the https origin of the same host.
 */
import { chromium, type Browser } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { originProblem } from '../src/auth/origin.ts';
import { frameHeaders } from '../src/server/embed/frame-page.ts';
import { resolveStyles } from '../src/tiles/styles.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect, test } from './fixtures.ts';

/** Names the launched browser resolves to 127.0.0.1; nothing else is looked up. */
const NAMES = ['frame.test', 'a_b.test', 'xn--bcher-kva.test', 'shop.test', 'shop.test.'];

let server: Server;
let port: number;
let browser: Browser;

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const origin = url.searchParams.get('origin') ?? '';
    if (url.pathname === '/parent') {
      const frame = `http://frame.test:${port}/frame?origin=${encodeURIComponent(origin)}`;
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe src="${frame}"></iframe>`);
    } else if (url.pathname === '/frame') {
      const apiBase = `http://frame.test:${port}`;
      response.writeHead(200, frameHeaders({ origin, apiBase, styles: resolveStyles({ mode: 'offline' }, apiBase) })).end('<p id="framed">framed</p>');
    } else {
      response.writeHead(404).end();
    }
  });
  // Both address families: one of the pages is on [::1].
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;
  const launch = chromiumLaunchOptions();
  browser = await chromium.launch({ ...launch, args: [...(launch.args ?? []), `--host-resolver-rules=${NAMES.map((name) => `MAP ${name} 127.0.0.1`).join(', ')}`] });
});

test.afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

for (const host of ['localhost', '127.0.0.1', 'shop.test', 'shop.test.', 'xn--bcher-kva.test', 'a_b.test', '[::1]']) {
  test(`a page on ${host} frames the map exactly when the origin rule accepts ${host}`, async () => {
    const origin = `http://${host}:${port}`;
    const accepted = originProblem(`https://${host}:${port}`) === null;
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/parent?origin=${encodeURIComponent(origin)}`);
      expect(await page.evaluate(() => location.origin), 'the page is on the origin the frame names').toBe(origin);
      const frame = page.frameLocator('iframe');
      if (accepted) await expect(frame.locator('#framed')).toHaveText('framed');
      else await expect.poll(() => page.frames().map((each) => each.url())).toContain('chrome-error://chromewebdata/');
      expect(await frame.locator('#framed').count()).toBe(accepted ? 1 : 0);
    } finally {
      await page.close();
    }
  });
}
