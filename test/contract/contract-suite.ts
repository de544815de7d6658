/**
 * The HTTP contract as an integrator meets it, written once and run against each server that claims
 * it: `loc serve` (loc-serve.test.ts) and `loc mock` (loc-mock.test.ts), both as child processes,
 * over plain HTTP. What either answers differently from the other fails one of the two runs, so the
 * mock cannot drift from the service.
 *
 * The target's key is a test key whose partner account allows `origin`: every answer is then the
 * same on both, addresses included (test keys get the offline ones).
 */
import { describe, expect, it } from 'vitest';

export interface ContractTarget {
  /** Where the server listens. */
  baseUrl: string;
  /** Its public URL: the base of `share_url` and `embed_url`. */
  publicUrl: string;
  /** A `loc_test_` key of a partner account. */
  key: string;
  /** A page origin the key may create sessions for. */
  origin: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

const SAUSALITO = { lat: 37.8591, lng: -122.4853 };
const EIFFEL_TOWER = { latitude: 48.8584, longitude: 2.2945 };
const AT_SEA = { lat: 0, lng: -30 };
const ANTARCTICA = { lat: -80, lng: 0 };
/** The cell of SAUSALITO, as its offline address and code. */
const SAUSALITO_CELL = { loc_code: 'US-550M-RQ5L', address: 'near Sausalito, United States', country_code: 'US' };

/** Registers the contract's tests; `target` is read once the suite's server has started. */
export function contractSuite(target: () => ContractTarget): void {
  async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {}): Promise<Answer> {
    const { baseUrl } = target();
    const payload = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    const response = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? (payload === undefined ? 'GET' : 'POST'),
      headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: payload,
    });
    const text = await response.text();
    let body: Record<string, unknown> = {};
    if (response.headers.get('content-type')?.startsWith('application/json')) body = JSON.parse(text) as Record<string, unknown>;
    return { status: response.status, headers: response.headers, body, text };
  }
  const withKey = (extra: Record<string, string> = {}) => ({ 'x-api-key': target().key, ...extra });

  async function newSession(ttl?: number, area: Record<string, unknown> = {}): Promise<{ token: string; sid: string; answer: Answer }> {
    const answer = await call('/v1/embed/sessions', { headers: withKey(), body: { origin: target().origin, ...(ttl === undefined ? {} : { ttl }), ...area } });
    expect(answer.status).toBe(200);
    const token = answer.body.session_token as string;
    return { token, sid: token.slice(0, token.indexOf('.')), answer };
  }

  /** The contract's error body, in JSON, with the status and code given; returns the body. */
  function expectError(answer: Answer, status: number, code: string): Record<string, unknown> {
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.body.success).toBe(false);
    expect(typeof answer.body.message).toBe('string');
    expect(answer.body.error).toBe(answer.body.message);
    return answer.body;
  }

  describe('embed sessions and the embed', () => {
    it('creates a session: session_token, expires_at (ttl from now), embed_url; JSON, not cached', async () => {
      const before = Date.now();
      const { answer, sid } = await newSession(600);
      expect(answer.body).toEqual({ success: true, session_token: expect.stringMatching(/^[\w-]+\.[\w-]{43,}$/), expires_at: expect.any(String), embed_url: `${target().publicUrl}/embed/frame/${sid}` });
      const expires = Date.parse(answer.body.expires_at as string);
      expect(expires).toBeGreaterThanOrEqual(before + 600_000 - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 600_000 + 1000);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });

    it('resolves a map click with the session token: the cell, its centre and bounds, the offline address, share_url', async () => {
      const { token } = await newSession();
      const answer = await call('/v1/embed/resolve', { headers: { authorization: `Bearer ${token}`, origin: target().origin }, body: { ...SAUSALITO, save: false } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        success: true, ...SAUSALITO_CELL, latitude: expect.closeTo(37.859107, 6), longitude: expect.closeTo(-122.485315, 6),
        cell: { north: expect.any(Number), south: expect.any(Number), east: expect.any(Number), west: expect.any(Number) },
        saved: false, share_url: `${target().publicUrl}/US-550M-RQ5L`,
      });
      const cell = answer.body.cell as Record<string, number>;
      expect(cell.south).toBeLessThan(SAUSALITO.lat);
      expect(cell.north).toBeGreaterThan(SAUSALITO.lat);
      expect(cell.west).toBeLessThan(SAUSALITO.lng);
      expect(cell.east).toBeGreaterThan(SAUSALITO.lng);
      expect(Number(answer.headers.get('ratelimit-remaining'))).toBeGreaterThan(0);
    });

    it('serves the session frame, framed only by the session origin; and the session facts to any page (CORS)', async () => {
      const { sid, token } = await newSession();
      const frame = await call(`/embed/frame/${sid}`);
      expect(frame.status).toBe(200);
      expect(frame.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(frame.headers.get('content-security-policy')).toContain(`frame-ancestors ${target().origin}`);
      const facts = await call(`/embed/session/${sid}`, { headers: { authorization: `Bearer ${token}` } });
      expect(facts.status).toBe(200);
      expect(facts.body).toEqual({ origin: target().origin, expires_at: expect.any(String) });
      expect(facts.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('serves the loader script to any page (CORS), evergreen under /embed/v1/ too', async () => {
      for (const path of ['/embed/loc-embed.js', '/embed/v1/loc-embed.js']) {
        const script = await call(path);
        expect(script.status).toBe(200);
        expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
        expect(script.headers.get('access-control-allow-origin')).toBe('*');
        expect(script.text).toContain('LOC');
      }
    });

    it('401 invalid_session for a token the service never issued', async () => {
      const answer = await call('/v1/embed/resolve', { headers: { authorization: `Bearer s_unknownSession.${'A'.repeat(43)}` }, body: { ...SAUSALITO, save: false } });
      expectError(answer, 401, 'invalid_session');
    });
  });

  describe('areas per session', () => {
    /** Around Paris: Sausalito is outside it, the Eiffel Tower inside. */
    const AREA = { countries: ['FR', 'BE'], bounds: { south: 48, west: 1, north: 51, east: 5 } };
    const paris = { lat: EIFFEL_TOWER.latitude, lng: EIFFEL_TOWER.longitude };

    it('creates a session with countries and bounds, echoed; resolves inside them by point and by code', async () => {
      const { token, answer } = await newSession(undefined, AREA);
      expect(answer.body).toMatchObject(AREA);
      const headers = { authorization: `Bearer ${token}` };
      for (const body of [{ ...paris, save: false }, { code: 'FR-0RMB-CLY0', save: false }]) {
        const inside = await call('/v1/embed/resolve', { headers, body });
        expect(inside.status).toBe(200);
        expect(inside.body).toMatchObject({ success: true, loc_code: 'FR-0RMB-CLY0', country_code: 'FR', saved: false });
      }
    });

    it('422 outside_session_area for a point or a code outside, saved or not, with the session token only', async () => {
      const { token } = await newSession(undefined, AREA);
      const headers = { authorization: `Bearer ${token}` };
      for (const body of [{ ...SAUSALITO, save: false }, { ...SAUSALITO, save: true }, { code: 'US-550M-RQ5L', save: true }]) {
        const refused = expectError(await call('/v1/embed/resolve', { headers, body }), 422, 'outside_session_area');
        expect(refused.message).toContain('United States (US), not in the countries this embed session allows');
      }
      // The key is limited by no session's area.
      expect((await call('/v1/embed/resolve', { headers: withKey(), body: { ...SAUSALITO, save: false } })).status).toBe(200);
    });

    it('422 validation_error naming the field of a bad area', async () => {
      const bad = async (area: Record<string, unknown>) =>
        expectError(await call('/v1/embed/sessions', { headers: withKey(), body: { origin: target().origin, ...area } }), 422, 'validation_error').field;
      expect(await bad({ countries: [] })).toBe('countries');
      expect(await bad({ countries: ['FR', 'ZZ'] })).toBe('countries.1');
      expect(await bad({ bounds: { ...AREA.bounds, south: 52 } })).toBe('bounds.north');
      expect(await bad({ bounds: { ...AREA.bounds, east: 200 } })).toBe('bounds.east');
    });
  });

  describe('typed codes', () => {
    it('suggests the codes one slip away from a typed code, with the key and with a session, nearest the focus first', async () => {
      const { token } = await newSession();
      // O for 0 in the block: not a cell; the look-alike is the Eiffel Tower's.
      for (const headers of [withKey(), { authorization: `Bearer ${token}` }]) {
        const answer = await call('/v1/loc/suggest?input=fr-ormb-cly0&focus=48.8584,2.2945', { headers });
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ success: true, exact: null });
        expect((answer.body.suggestions as { loc_code: string }[])[0]).toMatchObject({ loc_code: 'FR-0RMB-CLY0' });
      }
      expectError(await call('/v1/loc/suggest?input=hello', { headers: withKey() }), 400, 'invalid_code');
      expectError(await call('/v1/loc/suggest?input=FR-0RMB-CLY0&countries=ZZ', { headers: withKey() }), 422, 'validation_error');
    });

    it('searches places, coordinates and codes as a visitor types them, with the key and with a session', async () => {
      const { token } = await newSession();
      for (const headers of [withKey(), { authorization: `Bearer ${token}` }]) {
        const search = async (q: string) => {
          const answer = await call(`/v1/loc/search?q=${encodeURIComponent(q)}&focus=45.7640,4.8357`, { headers });
          expect(answer.status).toBe(200);
          return answer.body as { kind: string; results: Record<string, unknown>[] };
        };
        const places = await search('sainte-foy-les');
        expect(places.kind).toBe('places');
        expect(places.results[0]).toMatchObject({ name: 'Sainte-Foy-lès-Lyon', country_code: 'FR', source: 'places' });
        expect(await search('48°51\'30.2"N 2°17\'40.2"E')).toMatchObject({ kind: 'coordinates', results: [{ latitude: expect.closeTo(48.8584, 4), longitude: expect.closeTo(2.2945, 4), swapped: false }] });
        expect((await search('fr-0rmb-cly0')).results[0]).toMatchObject({ loc_code: 'FR-0RMB-CLY0', match: 'exact' });
      }
      expectError(await call('/v1/loc/search?q=%20', { headers: withKey() }), 422, 'validation_error');
    });
  });

  describe('the grid', () => {
    it('draws the grid of a box as GeoJSON, its cells with their codes or its lines, with the key and with a session', async () => {
      const { token } = await newSession();
      for (const headers of [withKey(), { authorization: `Bearer ${token}` }]) {
        const cells = await call('/v1/loc/grid?bbox=2.29451,48.85838,2.29455,48.85839&kind=cells', { headers });
        expect(cells.status).toBe(200);
        expect(cells.body).toMatchObject({ success: true, kind: 'cells', type: 'FeatureCollection' });
        expect((cells.body.features as { properties: unknown }[]).map(({ properties }) => properties)).toEqual([
          { loc_code: 'FR-0RMB-CLY0', country_code: 'FR' },
          { loc_code: 'FR-0RMB-CLY1', country_code: 'FR' },
        ]);
        const lines = await call('/v1/loc/grid?bbox=2.2945,48.85836,2.29458,48.85842', { headers });
        expect((lines.body.features as { properties: unknown }[]).map(({ properties }) => properties)).toEqual([
          { edges: 'rows' },
          { edges: 'columns', band: 3971, columns: 8781074 },
        ]);
      }
      expect(expectError(await call('/v1/loc/grid?bbox=2.29,48.85,2.30,48.86&kind=cells', { headers: withKey() }), 422, 'validation_error').field).toBe('bbox');
    });
  });

  describe('generate, lookup and resolve with the key', () => {
    it('resolves a point with the key, the same cell as with a session', async () => {
      const answer = await call('/v1/embed/resolve', { headers: withKey(), body: { ...SAUSALITO, save: false } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: true, ...SAUSALITO_CELL, saved: false, share_url: `${target().publicUrl}/US-550M-RQ5L` });
      // The API sends no CORS headers: it is called from servers, never from pages.
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('generates a code: the same code twice, the second time is_existing', async () => {
      const body = { ...EIFFEL_TOWER, label: 'Tower', address: 'Champ de Mars' };
      const first = await call('/v1/loc/generate', { headers: withKey(), body });
      const second = await call('/v1/loc/generate', { headers: withKey(), body });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true, loc_code: 'FR-0RMB-CLY0', is_existing: false, share_url: `${target().publicUrl}/FR-0RMB-CLY0`,
        latitude: expect.closeTo(48.858389, 6), longitude: expect.closeTo(2.294514, 6), address: 'Champ de Mars', label: 'Tower', country_code: 'FR',
      });
      expect(second.body).toEqual({ ...first.body, is_existing: true });
    });

    it('looks a code up: location (with what the key saved), maps, share_url', async () => {
      await call('/v1/loc/generate', { headers: withKey(), body: { ...EIFFEL_TOWER, label: 'Tower', address: 'Champ de Mars' } });
      const answer = await call('/v1/loc/lookup/fr0rmbcly0', { headers: withKey() });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        success: true, loc_code: 'FR-0RMB-CLY0',
        location: { latitude: expect.closeTo(48.858389, 6), longitude: expect.closeTo(2.294514, 6), address: 'Champ de Mars', label: 'Tower', country_code: 'FR', country_flag: '🇫🇷' },
        maps: { google: expect.stringContaining('google.com/maps'), apple: expect.stringContaining('maps.apple.com'), openstreetmap: expect.stringContaining('openstreetmap.org'), geo: expect.stringMatching(/^geo:48\.85838/) },
        share_url: `${target().publicUrl}/FR-0RMB-CLY0`,
      });
    });
  });

  describe('the error rows an integrator can meet', () => {
    it('401 missing_api_key without a key', async () => {
      expectError(await call('/v1/loc/lookup/US-550M-RQ5L'), 401, 'missing_api_key');
      expectError(await call('/v1/embed/sessions', { body: { origin: target().origin } }), 401, 'missing_api_key');
    });

    it('401 invalid_api_key for what is not a key, and for a live key the server does not know', async () => {
      expectError(await call('/v1/loc/lookup/US-550M-RQ5L', { headers: { 'x-api-key': 'not-a-key' } }), 401, 'invalid_api_key');
      expectError(await call('/v1/loc/lookup/US-550M-RQ5L', { headers: { 'x-api-key': `loc_${'A'.repeat(43)}` } }), 401, 'invalid_api_key');
    });

    it('400 invalid_code for a malformed code, 404 code_not_found for a well-formed code of no cell', async () => {
      expectError(await call('/v1/loc/lookup/not-a-code', { headers: withKey() }), 400, 'invalid_code');
      expectError(await call('/v1/loc/lookup/ZZ-0000-0000', { headers: withKey() }), 404, 'code_not_found');
    });

    it('422 validation_error naming the field: coordinates out of range, a missing or bad origin, a ttl out of range', async () => {
      const latitude = expectError(await call('/v1/loc/generate', { headers: withKey(), body: { latitude: 91, longitude: 0 } }), 422, 'validation_error');
      expect(latitude).toMatchObject({ field: 'latitude', message: 'latitude must be from -90 to 90, received 91.' });
      expect(expectError(await call('/v1/embed/resolve', { headers: withKey(), body: { lat: 0 } }), 422, 'validation_error').field).toBe('lng');
      expect(expectError(await call('/v1/embed/sessions', { headers: withKey(), body: { ttl: 900 } }), 422, 'validation_error').field).toBe('origin');
      expect(expectError(await call('/v1/embed/sessions', { headers: withKey(), body: { origin: 'localhost:3000' } }), 422, 'validation_error').field).toBe('origin');
      expect(expectError(await call('/v1/embed/sessions', { headers: withKey(), body: { origin: target().origin, ttl: 7200 } }), 422, 'validation_error').field).toBe('ttl');
    });

    it('400 invalid_json for a body that is not JSON', async () => {
      expectError(await call('/v1/loc/generate', { headers: withKey(), raw: '{"latitude": 48.8' }), 400, 'invalid_json');
    });

    it('403 origin_not_allowed: a session for another site, and the key sent from another site’s page', async () => {
      const session = expectError(await call('/v1/embed/sessions', { headers: withKey(), body: { origin: 'https://other.example' } }), 403, 'origin_not_allowed');
      expect(session.field).toBe('origin');
      expectError(await call('/v1/loc/lookup/US-550M-RQ5L', { headers: withKey({ origin: 'https://other.example' }) }), 403, 'origin_not_allowed');
    });

    it('422 unsupported_location for a point at sea or in Antarctica, by resolve and by generate', async () => {
      for (const point of [AT_SEA, ANTARCTICA]) {
        expectError(await call('/v1/embed/resolve', { headers: withKey(), body: { ...point, save: false } }), 422, 'unsupported_location');
        expectError(await call('/v1/loc/generate', { headers: withKey(), body: { latitude: point.lat, longitude: point.lng } }), 422, 'unsupported_location');
      }
      const { token } = await newSession();
      expectError(await call('/v1/embed/resolve', { headers: { authorization: `Bearer ${token}` }, body: { ...AT_SEA, save: true } }), 422, 'unsupported_location');
    });
  });
}
