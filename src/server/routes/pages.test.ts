/** The pages and service routes: the share page and its 404, /healthz, /openapi.json and /docs. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../code/index.ts';
import { ERROR_CATALOGUE } from '../../errors.ts';
import { json, testService, type TestService } from '../../../test/support/service.ts';

let service: TestService;

beforeAll(async () => {
  service = await testService();
});
afterAll(() => service.close());

describe('share page', () => {
  it('shows the code, the address, the country, a map of the cell, map links and a copy button', async () => {
    const response = await service.request({ url: '/US-550M-RQ5L' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<h1 id="code" class="code">US-550M-RQ5L</h1>');
    expect(html).toContain('<button id="copy" type="button">Copy code</button>');
    expect(html).toContain('near Sausalito, United States');
    expect(html).toContain('🇺🇸 United States · 37.859107, -122.485315');
    expect(html).toContain('<div class="map-view" role="img" aria-label="Map around US-550M-RQ5L, its 3 m × 3 m cell outlined in the middle">');
    expect(html).not.toContain('<iframe');
    for (const link of ['https://www.google.com/maps/search/?api=1&amp;query=37.859107%2C-122.485315', 'https://maps.apple.com/', 'https://www.openstreetmap.org/?mlat=', 'geo:37.859107,-122.485315']) {
      expect(html).toContain(link);
    }
    expect(html).toContain('<link rel="canonical" href="https://loc.example/US-550M-RQ5L">');
  });

  it('is public and shows nothing an account saved', async () => {
    const { secret } = await service.key();
    await service.request({
      method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': secret },
      payload: { latitude: 37.8591, longitude: -122.4853, label: 'Secret hideout', address: '1 Private Lane' },
    });
    const html = (await service.request({ url: '/US-550M-RQ5L' })).body;
    expect(html).not.toContain('Secret hideout');
    expect(html).not.toContain('1 Private Lane');
  });

  it('is cacheable and locked down by its Content-Security-Policy', async () => {
    const response = await service.request({ url: '/US-550M-RQ5L' });
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-src 'none'");
    expect((await service.request({ url: '/US-550M-RQ5L', headers: { 'if-none-match': response.headers.etag as string } })).statusCode).toBe(304);
    expect((await service.request({ url: '/US-550M-RQ5L', headers: { 'if-none-match': `W/${response.headers.etag}` } })).statusCode).toBe(304);
  });

  it('redirects loose spellings to the canonical code', async () => {
    for (const loose of ['/us550mrq5l', '/us-550m-rq5l', '/US%20550M%20RQ5L', '/US-550M-RQ5L/']) {
      const response = await service.request({ url: loose });
      expect({ loose, status: response.statusCode, location: response.headers.location }).toEqual({ loose, status: 301, location: '/US-550M-RQ5L' });
    }
  });

  it('answers a friendly 404 page for a code of no cell and for anything else', async () => {
    const missing = await service.request({ url: '/ZZ-0000-0000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.body).toContain('looks like a location code, but no place has it');
    const other = await service.request({ url: '/wp-login.php' });
    expect(other.statusCode).toBe(404);
    expect(other.body).toContain('is not a location code');
    // The example it gives is a code of a real cell, linked to its share page.
    const example = /Codes look like <a class="code" href="\/([^"]+)">([^<]+)<\/a>/.exec(other.body);
    expect(example?.[1]).toBe(example?.[2]);
    expect(decode(example![2]).loc_code).toBe(example![2]);
    expect((await service.request({ url: `/${example![1]}` })).statusCode).toBe(200);
    // However long the path: the same page, echoing only its start.
    const long = await service.request({ url: `/${'a'.repeat(150)}` });
    expect(long.statusCode).toBe(404);
    expect(long.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(long.body).toContain(`${'a'.repeat(60)}…`);
  });

  it('shows a mistyped path on its 404 page escaped where it could hide or reorder text, and isolated from the sentence', async () => {
    const page = await service.request({ url: '/%E2%80%AEabc%C2%AD%E2%81%A6%D7%A9%D7%9C%D7%95%D7%9D' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<bdi class="code">\\u202eabc\\u00ad\\u2066שלום</bdi> is not a location code.');
    expect(page.body).not.toMatch(/[\p{Cf}\p{Zl}\p{Zp}]/u);
  });

  it('escapes what it echoes', async () => {
    const response = await service.request({ url: `/${encodeURIComponent('<script>alert(1)</script>')}` });
    expect(response.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response.body).not.toContain('<script>alert');
  });
});

/** The share page's map as the HTML lays it out: tiles and the cell's outline, CSS pixels from the map's middle. */
function mapOf(html: string) {
  const tiles = [...html.matchAll(/(?:<picture><source media="\(max-width: (\d+)px\)" srcset="(data:[^"]+)">)?<img src="([^"]+)" alt="" width="(\d+)" height="\d+" referrerpolicy="([^"]+)" style="left:(-?\d+)px;top:(-?\d+)px">/g)]
    .map(([, blankUpTo, blank, src, size, referrerPolicy, left, top]) => ({
      src, size: Number(size), referrerPolicy, left: Number(left), top: Number(top),
      /** The widest viewport that loads `blank` instead of the tile, if any. */
      blankUpTo: blankUpTo === undefined ? null : Number(blankUpTo), blank,
    }));
  const box = /<div class="map-cell" style="left:(-?[\d.]+)px;top:(-?[\d.]+)px;width:([\d.]+)px;height:([\d.]+)px">/.exec(html);
  const [left, top, width, height] = box === null ? [] : box.slice(1).map(Number);
  return { tiles, cell: box === null ? null : { left, top, width, height } };
}

/** The directives of a Content-Security-Policy, each with its sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
}

describe('share page map', () => {
  it('swaps each tile for a blank on the screens too narrow to show any of it', async () => {
    const response = await service.request({ url: '/FR-0RMB-CLY0' });
    const { tiles } = mapOf(response.body);
    expect(tiles.length).toBeGreaterThanOrEqual(8);
    // The box is the viewport less 16 px of padding each side, centred on the cell: a tile is out of
    // view while the box's half-width does not pass its nearer edge.
    for (const tile of tiles) {
      const reach = Math.max(tile.left, -(tile.left + tile.size));
      expect(tile.blankUpTo, JSON.stringify(tile)).toBe(reach < 0 ? null : 2 * reach + 32);
      if (tile.blank !== undefined) expect(Buffer.from(tile.blank.split(',')[1], 'base64').subarray(0, 6).toString()).toBe('GIF89a');
    }
    // A phone loads the middle tiles only; the widest box needs them all.
    expect(tiles.filter((tile) => tile.blankUpTo === null || tile.blankUpTo < 390).length).toBeLessThan(tiles.length);
    expect(tiles.every((tile) => tile.blankUpTo === null || tile.blankUpTo < 860)).toBe(true);
  });

  it('in offline mode loads nothing but the service’s own tiles: no openstreetmap.org in the page or its CSP', async () => {
    const offline = await testService({ LOC_TILES: 'offline' });
    try {
      const response = await offline.request({ url: '/FR-0RMB-CLY0' });
      expect(response.statusCode).toBe(200);
      const html = response.body;
      const { tiles } = mapOf(html);
      expect(tiles.length).toBeGreaterThanOrEqual(8);
      for (const tile of tiles) expect(tile.src).toMatch(/^https:\/\/loc\.example\/tiles\/streets\/19\/\d+\/\d+\.png$/);
      expect(html).not.toContain('<iframe');
      // Links are followed only if the visitor clicks them; everything else that names a URL is on
      // the service's origin (tiles, canonical and og:url).
      const loaded = html.replace(/<a [^>]*>/g, '<a>').match(/[a-z]+:\/\/[^\s"'<>]+/g) ?? [];
      expect(loaded.length).toBeGreaterThan(tiles.length);
      expect(loaded.filter((url) => new URL(url).origin !== 'https://loc.example')).toEqual([]);
      // openstreetmap.org is named once: the visitor's link to it among the map apps.
      expect(html.match(/openstreetmap\.org/g)).toHaveLength(1);
      expect(html).toContain('<li><a href="https://www.openstreetmap.org/?mlat=48.858389');
      expect(html).toContain('<figcaption class="map-attribution">Offline map by loc');
      expect(html).not.toContain('OpenStreetMap contributors');

      const csp = response.headers['content-security-policy'] as string;
      expect(csp).not.toContain('openstreetmap');
      const policy = directives(csp);
      expect(policy['img-src']).toEqual(["'self'", 'data:', 'https://loc.example']);
      expect(policy['frame-src']).toEqual(["'none'"]);
      expect(policy['default-src']).toEqual(["'none'"]);
      // The one inline script is the one the policy's hash allows.
      const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
      expect(policy['script-src']).toEqual([`'sha256-${createHash('sha256').update(script).digest('base64')}'`]);
    } finally {
      await offline.close();
    }
  });

  it('outlines the cell at its bounds projected to Web Mercator, registered against the tiles', async () => {
    for (const code of ['US-550M-RQ5L', 'FR-0RMB-CLY0', 'FJ-04ZN-SSBU']) {
      const { cell: bounds } = decode(code);
      const { tiles, cell } = mapOf((await service.request({ url: `/${code}` })).body);
      // Computed here by the sine form of the projection, at the page's zoom, 19.
      const world = 256 * 2 ** 19;
      const x = (lng: number) => (world * (lng + 180)) / 360;
      const y = (lat: number) => world * (0.5 - Math.log((1 + Math.sin((lat * Math.PI) / 180)) / (1 - Math.sin((lat * Math.PI) / 180))) / (4 * Math.PI));
      expect(cell).not.toBeNull();
      expect(cell!.width).toBeCloseTo(x(bounds.east) - x(bounds.west), 1);
      expect(cell!.height).toBeCloseTo(y(bounds.south) - y(bounds.north), 1);
      // Centred: the map's middle is the cell's centre, to half a pixel.
      expect(Math.abs(cell!.left + cell!.width / 2)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(cell!.top + cell!.height / 2)).toBeLessThanOrEqual(0.5);
      // Each tile's place and its x, y give the map's middle in world pixels: the outline agrees with every one.
      expect(tiles.length).toBeGreaterThan(0);
      for (const tile of tiles) {
        const [tx, ty] = /\/19\/(\d+)\/(\d+)\.png$/.exec(tile.src)!.slice(1).map(Number);
        expect(tx).toBeLessThan(2 ** 19);
        let middle = tx * 256 - tile.left;
        // Across the antimeridian a tile's x is wrapped: the column drawn east of the last one is 0, a world further.
        if (x(bounds.west) - middle > world / 2) middle += world;
        expect(x(bounds.west) - middle).toBeCloseTo(cell!.left, 1);
        expect(y(bounds.north) - (ty * 256 - tile.top)).toBeCloseTo(cell!.top, 1);
      }
    }
  });

  it('online, draws OpenStreetMap’s tiles with their referrer policy, and credits OpenStreetMap', async () => {
    const response = await service.request({ url: '/FR-0RMB-CLY0' });
    const { tiles } = mapOf(response.body);
    expect(tiles.length).toBeGreaterThanOrEqual(8);
    for (const tile of tiles) {
      expect(tile.src).toMatch(/^https:\/\/tile\.openstreetmap\.org\/19\/\d+\/\d+\.png$/);
      expect(tile.referrerPolicy).toBe('strict-origin');
    }
    expect(response.body).toContain('<figcaption class="map-attribution">&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors</figcaption>');
    const policy = directives(response.headers['content-security-policy'] as string);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'https://tile.openstreetmap.org']);
    expect(policy['frame-src']).toEqual(["'none'"]);
  });

  it('online, draws the operator’s own streets tiles: its template, subdomains, attribution and no referrer', async () => {
    const custom = await testService({
      LOC_TILES_STREETS_URL: 'https://{s}.tiles.example/streets/{z}/{x}/{y}.png',
      LOC_TILES_STREETS_ATTRIBUTION: '&copy; Tiles Example',
    });
    try {
      const response = await custom.request({ url: '/FR-0RMB-CLY0' });
      const { tiles } = mapOf(response.body);
      expect(tiles.length).toBeGreaterThanOrEqual(8);
      for (const tile of tiles) {
        const [s, x, y] = /^https:\/\/([abc])\.tiles\.example\/streets\/19\/(\d+)\/(\d+)\.png$/.exec(tile.src)!.slice(1);
        expect(s).toBe('abc'[(Number(x) + Number(y)) % 3]);
        expect(tile.referrerPolicy).toBe('no-referrer');
      }
      expect(response.body).toContain('<figcaption class="map-attribution">&copy; Tiles Example</figcaption>');
      expect(response.body).not.toContain('tile.openstreetmap.org');
      expect(directives(response.headers['content-security-policy'] as string)['img-src'])
        .toEqual(["'self'", 'data:', 'https://a.tiles.example', 'https://b.tiles.example', 'https://c.tiles.example']);
    } finally {
      await custom.close();
    }
  });
});

describe('service routes', () => {
  it('serves the icon the pages link to, and sends /favicon.ico to it', async () => {
    const docs = await service.request({ url: '/docs' });
    const share = await service.request({ url: '/FR-0RMB-CLY0' });
    for (const html of [docs.body, share.body]) expect(html).toContain('<link rel="icon" href="favicon.svg" type="image/svg+xml">');
    const icon = await service.request({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['x-content-type-options']).toBe('nosniff');
    expect(icon.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^]*<\/svg>$/);
    const ico = await service.request({ url: '/favicon.ico' });
    expect({ status: ico.statusCode, location: ico.headers.location }).toEqual({ status: 301, location: 'favicon.svg' });
  });

  it('/healthz answers ok with the version', async () => {
    const response = await service.request({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ success: true, status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('/openapi.json describes every endpoint from the route schemas, errors included', async () => {
    const doc = json<{ openapi: string; paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> }>(
      await service.request({ url: '/openapi.json' }),
    );
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).sort()).toEqual(['/embed/session/{sid}', '/healthz', '/livez', '/readyz', '/v1/embed/resolve', '/v1/embed/sessions', '/v1/loc/generate', '/v1/loc/grid', '/v1/loc/lookup/{code}', '/v1/loc/search', '/v1/loc/suggest']);
    const sessions = doc.paths['/v1/embed/sessions'].post.responses;
    expect(Object.keys(sessions).sort()).toEqual(['200', '400', '401', '403', '413', '415', '422', '429', '503', 'default']);
    expect(sessions['403'].description).toContain('`partner_required`');
    // What any route may answer beyond its own statuses: in the response of its status when the route
    // declares that status (OpenAPI's `default` covers only the others), else in `default`.
    expect(sessions['400'].description).toBe('`invalid_json`, `bad_request`');
    expect(sessions.default.description).toBe('Any other refusal or failure, in the same shape: 408 `request_timeout`, 417 `expectation_failed`, 431 `headers_too_large`, 500 `internal_error`.');
    expect(doc.paths['/healthz'].get.responses.default.description).toMatch(/^Any other refusal or failure, in the same shape: 400 `bad_request`, 408 .*500 `internal_error`\.$/);
    expect(sessions['503'].description).toBe('`service_unavailable`');
    expect(doc.paths['/v1/loc/lookup/{code}'].get.responses['404'].description).toBe('`code_not_found`');
  });

  it('/openapi.json describes what every success response is and each of its fields, nested ones included', async () => {
    interface Schema { description?: string; properties?: Record<string, Schema> }
    const doc = json<{ paths: Record<string, Record<string, { responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }> }>> }>(
      await service.request({ url: '/openapi.json' }),
    );
    const undescribed = (schema: Schema, at: string): string[] =>
      Object.entries(schema.properties ?? {}).flatMap(([name, field]) => [...(field.description ? [] : [`${at}.${name}`]), ...undescribed(field, `${at}.${name}`)]);
    const missing: string[] = [];
    let successes = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const ok = operation.responses['200'];
        successes++;
        if (!ok.description || ok.description === 'Default Response') missing.push(`${method} ${path} 200`);
        missing.push(...undescribed(ok.content!['application/json'].schema, `${method} ${path} 200`));
      }
    }
    expect(successes).toBe(11);
    expect(missing).toEqual([]);
  });

  it('/docs renders the reference from the same document', async () => {
    const response = await service.request({ url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<span class="method">POST</span> <code>/v1/embed/sessions</code>');
    expect(response.body).toContain('<td><code>ttl</code></td><td>integer</td><td>no</td><td>60 to 3600; default 900</td>');
    for (const code of Object.keys(ERROR_CATALOGUE).filter((c) => ERROR_CATALOGUE[c as keyof typeof ERROR_CATALOGUE].status !== null)) {
      expect(response.body).toContain(`<td><code>${code}</code></td>`);
    }
  });

  it('/docs and /openapi.json lead integrators to the guides and the types, which the service serves; operators’ docs stay out', async () => {
    const docs = (await service.request({ url: '/docs' })).body;
    expect(docs).toContain('<a href="/docs/embed.md">the embed guide</a>');
    expect(docs).toContain('<a href="/embed/v1/loc-embed.d.ts">/embed/v1/loc-embed.d.ts</a>');
    expect(docs).toContain('<code>loc-js</code>');
    const document = json<{ externalDocs: { url: string; description: string }; tags: { name: string; externalDocs?: { url: string } }[] }>(await service.request({ url: '/openapi.json' }));
    expect(document.externalDocs.url).toBe('https://loc.example/docs/embed.md');
    expect(document.externalDocs.description).toContain('https://loc.example/embed/v1/loc-embed.d.ts');
    expect(document.tags.find((tag) => tag.name === 'embed')?.externalDocs?.url).toBe('https://loc.example/docs/embed.md');

    expect(docs).toContain('<a href="/docs/quickstart.md">The quick start</a>');
    expect(docs).toContain('<a href="/docs/testing-your-integration.md">the testing guide</a>');
    for (const file of ['quickstart.md', 'embed.md', 'testing-your-integration.md']) {
      const guide = await service.request({ url: `/docs/${file}` });
      expect(guide.statusCode).toBe(200);
      expect(guide.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(guide.headers['content-security-policy']).toBe("default-src 'none'");
      expect(guide.body).toBe(readFileSync(new URL(`../../../docs/${file}`, import.meta.url), 'utf8'));
    }
    expect((await service.request({ url: '/docs/operations.md' })).statusCode).toBe(404);
    const types = await service.request({ url: '/embed/v1/loc-embed.d.ts' });
    expect(types.statusCode).toBe(200);
    expect(types.body).toContain('export interface LocMountOptions');
  });

  it('/ sends people to the docs', async () => {
    const response = await service.request({ url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/docs');
  });
});
