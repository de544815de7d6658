// @vitest-environment jsdom
/**
 * `<loc-picker>`'s attributes as mount options, and its session from the integrator's endpoint: the
 * endpoint is the integrator's, so a test answers for it (fetch stubbed); the element in a real
 * browser is e2e/picker.spec.ts's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askSessionUrl, attributeOptions } from './picker-options.ts';

function element(attributes: Record<string, string>): Element {
  const picker = document.createElement('loc-picker');
  for (const [name, value] of Object.entries(attributes)) picker.setAttribute(name, value);
  return picker;
}

afterEach(() => vi.unstubAllGlobals());

describe('attributeOptions', () => {
  it('reads numbers, a point, the switches and the renamed options, and leaves out what is absent', () => {
    const options = attributeOptions(element({ height: '60vh', center: '48.8584, 2.2945', zoom: '17', 'map-style': 'satellite', search: 'false', confirm: '', 'map-title': 'Delivery point', 'load-timeout': '5000', locale: 'fr' }), undefined);
    expect(options).toEqual({ height: '60vh', center: [48.8584, 2.2945], zoom: 17, style: 'satellite', search: false, confirm: true, title: 'Delivery point', loadTimeout: 5000, locale: 'fr' });
    expect(attributeOptions(element({}), undefined)).toEqual({});
  });

  it('keeps text that is no number or point, for LOC.mount to name in its refusal', () => {
    expect(attributeOptions(element({ zoom: 'far', center: '48.8584', 'load-timeout': ' ' }), undefined)).toEqual({ zoom: 'far', center: '48.8584', loadTimeout: ' ' });
  });

  it('puts the theme attribute under the appearance property, whose own theme wins', () => {
    expect(attributeOptions(element({ theme: 'dark' }), undefined)).toEqual({ appearance: { theme: 'dark' } });
    const variables = { colorPrimary: '#0b57d0' };
    expect(attributeOptions(element({ theme: 'dark' }), { variables })).toEqual({ appearance: { theme: 'dark', variables } });
    expect(attributeOptions(element({ theme: 'dark' }), { theme: 'auto' })).toEqual({ appearance: { theme: 'auto' } });
  });
});

describe('askSessionUrl', () => {
  const answer = (status: number, body: string) => vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })));

  it('POSTs to the endpoint with the page’s cookies and takes the API’s session response as it is', async () => {
    answer(200, JSON.stringify({ session_token: 'sid.secret', expires_at: '2030-01-01T00:00:00Z', embed_url: 'https://loc.example/embed/frame/sid' }));
    await expect(askSessionUrl('/loc/session')).resolves.toBe('sid.secret');
    expect(fetch).toHaveBeenCalledWith('/loc/session', { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } });
  });

  it('takes a page’s own naming of it', async () => {
    answer(200, JSON.stringify({ sessionToken: 'sid.secret' }));
    await expect(askSessionUrl('/loc/session')).resolves.toBe('sid.secret');
  });

  it('names the endpoint and what it answered when it gives no token', async () => {
    answer(200, '<html>signed out</html>');
    await expect(askSessionUrl('/loc/session')).rejects.toThrow('<loc-picker>: POST /loc/session must answer 200 with JSON holding session_token (the API\'s session response, passed through) or sessionToken; it answered 200 without either.');
    answer(401, JSON.stringify({ session_token: 'sid.secret' }));
    await expect(askSessionUrl('/loc/session')).rejects.toThrow(/it answered 401\.$/);
  });
});
