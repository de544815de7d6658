import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PNG } from 'pngjs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BANDS, BLOCK_SIZE } from '../../code/grid.ts';
import { TABLE_URL } from '../../code/shipped-table.ts';
import { TABLE_PATH } from '../../code/table-release.ts';
import { embedAssets, type EmbedAssetsOptions } from './assets.ts';
import { EncodedFile } from './encodings.ts';

async function app(options: Partial<EmbedAssetsOptions> = {}): Promise<FastifyInstance> {
  const instance = Fastify();
  await instance.register(embedAssets, { publicUrl: 'http://localhost:8080', tileRendersPerSecond: 20, now: Date.now, ...options });
  // What the session-bound frame route of the server will do, once it has looked the session up.
  instance.get<{ Params: { sid: string } }>('/embed/frame/:sid', (request, reply) =>
    reply.sendEmbedFrame({ sid: request.params.sid, origin: 'http://localhost:5173', expiresAt: '2030-01-01T00:00:00Z', secretHash: 'ab'.repeat(32) }),
  );
  await instance.ready();
  return instance;
}

describe('embed assets without a browser build', () => {
  it('register all the same, read the build on the first request for it, and answer the rest meanwhile', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'loc-no-build-'));
    const instance = await app({ filesDir: `${empty}/`, tiles: { mode: 'offline' } });
    try {
      // Tiles and styles need no build; a file of the build is a fault of the installation (500).
      expect((await instance.inject('/tiles/streets/0/0/0.png')).statusCode).toBe(200);
      expect(instance.embedStyles.streets[0].url).toBe('http://localhost:8080/tiles/streets/{z}/{x}/{y}.png');
      expect((await instance.inject('/embed/loc-embed.js')).statusCode).toBe(500);
    } finally {
      await instance.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('embed assets', () => {
  let online: FastifyInstance;
  let offline: FastifyInstance;
  beforeAll(async () => {
    [online, offline] = await Promise.all([app(), app({ tiles: { mode: 'offline' } })]);
  });
  afterAll(() => Promise.all([online.close(), offline.close()]));

  it('serve the loader to any page, revalidated by ETag', async () => {
    const response = await online.inject('/embed/loc-embed.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    expect(response.body).toContain('LOC');
    const again = await online.inject({ url: '/embed/loc-embed.js', headers: { 'if-none-match': response.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serve the loader, the form field’s script and their declarations at the versioned path too, the same bytes, revalidated as the alias is', async () => {
    for (const name of ['loc-embed.js', 'loc-embed.d.ts', 'loc-picker.js', 'loc-picker.d.ts']) {
      const [alias, v1] = await Promise.all([online.inject(`/embed/${name}`), online.inject(`/embed/v1/${name}`)]);
      expect(v1.statusCode).toBe(200);
      expect(v1.rawPayload.equals(alias.rawPayload)).toBe(true);
      expect(v1.rawPayload.length).toBeGreaterThan(1000);
      for (const header of ['content-type', 'etag', 'cache-control', 'access-control-allow-origin', 'cross-origin-resource-policy', 'x-content-type-options']) {
        expect(v1.headers[header], header).toBe(alias.headers[header]);
      }
      // Evergreen within v1: never cached as immutable, which only a content hash may be.
      expect(v1.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
      const again = await online.inject({ url: `/embed/v1/${name}`, headers: { 'if-none-match': v1.headers.etag as string } });
      expect(again.statusCode).toBe(304);
    }
    expect((await online.inject('/embed/v1/frame.js')).statusCode).toBe(404);
    expect((await online.inject('/embed/v2/loc-embed.js')).statusCode).toBe(404);
  });

  it('serve the integrators’ declarations', async () => {
    const response = await online.inject('/embed/loc-embed.d.ts');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/typescript; charset=utf-8');
    expect(response.body).toContain('export interface LocMountOptions');
    expect(response.body).toContain('var LOC: LocGlobal');
  });

  it('serve the form field’s declarations standing alone: the public types, then the element’s', async () => {
    const response = await online.inject('/embed/v1/loc-picker.d.ts');
    expect(response.headers['content-type']).toBe('application/typescript; charset=utf-8');
    expect(response.body).not.toMatch(/^import /m);
    expect(response.body).toContain('export interface LocMountOptions');
    expect(response.body).toContain('export interface LocPickerElement extends HTMLElement');
    expect(response.body).toContain("'loc-picker': LocPickerElement;");
  });

  it('send the frame page with its headers and versioned asset links', async () => {
    const response = await online.inject('/embed/frame/sid_1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain('frame-ancestors http://localhost:5173');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain('"sid":"sid_1"');
    expect(response.body).toContain('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    const version = /frame\.js\?v=([\w-]+)/.exec(response.body)?.[1];
    expect(version).toMatch(/^[\w-]{12}$/);
    const js = await online.inject(`/embed/frame.js?v=${version}`);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['access-control-allow-origin']).toBeUndefined();
    const css = await online.inject(`/embed/frame.css?v=${version}`);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serve the frame’s catalogues beside its script, immutable under the page’s version, compressed', async () => {
    const page = await online.inject('/embed/frame/sid_1');
    const version = /frame\.js\?v=([\w-]+)/.exec(page.body)?.[1];
    const fr = await online.inject({ url: `/embed/locales/fr.json?v=${version}`, headers: { 'accept-encoding': 'gzip' } });
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fr.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = JSON.parse((fr.headers['content-encoding'] === 'gzip' ? gunzipSync(fr.rawPayload) : fr.rawPayload).toString('utf8'));
    expect(body['panel.confirm']).toBe('Utiliser cet emplacement');
    expect((await online.inject('/embed/locales/fr.json?v=stale')).headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    // English is in frame.js, and only the catalogues the build wrote are there.
    expect((await online.inject('/embed/locales/en.json')).statusCode).toBe(404);
    expect((await online.inject('/embed/locales/..%2Fframe.js')).statusCode).toBe(404);
  });

  it('never pin a frame file for a year under a version it is not', async () => {
    const response = await online.inject('/embed/frame.js?v=stale');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
  });

  it('send each file compressed to browsers that accept it, as its own representation', async () => {
    // A server starts this once it listens; before it is done, files go out as they are.
    const early = await online.inject({ url: '/embed/frame.js', headers: { 'accept-encoding': 'br' } });
    expect(early.headers['content-encoding']).toBeUndefined();
    expect(early.headers.vary).toBe('accept-encoding');
    await online.prepareEmbedEncodings();
    const sourceMap = await online.inject({ url: '/embed/frame.js.map', headers: { 'accept-encoding': 'br' } });
    expect(sourceMap.headers['content-encoding']).toBeUndefined();
    expect(sourceMap.headers.vary).toBeUndefined();
    for (const url of ['/embed/frame.js', '/embed/frame.css', '/embed/loc-embed.js', '/embed/grid.json']) {
      const identity = await online.inject(url);
      const br = await online.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
      expect(brotliDecompressSync(br.rawPayload)).toEqual(identity.rawPayload);
      expect(br.headers.etag).not.toBe(identity.headers.etag);
      const gzip = await online.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload)).toEqual(identity.rawPayload);
      // Revalidation names the representation the browser holds.
      const again = await online.inject({ url, headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      const other = await online.inject({ url, headers: { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag as string } });
      expect(other.statusCode).toBe(200);
    }
    // The loader is the one file measured against a budget gzip-compressed (docs/embed-internals.md; bench/bundle.ts holds the budget): that is what a browser gets.
    const loader = await online.inject({ url: '/embed/loc-embed.js', headers: { 'accept-encoding': 'gzip' } });
    expect(loader.rawPayload.length).toBeLessThanOrEqual(4 * 1024);
  });

  it('start compressing just after the server listens, not before', async () => {
    const prepare = vi.spyOn(EncodedFile.prototype, 'prepare');
    const server = await app();
    try {
      expect(prepare).not.toHaveBeenCalled();
      await server.listen({ port: 0, host: '127.0.0.1' });
      expect(prepare).not.toHaveBeenCalled();
      await new Promise((next) => setImmediate(next));
      expect(prepare.mock.calls.length).toBeGreaterThanOrEqual(5);
      await server.prepareEmbedEncodings();
      const response = await fetch(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}/embed/frame.js`, { headers: { 'accept-encoding': 'br' } });
      expect(response.headers.get('content-encoding')).toBe('br');
    } finally {
      prepare.mockRestore();
      await server.close();
    }
  });

  it('serve the grid table the frame and any page’s loc-js/grid draw the 3 m grid from', async () => {
    const response = await online.inject('/embed/grid.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const grid = response.json();
    expect(grid.format).toBe(1);
    expect(grid.rowsPerBand).toBe(BLOCK_SIZE);
    expect(grid.columns).toHaveLength(BANDS);
    expect(grid.columns[BANDS / 2]).toBeGreaterThan(13_000_000);
  });

  it('serve the codec’s table under a name that holds its hash: immutable, open to every origin, compressed on first request', async () => {
    const shipped = readFileSync(TABLE_URL);
    expect(TABLE_PATH).toBe('/embed/tables/v1r3.7f7af0b3993bcf0a.bin');
    const first = await online.inject({ url: TABLE_PATH, headers: { 'accept-encoding': 'br', origin: 'https://shop.example' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'cache-control': 'public, max-age=31536000, immutable',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    // The first answer does not wait for Brotli; the file is the documented one, byte for byte.
    expect(Buffer.compare(first.rawPayload, shipped)).toBe(0);
    await vi.waitFor(async () => {
      const br = await online.inject({ url: TABLE_PATH, headers: { 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(Buffer.compare(brotliDecompressSync(br.rawPayload), shipped)).toBe(0);
    }, { timeout: 30_000, interval: 200 });
    expect((await online.inject('/embed/tables/v1r3.0000000000000000.bin')).statusCode).toBe(404);
  });

  it('answer 404 for files it does not have', async () => {
    expect((await online.inject('/embed/secret.txt')).statusCode).toBe(404);
    expect((await online.inject('/embed/frame.html')).statusCode).toBe(404);
    expect((await online.inject('/embed/../package.json')).statusCode).toBe(404);
  });

  it('serve offline tiles as PNG in offline mode, and point every style at them', async () => {
    const response = await offline.inject('/tiles/satellite/3/4/2.png');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    // Readable by a WebGL map on any page, which fetches its tiles with CORS.
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(PNG.sync.read(response.rawPayload).width).toBe(256);
    expect(offline.embedStyles.biking[0].url).toBe('http://localhost:8080/tiles/biking/{z}/{x}/{y}.png');
  });

  it('answer a bad tile address with 404 in the service’s error shape', async () => {
    for (const url of ['/tiles/night/1/0/0.png', '/tiles/streets/2/4/0.png', '/tiles/streets/21/0/0.png', '/tiles/streets/a/0/0.png']) {
      const response = await offline.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'not_found' });
      expect(response.json().message).toBe(response.json().error);
    }
  });

  it('serve no tiles in online mode', async () => {
    expect((await online.inject('/tiles/streets/0/0/0.png')).statusCode).toBe(404);
    expect(online.embedStyles.streets[0].url).toContain('openstreetmap');
  });
});
