import { JSDOM } from 'jsdom';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../iframe-app/config.ts';
import { hashSecret } from '../../auth/secrets.ts';
import { resolveStyles } from '../../tiles/styles.ts';
import { frameConfig, frameHeaders, renderFramePage, scriptSafeJson } from './frame-page.ts';

const styles = resolveStyles({ mode: 'online' }, 'https://loc.example');
const input = {
  apiBase: 'https://loc.example/',
  origin: 'https://shop.example',
  sid: 'sid_123',
  expiresAt: new Date('2030-01-01T00:15:00Z'),
  secretHash: hashSecret('the-session-secret'),
  now: new Date('2030-01-01T00:00:00Z'),
  styles,
};

describe('the frame page', () => {
  it('carries the config the frame reads, in canonical form', () => {
    const html = renderFramePage(input, 'abc123');
    const { document } = new JSDOM(html).window;
    expect(readConfig(document)).toEqual({
      apiBase: 'https://loc.example',
      origin: 'https://shop.example',
      sid: 'sid_123',
      expiresAt: '2030-01-01T00:15:00.000Z',
      now: '2030-01-01T00:00:00.000Z',
      styles,
      tokenCheck: createHash('sha256').update(hashSecret('the-session-secret')).digest('hex'),
    });
    // Neither the secret nor the hash the service stores.
    expect(html).not.toContain('the-session-secret');
    expect(html).not.toContain(hashSecret('the-session-secret'));
  });

  it('links the versioned script and styles below the API base', () => {
    const { document } = new JSDOM(renderFramePage(input, 'abc123')).window;
    expect(document.querySelector('script[src]')?.getAttribute('src')).toBe('https://loc.example/embed/frame.js?v=abc123');
    expect(document.querySelector('link[rel=stylesheet]')?.getAttribute('href')).toBe('https://loc.example/embed/frame.css?v=abc123');
  });

  it('cannot be broken out of by anything in the config', () => {
    const hostile = '</script><script>alert(1)</script><!-- \u2028 & "quoted"';
    const config = { ...input, sid: hostile, styles: { ...styles, streets: [{ ...styles.streets[0], attribution: hostile }] } };
    const html = renderFramePage(config);
    expect(html).not.toContain('<script>alert');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const { document } = new JSDOM(html).window;
    expect(document.querySelectorAll('script')).toHaveLength(2);
    const read = readConfig(document);
    expect(read.sid).toBe(hostile);
    expect(read.styles.streets[0].attribution).toBe(hostile);
  });

  it('escapes what HTML parsers or old engines would read in JSON', () => {
    expect(scriptSafeJson({ a: '</script>&<!--\u2028\u2029' })).toBe('{"a":"\\u003c/script\\u003e\\u0026\\u003c!--\\u2028\\u2029"}');
  });

  it('has labelled, accessible controls: a focusable map, a live region, buttons with text', () => {
    const { document } = new JSDOM(renderFramePage(input)).window;
    const map = document.getElementById('loc-map')!;
    expect(map.getAttribute('tabindex')).toBe('0');
    expect(document.getElementById(map.getAttribute('aria-describedby')!)?.textContent).toMatch(/Arrow keys/);
    expect(document.getElementById('loc-live')?.getAttribute('aria-live')).toBe('polite');
    for (const button of document.querySelectorAll('button')) expect(button.textContent?.trim()).not.toBe('');
  });

  it('fills in the service clock when the route gives none', () => {
    const before = Date.now();
    const config = frameConfig({ ...input, now: undefined });
    expect(Date.parse(config.now)).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe('the frame headers', () => {
  const headers = frameHeaders(frameConfig(input));
  const csp = Object.fromEntries(headers['content-security-policy'].split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

  it('let only the session’s origin embed the frame', () => {
    expect(csp['frame-ancestors']).toEqual(['https://shop.example']);
  });

  it('allow nothing by default, the service’s own script, styles and API, and the tile servers', () => {
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(['https://loc.example']);
    expect(csp['style-src']).toEqual(['https://loc.example']);
    expect(csp['connect-src']).toEqual(['https://loc.example']);
    expect(csp['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'https://loc.example', 'https://tile.openstreetmap.org', 'https://server.arcgisonline.com']));
    expect(csp['base-uri']).toEqual(["'none'"]);
    expect(csp['form-action']).toEqual(["'none'"]);
  });

  it('keep the frame URL from third parties and the page out of caches', () => {
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['permissions-policy']).toContain('geolocation=(self)');
  });

  it('allow only the service itself for images in offline mode', () => {
    const offline = frameHeaders(frameConfig({ ...input, styles: resolveStyles({ mode: 'offline' }, 'https://loc.example') }));
    expect(offline['content-security-policy']).toContain("img-src 'self' data: https://loc.example;");
  });

  it('refuse an origin that could smuggle in a directive', () => {
    for (const origin of ['https://shop.example; script-src *', 'https://shop.example/', '*', 'https://a.example https://b.example']) {
      expect(() => frameHeaders({ ...input, origin }), origin).toThrow(/must be a bare origin/);
    }
  });
});
