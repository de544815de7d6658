/**
 * Resolve by code (`{ code, save }` in place of `{ lat, lng, save }`), the call the embed's `select`
 * makes: the cell a lookup of the code gives, the same saving and refusals as a point, and a body that
 * names its cell one way only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from '../../code/index.ts';
import { fileService, json, testService, type TestService } from '../../../test/support/service.ts';

const service = fileService();

const resolve = (payload: Record<string, unknown>, headers: Record<string, string> = { 'x-api-key': service.secret }) =>
  service.request({ method: 'POST', url: '/v1/embed/resolve', headers, payload });

describe('resolve by code', () => {
  it('answers the cell a lookup of the code gives, as a resolve of its centre does', async () => {
    const byCode = json(await resolve({ code: 'US-550M-RQ5L' }));
    const lookup = json(await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': service.secret } }));
    expect(byCode).toMatchObject({ success: true, loc_code: 'US-550M-RQ5L', country_code: 'US', cell: lookup.cell, saved: false });
    const location = lookup.location as { latitude: number; longitude: number; address: string };
    expect(byCode).toMatchObject({ latitude: location.latitude, longitude: location.longitude, address: location.address });
    expect(byCode).toEqual(json(await resolve({ lat: location.latitude, lng: location.longitude })));
  });

  it('forgives case, spaces and hyphens, as lookup does', async () => {
    expect(json(await resolve({ code: ' us550m rq5l ' })).loc_code).toBe('US-550M-RQ5L');
  });

  it('saves with save: true, and generate then finds the cell existing', async () => {
    const cell = encode(41.8902, 12.4922);
    expect(json(await resolve({ code: cell.loc_code, save: true })).saved).toBe(true);
    const generated = await service.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': service.secret }, payload: { latitude: cell.latitude, longitude: cell.longitude } });
    expect(json(generated)).toMatchObject({ loc_code: cell.loc_code, is_existing: true });
  });

  it('takes a session token, as a click does', async () => {
    const session = json(await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example' } }));
    const response = await resolve({ code: 'US-550M-RQ5L', save: true }, { authorization: `Bearer ${session.session_token as string}` });
    expect(json(response)).toMatchObject({ loc_code: 'US-550M-RQ5L', address: 'near Sausalito, United States', saved: true });
  });

  it('answers 400 invalid_code for a malformed code and 404 code_not_found for a well-formed code of no cell, naming the field', async () => {
    const malformed = await resolve({ code: 'not-a-code' });
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed)).toMatchObject({ code: 'invalid_code', message: 'Expected a code like FR-1A2B-3C4D, received "not-a-code".', field: 'code' });
    const nowhere = await resolve({ code: 'ZZ-0000-0000' });
    expect(nowhere.statusCode).toBe(404);
    expect(json(nowhere)).toMatchObject({ code: 'code_not_found', field: 'code' });
  });

  it('refuses a body that names its cell both ways, or neither, saying which field', async () => {
    const both = await resolve({ code: 'US-550M-RQ5L', lat: 1 });
    expect(both.statusCode).toBe(422);
    expect(json(both)).toMatchObject({ code: 'validation_error', message: 'Send either code or lat and lng, not both; received code and lat.', field: 'lat' });
    expect(json(await resolve({ save: true }))).toMatchObject({ code: 'validation_error', message: 'lat is required (or code instead of lat and lng).', field: 'lat' });
    expect(json(await resolve({ lat: 1 }))).toMatchObject({ code: 'validation_error', field: 'lng' });
    expect(json(await resolve({ code: 42 }))).toMatchObject({ code: 'validation_error', message: 'code must be a string, received 42.', field: 'code' });
  });
});

describe('resolve by code with LOC_SUPPORTED_COUNTRIES', () => {
  let limited: TestService;
  let key: string;
  beforeAll(async () => {
    limited = await testService({ LOC_SUPPORTED_COUNTRIES: 'fr' });
    key = (await limited.key()).secret;
  });
  afterAll(() => limited.close());

  it('refuses a code of another country as its point is refused: choosing hands the code out again', async () => {
    const response = await limited.request({ method: 'POST', url: '/v1/embed/resolve', headers: { 'x-api-key': key }, payload: { code: 'US-550M-RQ5L' } });
    expect(response.statusCode).toBe(422);
    expect(json(response)).toMatchObject({ code: 'unsupported_location', message: 'Codes are not handed out in US by this service.' });
  });
});
