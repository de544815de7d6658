/**
 * Areas per session through the real service over SQLite: a session made with `countries` and/or
 * `bounds` keeps them, resolves and saves only cells inside them, by point and by code, and refuses
 * the rest with 422 `outside_session_area`; bad areas are 422 `validation_error` naming the field;
 * sessions without an area, and calls made with the key, are as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileService, json, testService, type TestService } from '../../test/support/service.ts';
import { countriesViewBox } from '../code/country-bounds.ts';
import { supportedCountries } from '../code/index.ts';
import { ISO_3166_1_CODES } from '../server/http/schemas.ts';
import { boundsHold, viewBounds } from './session-area.ts';

const service = fileService();
let accountId: string;

const PARIS = { lat: 48.8584, lng: 2.2945 };
const PARIS_CODE = 'FR-0RMB-CLY0';
const BRUSSELS = { lat: 50.8503, lng: 4.3517 };
const BERLIN = { lat: 52.52, lng: 13.405 };
const SAUSALITO_CODE = 'US-550M-RQ5L';
const SUVA = { lat: -18.1416, lng: 178.4419 };
/** From 170° E eastwards over the antimeridian to 175° W: Fiji's main islands. */
const ACROSS = { south: -21, west: 170, north: -12, east: -175 };
/** Paris and Brussels, not Berlin. */
const FRANCE_NORTH = { south: 48, west: 1, north: 51, east: 5 };

beforeAll(async () => {
  accountId = (await service.account('acme')).id;
});

const createSession = (area: Record<string, unknown>) =>
  service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example', ...area } });

async function sessionToken(area: Record<string, unknown>): Promise<string> {
  const response = await createSession(area);
  expect(response.statusCode).toBe(200);
  return json(response).session_token as string;
}

const resolve = (body: Record<string, unknown>, token?: string) =>
  service.request({
    method: 'POST', url: '/v1/embed/resolve', payload: body,
    headers: token === undefined ? { 'x-api-key': service.secret } : { authorization: `Bearer ${token}` },
  });

const outcome = async (body: Record<string, unknown>, token?: string): Promise<string> => {
  const response = await resolve(body, token);
  return response.statusCode === 200 ? `ok ${json(response).loc_code as string}` : `${response.statusCode} ${json(response).code as string}`;
};

describe('creating a session with an area', () => {
  it('accepts countries and bounds, keeps them and echoes them', async () => {
    const response = await createSession({ countries: ['FR', 'BE'], bounds: FRANCE_NORTH });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body).toMatchObject({ success: true, countries: ['FR', 'BE'], bounds: FRANCE_NORTH });
    const sid = (body.session_token as string).split('.')[0];
    expect(await service.app.store.getSession(sid)).toMatchObject({ countries: ['FR', 'BE'], bounds: FRANCE_NORTH });
  });

  it('answers an old client, which sends neither, exactly as before: no area, nothing echoed', async () => {
    const response = await createSession({});
    expect(Object.keys(json(response)).sort()).toEqual(['embed_url', 'expires_at', 'session_token', 'success']);
    const sid = (json(response).session_token as string).split('.')[0];
    expect(await service.app.store.getSession(sid)).toMatchObject({ countries: null, bounds: null });
    const token = json(response).session_token as string;
    expect(await outcome({ ...BERLIN, save: false }, token)).toMatch(/^ok DE-/);
    expect(await outcome({ code: SAUSALITO_CODE }, token)).toBe(`ok ${SAUSALITO_CODE}`);
  });

  it.each([
    [{ countries: [] }, 'countries', /countries must NOT have fewer than 1 items/],
    [{ countries: ['FR', 'FR'] }, 'countries', /duplicate/],
    [{ countries: ['fr'] }, 'countries.0', /pattern/],
    [{ countries: 'FR' }, 'countries', /must be an array/],
    [{ countries: ['FR', 'XX'] }, 'countries.1', /countries\.1 must be a country this service hands codes out in .*received "XX"/],
    [{ countries: ['FR', 'AQ'] }, 'countries.1', /received "AQ"/],
    [{ bounds: { south: 48, west: 1, north: 51 } }, 'bounds.east', /bounds\.east is required/],
    [{ bounds: { ...FRANCE_NORTH, north: 91 } }, 'bounds.north', /bounds\.north must be from -90 to 90, received 91/],
    [{ bounds: { ...FRANCE_NORTH, west: -181 } }, 'bounds.west', /from -180 to 180/],
    [{ bounds: { ...FRANCE_NORTH, up: 1 } }, 'bounds.up', /not a known field/],
    [{ bounds: { ...FRANCE_NORTH, south: 51 } }, 'bounds.north', /bounds\.north must be greater than bounds\.south, received south 51 and north 51/],
    [{ bounds: { ...FRANCE_NORTH, east: 1 } }, 'bounds.east', /bounds\.east must differ from bounds\.west .*antimeridian/],
    [{ bounds: { ...FRANCE_NORTH, west: 180, east: -180 } }, 'bounds.east', /bounds\.east must name another meridian than bounds\.west .*received west 180 and east -180/],
  ])('refuses %j with 422 validation_error naming %s', async (area, field, message) => {
    const response = await createSession(area);
    expect(response.statusCode).toBe(422);
    expect(json(response)).toMatchObject({ code: 'validation_error', field, message: expect.stringMatching(message) });
  });

  it('takes a list of every covered country: the schema\'s bound is never below the codec\'s count', async () => {
    expect(supportedCountries().length).toBeLessThanOrEqual(ISO_3166_1_CODES);
    const { secret } = await service.key('acme');
    const everywhere = await service.request({
      method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example', countries: [...supportedCountries()] },
    });
    expect(everywhere.statusCode).toBe(200);
  });

  it('refuses a country outside LOC_SUPPORTED_COUNTRIES, listing those', async () => {
    const limited = await testService({ LOC_SUPPORTED_COUNTRIES: 'FR,BE' });
    try {
      const { secret: key } = await limited.key('acme');
      const response = await limited.request({
        method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': key }, payload: { origin: 'https://shop.example', countries: ['BE', 'DE'] },
      });
      expect(response.statusCode).toBe(422);
      expect(json(response)).toMatchObject({ field: 'countries.1', message: expect.stringContaining('LOC_SUPPORTED_COUNTRIES: FR, BE') });
    } finally {
      await limited.close();
    }
  });
});

describe('resolving with a session that has an area', () => {
  it('countries: resolves inside, refuses outside by point and by code, saying which constraint and what the area is', async () => {
    const token = await sessionToken({ countries: ['FR', 'BE'] });
    expect(await outcome({ ...PARIS, save: false }, token)).toBe(`ok ${PARIS_CODE}`);
    expect(await outcome({ ...BRUSSELS, save: false }, token)).toMatch(/^ok BE-/);
    expect(await outcome({ code: PARIS_CODE }, token)).toBe(`ok ${PARIS_CODE}`);
    const refused = await resolve({ ...BERLIN, save: false }, token);
    expect(refused.statusCode).toBe(422);
    expect(json(refused)).toEqual({
      success: false, code: 'outside_session_area',
      message: 'The point is in Germany (DE), not in the countries this embed session allows: it allows points in FR, BE.',
      error: 'The point is in Germany (DE), not in the countries this embed session allows: it allows points in FR, BE.',
    });
    expect(await outcome({ code: SAUSALITO_CODE }, token)).toBe('422 outside_session_area');
  });

  it('bounds: resolves inside, refuses outside by point and by code, saying so', async () => {
    const token = await sessionToken({ bounds: FRANCE_NORTH });
    expect(await outcome({ ...PARIS, save: false }, token)).toBe(`ok ${PARIS_CODE}`);
    expect(await outcome({ code: PARIS_CODE }, token)).toBe(`ok ${PARIS_CODE}`);
    const refused = json(await resolve({ ...BERLIN, save: false }, token));
    expect(refused.code).toBe('outside_session_area');
    expect(refused.message).toMatch(/^The point \(its cell centre 52\.52\d*, 13\.40\d*\) is outside the bounds this embed session allows: it allows points within south 48, west 1, north 51, east 5\.$/);
    expect(await outcome({ code: SAUSALITO_CODE }, token)).toBe('422 outside_session_area');
  });

  it('both: a point must be inside both; the message names the one it fails and the whole area', async () => {
    const token = await sessionToken({ countries: ['FR'], bounds: FRANCE_NORTH });
    expect(await outcome({ ...PARIS, save: false }, token)).toBe(`ok ${PARIS_CODE}`);
    // In the box, not in France.
    const belgian = json(await resolve({ ...BRUSSELS, save: false }, token));
    expect(belgian).toMatchObject({ code: 'outside_session_area', message: expect.stringMatching(/in Belgium \(BE\), not in the countries .* in FR and within south 48/) });
    // In France, not in the box.
    const marseille = json(await resolve({ lat: 43.2965, lng: 5.3698, save: false }, token));
    expect(marseille).toMatchObject({ code: 'outside_session_area', message: expect.stringMatching(/outside the bounds .*: it allows points in FR and within south 48/) });
  });

  it('bounds across the antimeridian (west greater than east): both sides inside, the rest of the world outside', async () => {
    const token = await sessionToken({ bounds: ACROSS });
    expect(await outcome({ ...SUVA, save: false }, token)).toMatch(/^ok FJ-/);
    expect(await outcome({ lat: -16.7, lng: -179.95, save: false }, token)).toMatch(/^ok FJ-/);
    expect(await outcome({ ...PARIS, save: false }, token)).toBe('422 outside_session_area');
    expect(json(await resolve({ ...PARIS, save: false }, token)).message).toContain('east -175, across the antimeridian.');
  });

  it('saves nothing outside the area, and saves inside it', async () => {
    const token = await sessionToken({ countries: ['FR'] });
    const refused = await resolve({ ...BERLIN, save: true }, token);
    expect(json(refused).code).toBe('outside_session_area');
    const berlin = json(await resolve({ ...BERLIN, save: false }));
    expect(await service.app.store.findLocation(accountId, 'live', berlin.loc_code as string)).toBeNull();
    expect(await outcome({ code: SAUSALITO_CODE, save: true }, token)).toBe('422 outside_session_area');
    expect(await service.app.store.findLocation(accountId, 'live', SAUSALITO_CODE)).toBeNull();
    expect(await outcome({ ...PARIS, save: true }, token)).toBe(`ok ${PARIS_CODE}`);
    expect(await service.app.store.findLocation(accountId, 'live', PARIS_CODE)).not.toBeNull();
  });

  it('a point no country has codes for is still unsupported_location, the service’s refusal before the session’s', async () => {
    const token = await sessionToken({ countries: ['FR'] });
    expect(await outcome({ lat: 0, lng: -30, save: false }, token)).toBe('422 unsupported_location');
  });

  it('a call made with the key is not limited by any session’s area', async () => {
    await sessionToken({ countries: ['FR'], bounds: FRANCE_NORTH });
    expect(await outcome({ ...BERLIN, save: false })).toMatch(/^ok DE-/);
    expect(await outcome({ code: SAUSALITO_CODE })).toBe(`ok ${SAUSALITO_CODE}`);
  });
});

describe('boundsHold', () => {
  it('holds the edges, and wraps across the antimeridian when west is greater than east', () => {
    expect(boundsHold(FRANCE_NORTH, 48, 1)).toBe(true);
    expect(boundsHold(FRANCE_NORTH, 51, 5)).toBe(true);
    expect(boundsHold(FRANCE_NORTH, 51.0001, 3)).toBe(false);
    expect(boundsHold(FRANCE_NORTH, 50, 5.0001)).toBe(false);
    expect(boundsHold(ACROSS, -15, 180)).toBe(true);
    expect(boundsHold(ACROSS, -15, -180)).toBe(true);
    expect(boundsHold(ACROSS, -15, 170)).toBe(true);
    expect(boundsHold(ACROSS, -15, -175)).toBe(true);
    expect(boundsHold(ACROSS, -15, 0)).toBe(false);
    expect(boundsHold(ACROSS, -15, -174)).toBe(false);
    expect(boundsHold(ACROSS, -22, 178)).toBe(false);
  });
});

describe('viewBounds', () => {
  const FIJI = countriesViewBox(['FJ'])!;

  it('is the bounds alone, the countries’ box alone, or none', () => {
    expect(viewBounds({ countries: null, bounds: FRANCE_NORTH })).toEqual(FRANCE_NORTH);
    expect(viewBounds({ countries: ['FR', 'DE'], bounds: null })).toEqual(countriesViewBox(['FR', 'DE']));
    expect(viewBounds({ countries: null, bounds: null })).toBeNull();
    expect(viewBounds({ countries: ['BR', 'JP'], bounds: null })).toBeNull();
    expect(viewBounds({ countries: ['BR', 'JP'], bounds: FRANCE_NORTH })).toEqual(FRANCE_NORTH);
  });

  it('is where both overlap, across the antimeridian too', () => {
    const de = countriesViewBox(['DE'])!;
    expect(viewBounds({ countries: ['DE'], bounds: FRANCE_NORTH })).toEqual({ south: 48, west: de.west, north: 51, east: 5 });
    expect(viewBounds({ countries: ['FJ'], bounds: ACROSS })).toEqual({ south: -21, west: FIJI.west, north: -12, east: FIJI.east });
    // One side of the antimeridian of a box across it, from either side.
    const EAST_OF_180 = { south: -30, west: -180, north: 0, east: -170 };
    expect(viewBounds({ countries: ['FJ'], bounds: EAST_OF_180 })).toEqual({ south: FIJI.south, west: -180, north: FIJI.north, east: FIJI.east });
    const WEST_OF_180 = { south: -30, west: 175, north: 0, east: 180 };
    expect(viewBounds({ countries: ['FJ'], bounds: WEST_OF_180 })).toEqual({ south: FIJI.south, west: 175, north: FIJI.north, east: 180 });
  });

  it('is the narrower box where a box round nearly the whole world overlaps the other at both its ends', () => {
    const ALMOST_WORLD = { south: -80, west: -179, north: 80, east: 179 };
    expect(viewBounds({ countries: ['FJ'], bounds: ALMOST_WORLD })).toEqual(FIJI);
  });

  it('is the bounds where the two do not overlap: nothing is allowed, the view stays where the partner put it', () => {
    expect(viewBounds({ countries: ['FJ'], bounds: FRANCE_NORTH })).toEqual(FRANCE_NORTH);
    expect(viewBounds({ countries: ['DE'], bounds: { south: 30, west: 6, north: 40, east: 10 } })).toEqual({ south: 30, west: 6, north: 40, east: 10 });
  });
});
