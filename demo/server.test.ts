import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildDemoServer, keyFromFile, type DemoOptions } from './server.ts';

const KEY = 'loc_dev_0123456789abcdef';
const SESSION = { session_token: 'sid_1.secret', expires_at: '2030-01-01T00:15:00.000Z', embed_url: 'http://localhost:8080/embed/frame/sid_1' };

function demo(options: Partial<DemoOptions> = {}) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(SESSION), { status: 201, headers: { 'content-type': 'application/json' } }));
  const base = { apiUrl: 'http://localhost:8080', publicApiUrl: 'http://localhost:8080', origin: 'http://localhost:5173', apiKey: KEY, fetch: fetchMock as typeof fetch };
  return { fetchMock, app: buildDemoServer({ ...base, ...options }) };
}

describe('the demo server', () => {
  it('creates a session at the API with the key, for the demo origin, and returns only the session', async () => {
    const { app, fetchMock } = demo();
    const response = await (await app).inject({ method: 'POST', url: '/api/session', payload: { ttl: 60 } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual(SESSION);
    expect(response.body).not.toContain(KEY);
    expect(JSON.stringify(response.headers)).not.toContain(KEY);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://localhost:8080/v1/embed/sessions');
    expect(new Headers(init.headers).get('x-api-key')).toBe(KEY);
    expect(JSON.parse(init.body as string)).toEqual({ origin: 'http://localhost:5173', ttl: 60 });
  });

  it('leaves the lifetime to the API when the page names none', async () => {
    const { app, fetchMock } = demo();
    await (await app).inject({ method: 'POST', url: '/api/session' });
    expect(JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({ origin: 'http://localhost:5173' });
  });

  it('forwards the area the page asked for, and nothing else of its request', async () => {
    const { app, fetchMock } = demo();
    const area = { countries: ['FR', 'BE'], bounds: { south: 48, west: 1, north: 51, east: 5 } };
    const response = await (await app).inject({ method: 'POST', url: '/api/session', payload: { ...area, origin: 'https://evil.example', key: 'x' } });
    expect(response.statusCode).toBe(201);
    const sent = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string;
    expect(JSON.parse(sent)).toEqual({ origin: 'http://localhost:5173', ...area });
    // Values are the API's to judge: a lower-case code or a box with an edge missing go as they are.
    await (await app).inject({ method: 'POST', url: '/api/session', payload: { countries: ['fr'], bounds: { south: 48 } } });
    expect(JSON.parse((fetchMock.mock.calls[1] as unknown as [string, RequestInit])[1].body as string)).toEqual({ origin: 'http://localhost:5173', countries: ['fr'], bounds: { south: 48 } });
  });

  it('refuses an area of another shape, without calling the API', async () => {
    const { app, fetchMock } = demo();
    for (const payload of [{ countries: 'FR,BE' }, { countries: [1] }, { countries: { 0: 'FR' } }, { bounds: [48, 1, 51, 5] }, { bounds: { south: '48' } }, { bounds: null }]) {
      const response = await (await app).inject({ method: 'POST', url: '/api/session', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'validation_error', message: expect.stringMatching(/^(countries|bounds) must be /) });
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('passes the API’s refusal of an area on, for the page to show', async () => {
    const error = { success: false, code: 'validation_error', message: 'countries.0 must be …', field: 'countries.0' };
    const { app } = demo({ fetch: (async () => new Response(JSON.stringify(error), { status: 422 })) as typeof fetch });
    const response = await (await app).inject({ method: 'POST', url: '/api/session', payload: { countries: ['fr'] } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(error);
  });

  it('passes the API’s errors on', async () => {
    const error = { success: false, code: 'origin_not_allowed', message: 'The origin is not registered for this API key.' };
    const { app } = demo({ fetch: (async () => new Response(JSON.stringify(error), { status: 403 })) as typeof fetch });
    const response = await (await app).inject({ method: 'POST', url: '/api/session', payload: { ttl: 60 } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(error);
  });

  it('says so when the API cannot be reached, or there is no key', async () => {
    const down = demo({ fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as typeof fetch });
    const unreachable = await (await down.app).inject({ method: 'POST', url: '/api/session' });
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json().message).toMatch(/cannot be reached .* Is it running\?/);
    const keyless = demo({ apiKey: undefined });
    const noKey = await (await keyless.app).inject({ method: 'POST', url: '/api/session' });
    expect(noKey.statusCode).toBe(503);
    expect(noKey.json().message).toContain('LOC_DEMO_KEY_FILE');
    expect(keyless.fetchMock).not.toHaveBeenCalled();
  });

  it('reads the key from a file once the service has written it', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'loc-demo-')), 'dev-key');
    const { app, fetchMock } = demo({ apiKey: undefined, keyFile });
    const server = await app;
    expect((await server.inject({ method: 'POST', url: '/api/session' })).statusCode).toBe(503);
    writeFileSync(keyFile, `${KEY}\n`);
    expect((await server.inject({ method: 'POST', url: '/api/session' })).statusCode).toBe(201);
    expect(new Headers((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers).get('x-api-key')).toBe(KEY);
  });

  it('takes a key file as plain text or JSON', () => {
    expect(keyFromFile(`  ${KEY}\n`)).toBe(KEY);
    expect(keyFromFile(JSON.stringify({ account: 'dev', key: KEY }))).toBe(KEY);
    expect(keyFromFile('')).toBeUndefined();
  });

  it('escapes the service’s URL where it writes it into the page', async () => {
    const { app } = demo({ publicApiUrl: 'https://loc.example/a&b"<i>' });
    const page = (await (await app).inject('/')).body;
    expect(page).toContain('<script src="https://loc.example/a&amp;b&quot;&lt;i&gt;/embed/loc-embed.js"></script>');
    expect(page).toContain('data-api-url="https://loc.example/a&amp;b&quot;&lt;i&gt;"');
  });

  it('serves the page with the service’s script and the CSP an integrator needs, and never the key', async () => {
    const { app } = demo({ publicApiUrl: 'https://loc.example' });
    const response = await (await app).inject('/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<script src="https://loc.example/embed/loc-embed.js"></script>');
    expect(response.body).not.toContain(KEY);
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://loc.example");
    expect(csp).toContain('frame-src https://loc.example');
    expect(csp).toContain("connect-src 'self' https://loc.example");
    expect((await (await app).inject('/demo.js')).statusCode).toBe(200);
    expect((await (await app).inject('/demo.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });
});
