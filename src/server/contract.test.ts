/**
 * The published contract's error table and the statuses of its endpoints, one test per row: each
 * status and code the contract names, produced by the real service, with its error body.
 */
import { describe, expect, it } from 'vitest';
import { fileService, json } from '../../test/support/service.ts';

const service = fileService();

const SAUSALITO = { lat: 37.8591, lng: -122.4853 };

/** Asserts the contract's error body and returns it. */
function expectError(response: { statusCode: number; body: string }, status: number, code: string): Record<string, unknown> {
  const body = json(response);
  expect({ status: response.statusCode, code: body.code }).toEqual({ status, code });
  expect(body.success).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.error).toBe(body.message);
  return body;
}

describe('the error table: every status and code', () => {
  it('400: malformed code in lookup', async () => {
    const response = await service.request({ url: '/v1/loc/lookup/not-a-code', headers: { 'x-api-key': service.secret } });
    expectError(response, 400, 'invalid_code');
  });

  it('401: key missing', async () => {
    expectError(await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L' }), 401, 'missing_api_key');
  });

  it('401: key invalid', async () => {
    const response = await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': `loc_${'A'.repeat(43)}` } });
    expectError(response, 401, 'invalid_api_key');
  });

  it('401 key_inactive: key disabled', async () => {
    const { key, secret: disabled } = await service.key('acme');
    await service.app.store.setKeyStatus(key.id, 'disabled');
    const response = await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': disabled } });
    expectError(response, 401, 'key_inactive');
  });

  it('403 partner_required: caller not a partner', async () => {
    const { secret: plain } = await service.key('plain', { partner: false });
    const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': plain }, payload: { origin: 'https://shop.example' } });
    expectError(response, 403, 'partner_required');
  });

  it('403 origin_not_allowed: origin not registered for the key', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://other.example' } });
    expectError(response, 403, 'origin_not_allowed');
  });

  it('403 ip_not_allowed: IP address not allowed for the key', async () => {
    const { secret: fenced } = await service.key('acme', { ipRanges: ['203.0.113.0/24'] });
    const response = await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': fenced } });
    expectError(response, 403, 'ip_not_allowed');
  });

  it('404: well-formed code not found in lookup', async () => {
    const response = await service.request({ url: '/v1/loc/lookup/ZZ-0000-0000', headers: { 'x-api-key': service.secret } });
    expectError(response, 404, 'code_not_found');
  });

  it('422: session request with origin missing', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { ttl: 900 } });
    expect(expectError(response, 422, 'validation_error').field).toBe('origin');
  });

  it('422: session request with an invalid origin', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'shop.example' } });
    expect(expectError(response, 422, 'validation_error').field).toBe('origin');
  });

  it('422: session request with ttl outside 60 to 3600', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example', ttl: 7200 } });
    expect(expectError(response, 422, 'validation_error').field).toBe('ttl');
  });

  it('422: invalid coordinates', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': service.secret }, payload: { latitude: 91, longitude: 0 } });
    expect(expectError(response, 422, 'validation_error').message).toBe('latitude must be from -90 to 90, received 91.');
  });

  it('422 unsupported_location: point outside supported countries', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { 'x-api-key': service.secret }, payload: { lat: 0, lng: -30 } });
    expectError(response, 422, 'unsupported_location');
  });

  it('429 rate_limited: hourly limit exceeded on lookup, with Retry-After', async () => {
    const { secret: small } = await service.key('acme', { hourlyLimit: 1 });
    const headers = { 'x-api-key': small };
    expect((await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers })).statusCode).toBe(200);
    const response = await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers });
    expectError(response, 429, 'rate_limited');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('401 session_expired: embed session no longer valid', async () => {
    const created = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example', ttl: 60 } });
    const token = json(created).session_token as string;
    service.clock.advance(60_000);
    const response = await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${token}` }, payload: { ...SAUSALITO, save: false } });
    expectError(response, 401, 'session_expired');
    service.clock.advance(-60_000);
  });
});

describe('the success shapes of every endpoint', () => {
  it('4.1 create embed session: session_token, expires_at, embed_url', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example' } });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body).toEqual({ success: true, session_token: expect.any(String), expires_at: expect.any(String), embed_url: expect.any(String) });
    const [sid] = (body.session_token as string).split('.');
    expect(body.embed_url).toBe(`https://loc.example/embed/frame/${sid}`);
  });

  it('4.2 resolve: the cell centre, its bounds, address, country, saved, share_url', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { 'x-api-key': service.secret }, payload: { ...SAUSALITO, save: false } });
    expect(json(response)).toEqual({
      success: true,
      loc_code: 'US-550M-RQ5L',
      latitude: expect.closeTo(37.859107, 6),
      longitude: expect.closeTo(-122.485315, 6),
      address: 'near Sausalito, United States',
      country_code: 'US',
      cell: { north: expect.any(Number), south: expect.any(Number), east: expect.any(Number), west: expect.any(Number) },
      saved: false,
      share_url: 'https://loc.example/US-550M-RQ5L',
    });
  });

  it('4.3 generate: the same code twice, the second time is_existing', async () => {
    const payload = { latitude: 48.8584, longitude: 2.2945, label: 'Tower' };
    const first = json(await service.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': service.secret }, payload }));
    const second = json(await service.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': service.secret }, payload }));
    expect(first).toMatchObject({ success: true, is_existing: false, label: 'Tower', country_code: 'FR' });
    expect(second).toEqual({ ...first, is_existing: true });
  });

  it('4.4 lookup: loc_code, location, maps, share_url', async () => {
    const body = json(await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': service.secret } }));
    expect(body).toMatchObject({
      success: true,
      loc_code: 'US-550M-RQ5L',
      location: { address: 'near Sausalito, United States', label: null, country_code: 'US', country_flag: '🇺🇸' },
      maps: { google: expect.stringContaining('google.com/maps'), apple: expect.stringContaining('maps.apple.com'), openstreetmap: expect.stringContaining('openstreetmap.org'), geo: expect.stringMatching(/^geo:37\.85910\d,-122\.48531\d/) },
      share_url: 'https://loc.example/US-550M-RQ5L',
    });
  });
});
