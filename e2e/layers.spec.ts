/**
 * loc's grid on an integrator's own map, in Chromium: the built loc-js/leaflet on a Leaflet map and
 * loc-js/maplibre on a MapLibre GL map (WebGL, which headless Chromium runs on SwiftShader), both on
 * the service's offline tiles, the grid from the service's grid.json, codes from the service through
 * the page's own server (layers-page.ts). The lines drawn are the codec's cell and block edges, to
 * the pixel; a click gives the service's code and outlines that code's cell.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import { PNG } from 'pngjs';
import { blockLines } from '../src/code/block-lines.ts';
import { cellAt } from '../src/code/cells.ts';
import { coverage } from '../src/code/shipped-table.ts';
import { gridLines } from '../src/code/grid-lines.ts';
import { encode } from '../src/code/index.ts';
import { expect, test } from './fixtures.ts';
import type { DrawnLines, LatLng } from './layers-page.ts';
import { cellBeside, pixelOf, pointAt, type View } from './map-geometry.ts';
import { ROOT, freePort } from './services.ts';

const SIZE = { width: 800, height: 600 };
/** The MapLibre map's box: SwiftShader draws every pixel on the CPU, so a smaller one. */
const GL_SIZE = { width: 400, height: 300 };
const HOME = encode(48.85837, 2.29448);
const CENTER = { lat: HOME.latitude, lng: HOME.longitude };
const MAPLIBRE_DIST = join(ROOT, 'node_modules/maplibre-gl/dist');
const TYPES: Record<string, string> = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };
const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loc e2e: maps of the page's own</title>
<link rel="stylesheet" href="/leaflet.css"><link rel="stylesheet" href="/maplibre/maplibre-gl.css">
<style>body { margin: 0 } #map { width: ${SIZE.width}px; height: ${SIZE.height}px }</style>
<script type="importmap">{ "imports": { "maplibre-gl": "/maplibre/maplibre-gl.mjs" } }</script>
<script type="module" src="/page.js"></script></head><body><div id="map"></div></body></html>`;

let script: string;
let server: Server;
let origin: string;

test.beforeAll(async ({ stack }) => {
  const bundled = await build({
    entryPoints: [join(ROOT, 'e2e/layers-page.ts')],
    bundle: true,
    format: 'esm',
    target: 'chrome100',
    external: ['maplibre-gl'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  // The package as built, not its sources.
  expect(Object.keys(bundled.metafile.inputs)).toEqual(expect.arrayContaining(['packages/loc-js/dist/leaflet.js', 'packages/loc-js/dist/maplibre.js', 'packages/loc-js/dist/grid.js']));
  script = bundled.outputFiles[0].text;
  const port = await freePort();
  origin = `http://localhost:${port}`;
  // What an integrator's server does: asks the service with its key, which stays on the server.
  const ask = async (path: string, init?: RequestInit) => fetch(`${stack.service}${path}`, { ...init, headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json' } });
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const send = (status: number, type: string, body: string | Buffer) => response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
    const relay = (answer: Promise<Response>, pick: (body: Record<string, unknown>) => unknown) =>
      void answer.then(async (reply) => {
        const body = (await reply.json()) as Record<string, unknown>;
        send(reply.status, 'application/json', JSON.stringify(reply.ok ? pick(body) : body));
      });
    if (url.pathname === '/') return send(200, 'text/html', HTML);
    if (url.pathname === '/page.js') return send(200, 'text/javascript', script);
    if (url.pathname === '/leaflet.css') return send(200, 'text/css', readFileSync(join(ROOT, 'node_modules/leaflet/dist/leaflet.css')));
    if (url.pathname.startsWith('/maplibre/') && /^[\w.-]+$/.test(url.pathname.slice(10))) {
      const file = url.pathname.slice(10);
      return send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(join(MAPLIBRE_DIST, file)));
    }
    if (url.pathname === '/code') {
      const point = { lat: Number(url.searchParams.get('lat')), lng: Number(url.searchParams.get('lng')) };
      return relay(ask('/v1/embed/resolve', { method: 'POST', body: JSON.stringify(point) }), (body) => ({ loc_code: body.loc_code }));
    }
    if (url.pathname === '/cell') return relay(ask(`/v1/loc/lookup/${encodeURIComponent(url.searchParams.get('code') ?? '')}`), (body) => body.cell);
    if (url.pathname === '/favicon.ico') return response.writeHead(204).end();
    return send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((done) => server.listen(port, 'localhost', done));
});

test.afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

const columns = Array.from(coverage().columns);
const columnsOf = (band: number) => columns[band];

/** Painted pixel columns (or rows) side by side, a line drawn across two of them, as one line each. */
function merged(positions: number[]): number[] {
  const lines: number[][] = [];
  for (const at of positions) {
    if (lines.length && at - lines.at(-1)!.at(-1)! <= 1) lines.at(-1)!.push(at);
    else lines.push([at]);
  }
  return lines.map((group) => group.reduce((sum, at) => sum + at, 0) / group.length);
}

/**
 * The pixels of the map's box where the lines `linesOf` gives for its view fall: x of the meridians, y
 * of the parallels. A tile reaches up to a tile's size past the view, and a band above or below the
 * view may hold most of a tile: its meridians count too.
 */
function expectedLines(view: View, linesOf: typeof gridLines): { xs: number[]; ys: number[] } {
  const nw = pointAt(view, { x: -256, y: -256 });
  const se = pointAt(view, { x: view.width + 256, y: view.height + 256 });
  const lines = linesOf({ south: se.lat, north: nw.lat, west: nw.lng, east: se.lng }, columnsOf)!;
  return {
    xs: lines.bands.flatMap((band) => band.lngs.map((lng) => pixelOf(view, { lat: view.center.lat, lng }).x)),
    ys: lines.rows.map((lat) => pixelOf(view, { lat, lng: view.center.lng }).y),
  };
}

/** Each drawn line within a pixel and a half of a line of the grid (where the line is drawn 1 px wide and anti-aliased). */
function expectOnLines(drawn: DrawnLines, expected: { xs: number[]; ys: number[] }) {
  for (const [axis, positions] of [['x', merged(drawn.xs)], ['y', merged(drawn.ys)]] as const) {
    const wanted = axis === 'x' ? expected.xs : expected.ys;
    for (const at of positions) expect(Math.min(...wanted.map((line) => Math.abs(line - at))), `${axis} = ${at}`).toBeLessThanOrEqual(1.5);
  }
}

test('on a Leaflet map the layer draws the 3 m cells from zoom 18 on their edges, none at 17, and the block outlines at 12', async ({ page, stack }) => {
  await page.goto(origin);
  await page.evaluate(({ service, center }) => window.layersPage.leaflet(service, center, 18), { service: stack.service, center: CENTER });
  const at18 = await page.evaluate(() => window.layersPage.leafletLines());
  // A cell is about 7.6 px at zoom 18 in Paris: a hundred lines across the 800 px map, eighty down it.
  expect(merged(at18.xs).length).toBeGreaterThan(95);
  expect(merged(at18.ys).length).toBeGreaterThan(70);
  expectOnLines(at18, expectedLines({ center: CENTER, zoom: 18, ...SIZE }, gridLines));

  await page.evaluate(({ center }) => window.layersPage.leafletView(center, 17), { center: CENTER });
  const at17 = await page.evaluate(() => window.layersPage.leafletLines());
  // Only block edges could cross a view of 2 km: one of each at most, never the cells.
  expect(merged(at17.xs).length).toBeLessThanOrEqual(1);
  expect(merged(at17.ys).length).toBeLessThanOrEqual(1);
  expectOnLines(at17, expectedLines({ center: CENTER, zoom: 17, ...SIZE }, blockLines));

  await page.evaluate(({ center }) => window.layersPage.leafletView(center, 12), { center: CENTER });
  const at12 = await page.evaluate(() => window.layersPage.leafletLines());
  // A block is about 155 px wide at zoom 12: several outlines each way.
  expect(merged(at12.xs).length).toBeGreaterThanOrEqual(4);
  expect(merged(at12.ys).length).toBeGreaterThanOrEqual(3);
  expectOnLines(at12, expectedLines({ center: CENTER, zoom: 12, ...SIZE }, blockLines));
});

for (const codes of ['service', 'codec'] as const) {
  test(`on a Leaflet map a click outlines the clicked cell and gives the service’s code for it, by ${codes === 'codec' ? 'loc-js/codec offline' : 'the service'}; highlight(code) outlines that code’s cell`, async ({ page, stack }) => {
    const asked: string[] = [];
    page.on('request', (request) => void (/\/(code|cell)\?/.test(request.url()) && asked.push(request.url())));
    await page.goto(origin);
    const view: View = { center: CENTER, zoom: 19, ...SIZE };
    await page.evaluate(({ service, center, codes }) => window.layersPage.leaflet(service, center, 19, codes), { service: stack.service, center: CENTER, codes });
    const target = cellBeside(HOME, 4, 3);
    const pixel = pixelOf(view, { lat: target.latitude, lng: target.longitude });
    const at = { x: Math.round(pixel.x), y: Math.round(pixel.y) };
    await page.locator('#map').click({ position: at });
    await expect.poll(() => page.evaluate(() => window.layersPage.events.length)).toBe(1);
    const [event] = await page.evaluate(() => window.layersPage.events);
    // Leaflet rounds its pixel origin: the clicked point is within half a pixel (0.1 m) of the one aimed at.
    expect(event.latlng.lat).toBeCloseTo(pointAt(view, at).lat, 5);
    expect(event.latlng.lng).toBeCloseTo(pointAt(view, at).lng, 5);
    expect(event.code).toBe(target.loc_code);
    expect(event.code).toBe(encode(event.latlng.lat, event.latlng.lng).loc_code);
    expect(event.cell).toEqual(cellAt(event.latlng.lat, event.latlng.lng));
    expect(await page.evaluate(() => window.layersPage.leafletHighlight())).toEqual(target.cell);

    expect(await page.evaluate((code) => window.layersPage.highlight(code), HOME.loc_code)).toEqual(HOME.cell);
    expect(await page.evaluate(() => window.layersPage.leafletHighlight())).toEqual(HOME.cell);
    await page.evaluate(() => window.layersPage.highlight(null));
    expect(await page.evaluate(() => window.layersPage.leafletHighlight())).toBeNull();
    // Offline, the page asked its server for nothing: the codec answered.
    if (codes === 'codec') expect(asked).toEqual([]);
    else expect(asked.length).toBeGreaterThan(0);
  });
}

/** Pixels that differ between two PNG screenshots of the same size. */
function differingPixels(a: Buffer, b: Buffer): number {
  const [first, second] = [PNG.sync.read(a), PNG.sync.read(b)];
  let count = 0;
  for (let i = 0; i < first.data.length; i += 4) if (first.data.readUInt32BE(i) !== second.data.readUInt32BE(i)) count++;
  return count;
}

test('on a MapLibre GL map (WebGL on SwiftShader) the helper draws the cells from zoom 17 and the block outlines at 16, and a click gives the service’s code and outlines its cell', async ({ page, stack }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(origin);
  await page.evaluate(({ service, center, size }) => window.layersPage.maplibre(service, center, 17, size), { service: stack.service, center: CENTER, size: GL_SIZE });
  expect(await page.evaluate(() => document.querySelector<HTMLCanvasElement>('#map canvas')?.getContext('webgl2') != null)).toBe(true);
  await expect.poll(() => page.evaluate(() => window.layersPage.maplibreRendered())).toBeGreaterThan(0);
  const data = await page.evaluate(() => window.layersPage.maplibreData());
  expect(data.features.map((feature) => feature.properties)).toEqual([{ kind: 'cells' }]);
  // MapLibre's zoom 17 is Leaflet's 18: the lines of the same view.
  const lines = (data.features[0].geometry as GeoJSON.MultiLineString).coordinates;
  const nw = pointAt({ center: CENTER, zoom: 18, ...GL_SIZE }, { x: 0, y: 0 });
  const se = pointAt({ center: CENTER, zoom: 18, ...GL_SIZE }, { x: GL_SIZE.width, y: GL_SIZE.height });
  const expected = gridLines({ south: se.lat, north: nw.lat, west: nw.lng, east: se.lng }, columnsOf)!;
  // A line per row edge and per column edge in view, give or take one at each side's edge.
  expect(Math.abs(lines.length - (expected.rows.length + expected.bands[0].lngs.length))).toBeLessThanOrEqual(4);
  // Drawn, by WebGL: the map with its lines differs from the map without them in thousands of pixels.
  const map = page.locator('#map canvas');
  const drawn = await map.screenshot();
  await page.evaluate(() => window.layersPage.maplibreLines(false));
  expect(differingPixels(drawn, await map.screenshot())).toBeGreaterThan(5_000);
  await page.evaluate(() => window.layersPage.maplibreLines(true));

  await page.evaluate(({ center }) => window.layersPage.maplibreView(center, 16), { center: CENTER });
  expect((await page.evaluate(() => window.layersPage.maplibreData())).features.map((feature) => feature.properties)).toEqual([{ kind: 'blocks' }]);

  await page.evaluate(({ center }) => window.layersPage.maplibreView(center, 18), { center: CENTER });
  const view: View = { center: CENTER, zoom: 19, ...GL_SIZE };
  const target = cellBeside(HOME, -3, 2);
  const pixel = pixelOf(view, { lat: target.latitude, lng: target.longitude });
  await page.locator('#map canvas').click({ position: { x: Math.round(pixel.x), y: Math.round(pixel.y) } });
  await expect.poll(() => page.evaluate(() => window.layersPage.events.length)).toBe(1);
  const [event] = await page.evaluate(() => window.layersPage.events);
  expect(event.code).toBe(target.loc_code);
  expect(event.cell).toEqual(target.cell);
  const { north, south, east, west } = target.cell;
  expect(await page.evaluate(() => window.layersPage.maplibreCell())).toMatchObject({
    features: [{ geometry: { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] } }],
  });
  expect(problems).toEqual([]);
});
