/** The pages and service routes: the share page and its 404, /healthz, /openapi.json and /docs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../code/index.ts';
import { ERROR_CATALOGUE } from '../../errors.ts';
import { json, testService, type TestService } from '../testing.ts';

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
    expect(html).toMatch(/<iframe class="map" title="Map of US-550M-RQ5L" src="https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?bbox=[-\d.,]+&amp;layer=mapnik&amp;marker=37\.859107,-122\.485315"/);
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
    expect(csp).toContain('frame-src https://www.openstreetmap.org');
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
    const other = await service.request({ url: '/favicon.ico' });
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

  it('escapes what it echoes', async () => {
    const response = await service.request({ url: `/${encodeURIComponent('<script>alert(1)</script>')}` });
    expect(response.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response.body).not.toContain('<script>alert');
  });
});

describe('service routes', () => {
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
    expect(Object.keys(doc.paths).sort()).toEqual(['/embed/session/{sid}', '/healthz', '/v1/embed/resolve', '/v1/embed/sessions', '/v1/loc/generate', '/v1/loc/lookup/{code}']);
    const sessions = doc.paths['/v1/embed/sessions'].post.responses;
    expect(Object.keys(sessions).sort()).toEqual(['200', '400', '401', '403', '413', '415', '422', '429', '503']);
    expect(sessions['403'].description).toContain('`partner_required`');
    expect(sessions['503'].description).toBe('`service_unavailable`');
    expect(doc.paths['/v1/loc/lookup/{code}'].get.responses['404'].description).toBe('`code_not_found`');
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

  it('/ sends people to the docs', async () => {
    const response = await service.request({ url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/docs');
  });
});
