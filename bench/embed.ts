/**
 * The embed's start-up budget: `LOC.mount()` → `onReady` with offline tiles, against a
 * bare Leaflet map in an iframe on the same page, in one Chromium run.
 *
 * Ours: the built service with offline tiles; the page calls `LOC.mount` and stops the clock in
 * `onReady` (the frame connected, holds the session, its first tiles are drawn). The peer: a page
 * that does nothing but show Leaflet (the same version, from node_modules) with the same offline
 * tile URLs, in an iframe on another origin of this machine as the frame is; the clock stops at its
 * tile layer's first `load`, the event our frame waits for. Same size, same view, same tiles.
 * Both are warmed first (the service renders and caches the tiles, the browser caches the scripts),
 * then timed in turn, each round alternating which goes first; the medians are compared.
 *
 * And the integrators' package against the script tag: a page that loads the script with a tag and
 * mounts, against a page whose own module script — an app's bundle, with loc-js/embed's built ESM
 * inside it as a bundler puts it — calls `loadLoc` and mounts once the promise gives `LOC`; each round
 * opens both anew and takes the time from navigation to `onReady`, so that the package's script
 * injection is in the figure.
 *
 * The browser and the servers are the browser suite's (e2e/chromium.ts, e2e/services.ts).
 * Run alone with `node --import tsx bench/embed.ts`; `npm run bench` includes it.
 */
import { chromium, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { ROOT, createKey, freePort, newDataDir, removeDataDir, startService } from '../e2e/services.ts';
import { markdownTable, type BenchRow } from './report.ts';

/** Timed rounds, each one mount of ours and one bare map. */
const ROUNDS = 25;
const WARM_ROUNDS = 3;
/** The view both maps show: Paris at city zoom, a dozen tiles. */
const VIEW = { lat: 48.8566, lng: 2.3522, zoom: 12 };
const HEIGHT = '400px';
/**
 * "No slower than the script tag": 1.0, plus 5 % for noise — two runs on a busy two-core machine gave
 * 0.98× and 1.02× for what is, after the first load, the same script.
 */
const PACKAGE_BUDGET = 1.05;

const LEAFLET_DIR = join(ROOT, 'node_modules/leaflet/dist');

/** The bare peer: Leaflet and one tile layer, which says when its first tiles have loaded. */
const barePage = (tiles: string, parentOrigin: string): string => `<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="/leaflet/leaflet.css">
<script src="/leaflet/leaflet.js"></script>
<style>html, body, #map { height: 100%; margin: 0; }</style>
</head><body><div id="map"></div><script>
const map = L.map('map', { center: [${VIEW.lat}, ${VIEW.lng}], zoom: ${VIEW.zoom} });
L.tileLayer(${JSON.stringify(tiles)}, { maxZoom: 20, referrerPolicy: 'no-referrer' })
  .once('load', () => parent.postMessage('bare:ready', ${JSON.stringify(parentOrigin)}))
  .addTo(map);
</script></body></html>`;

/**
 * The integrator's page: the loader, an element as wide as the peer's frame, and the two timings —
 * written as page script rather than functions handed to `page.evaluate`, which tsx would rewrite
 * with helpers the page does not have.
 */
const hostPage = (service: string, bareUrl: string): string => `<!doctype html>
<html><head><meta charset="utf-8"><script src="${service}/embed/loc-embed.js"></script>
<style>body { margin: 0; } #map { width: 800px; }</style></head><body><div id="map"></div><script>
const style = 'display:block;width:100%;border:0;height:${HEIGHT}';
// ms from LOC.mount to onReady; the map is destroyed afterwards.
window.mountOurs = (token) => new Promise((done, fail) => {
  const start = performance.now();
  const handle = LOC.mount('#map', {
    sessionToken: token, center: { lat: ${VIEW.lat}, lng: ${VIEW.lng} }, zoom: ${VIEW.zoom}, height: '${HEIGHT}',
    onReady: () => { done(performance.now() - start); handle.destroy(); },
    onError: (error) => fail(new Error(error.code + ': ' + error.message)),
  });
});
// ms from creating the peer's iframe to its first tiles; the iframe is removed afterwards.
window.mountBare = () => new Promise((done) => {
  const start = performance.now();
  const iframe = document.createElement('iframe');
  const onMessage = (event) => {
    if (event.source !== iframe.contentWindow || event.data !== 'bare:ready') return;
    done(performance.now() - start);
    removeEventListener('message', onMessage);
    iframe.remove();
  };
  addEventListener('message', onMessage);
  iframe.src = ${JSON.stringify(bareUrl)};
  iframe.style.cssText = style;
  document.getElementById('map').append(iframe);
});
</script></body></html>`;

/** loc-js/embed's built ESM as an app's bundle holds it: its code, without the module's export. */
const bundledLoadLoc = (): string => readFileSync(join(ROOT, 'packages/loc-js/dist/embed.js'), 'utf8').replace(/export\s*\{\s*loadLoc\s*\};?\s*$/, '');

/**
 * A page that mounts at once, by the script tag or through loc-js/embed's `loadLoc`, with the session
 * token of its URL's fragment, and records ms from navigation to `onReady` in `window.readyMs`.
 */
const loadPage = (service: string, via: 'tag' | 'package'): string => {
  const mount = `LOC.mount('#map', {
    sessionToken: location.hash.slice(1), center: { lat: ${VIEW.lat}, lng: ${VIEW.lng} }, zoom: ${VIEW.zoom}, height: '${HEIGHT}',
    onReady: () => { window.readyMs = performance.now(); },
    onError: (error) => { window.readyError = error.code + ': ' + error.message; },
  });`;
  return `<!doctype html>
<html><head><meta charset="utf-8">${via === 'tag' ? `<script src="${service}/embed/v1/loc-embed.js"></script>` : ''}
<style>body { margin: 0; } #map { width: 800px; }</style></head><body><div id="map"></div>
${via === 'tag' ? `<script>${mount}</script>` : `<script type="module">
${bundledLoadLoc()}
const LOC = await loadLoc({ baseUrl: ${JSON.stringify(service)} });
${mount}
</script>`}
</body></html>`;
};

/** Serves the host page and the bare peer; the same handler listens on both origins. */
function pageServer(service: string, hostOrigin: string, bareUrl: string): Server {
  return createServer((request, response) => {
    const send = (type: string, body: string | Buffer, cache = 'no-store') => {
      response.writeHead(200, { 'content-type': type, 'cache-control': cache });
      response.end(body);
    };
    if (request.url === '/') return send('text/html; charset=utf-8', hostPage(service, bareUrl));
    if (request.url === '/bare.html') return send('text/html; charset=utf-8', barePage(`${service}/tiles/streets/{z}/{x}/{y}.png`, hostOrigin));
    if (request.url === '/tag.html') return send('text/html; charset=utf-8', loadPage(service, 'tag'));
    if (request.url === '/package.html') return send('text/html; charset=utf-8', loadPage(service, 'package'));
    if (request.url === '/leaflet/leaflet.js') return send('text/javascript', readFileSync(join(LEAFLET_DIR, 'leaflet.js')), 'max-age=3600');
    if (request.url === '/leaflet/leaflet.css') return send('text/css', readFileSync(join(LEAFLET_DIR, 'leaflet.css')), 'max-age=3600');
    response.writeHead(404).end();
  });
}

const listen = (server: Server, port: number) => new Promise<void>((done) => server.listen(port, '127.0.0.1', () => done()));

declare global {
  interface Window {
    mountOurs(token: string): Promise<number>;
    mountBare(): Promise<number>;
    readyMs?: number;
    readyError?: string;
  }
}

/** Opens `url` with `token` and resolves with its ms from navigation to `onReady`. */
async function loadToReady(page: Page, url: string, token: string): Promise<number> {
  await page.goto(`${url}#${token}`);
  const handle = await page.waitForFunction(() => window.readyMs ?? (window.readyError && `error ${window.readyError}`));
  const value = await handle.jsonValue();
  if (typeof value !== 'number') throw new Error(`${url}: ${String(value)}`);
  return value;
}

const mountOurs = (page: Page, token: string) => page.evaluate((token) => window.mountOurs(token), token);
const mountBare = (page: Page) => page.evaluate(() => window.mountBare());

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function benchMount(): Promise<BenchRow[]> {
  execFileSync(process.execPath, ['build.mjs', '--if-missing'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = newDataDir();
  const [hostPort, barePort] = [await freePort(), await freePort()];
  const hostOrigin = `http://localhost:${hostPort}`;
  const { apiKey } = createKey(dataDir, { account: 'bench', origins: [hostOrigin] });
  const service = await startService(dataDir);
  const bareUrl = `http://localhost:${barePort}/bare.html`;
  const host = pageServer(service.url, hostOrigin, bareUrl);
  const bare = pageServer(service.url, hostOrigin, bareUrl);
  await Promise.all([listen(host, hostPort), listen(bare, barePort)]);
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    await page.goto(hostOrigin);
    const session = async () => {
      const response = await fetch(`${service.url}/v1/embed/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ origin: hostOrigin }),
      });
      if (!response.ok) throw new Error(`POST /v1/embed/sessions answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { session_token: string }).session_token;
    };
    const ours: number[] = [];
    const peer: number[] = [];
    for (let round = 0; round < WARM_ROUNDS + ROUNDS; round++) {
      const token = await session();
      let oursMs: number;
      let peerMs: number;
      if (round % 2 === 0) {
        oursMs = await mountOurs(page, token);
        peerMs = await mountBare(page);
      } else {
        peerMs = await mountBare(page);
        oursMs = await mountOurs(page, token);
      }
      if (round < WARM_ROUNDS) continue;
      ours.push(oursMs);
      peer.push(peerMs);
    }
    // Through the package against the tag, each page opened anew every round, in alternating order.
    const viaPackage: number[] = [];
    const viaTag: number[] = [];
    for (let round = 0; round < WARM_ROUNDS + ROUNDS; round++) {
      const order = round % 2 === 0 ? (['package', 'tag'] as const) : (['tag', 'package'] as const);
      const times: Record<string, number> = {};
      for (const via of order) times[via] = await loadToReady(page, `${hostOrigin}/${via}.html`, await session());
      if (round < WARM_ROUNDS) continue;
      viaPackage.push(times.package);
      viaTag.push(times.tag);
    }
    const spread = (values: number[]) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))} ms`;
    return [{
      group: 'embed',
      name: 'mount() → onReady (offline tiles)',
      ours: median(ours),
      peerName: 'bare Leaflet map in an iframe (first tiles loaded)',
      peer: median(peer),
      unit: 'ms',
      higherIsBetter: false,
      budget: 1.5,
      note: `median of ${ROUNDS} alternating rounds after ${WARM_ROUNDS} warm-ups, one Chromium ${browser.version()} page; ` +
        `range ${spread(ours)} vs ${spread(peer)}; 800 × 400 px, zoom ${VIEW.zoom}`,
    }, {
      group: 'embed',
      name: 'page load → onReady through loc-js/embed (loadLoc)',
      ours: median(viaPackage),
      peerName: 'the same page with the script tag',
      peer: median(viaTag),
      unit: 'ms',
      higherIsBetter: false,
      budget: PACKAGE_BUDGET,
      note: `median of ${ROUNDS} alternating rounds after ${WARM_ROUNDS} warm-ups, each page opened anew; range ${spread(viaPackage)} vs ${spread(viaTag)}`,
    }];
  } finally {
    await browser.close();
    const close = (server: Server) => new Promise((done) => {
      server.closeAllConnections();
      server.close(done);
    });
    await Promise.all([service.stop(), close(host), close(bare)]);
    removeDataDir(dataDir);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${markdownTable(await benchMount())}\n`);
}
