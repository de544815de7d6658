/**
 * `GET /v1/loc/suggest` through the real service and codec: an exact code, the typos it undoes, the
 * focus and countries that rank and filter, its refusals, its budgets, and the share of typos it
 * catches (test/support/typo-catch.ts, whose figures docs/api.md quotes).
 */
import { describe, expect, it } from 'vitest';
import { measureTypoCatch } from '../../../test/support/typo-catch.ts';
import { fileService, json } from '../../../test/support/service.ts';
import { FAR_M, SUGGESTIONS_MAX, parseCountries } from '../../search/suggest.ts';

const service = fileService();

interface Cell {
  loc_code: string;
  latitude: number;
  longitude: number;
  country_code: string;
  distance_m?: number;
  reason?: string;
}
interface Answer {
  normalized: string;
  exact: Cell | null;
  suggestions: Cell[];
}

const ask = (query: Record<string, string>, headers: Record<string, string> = { 'x-api-key': service.secret }) =>
  service.request({ url: `/v1/loc/suggest?${new URLSearchParams(query)}`, headers });
const answer = async (query: Record<string, string>) => {
  const response = await ask(query);
  expect(response.statusCode, response.body).toBe(200);
  return json<Answer>(response);
};
const listed = (a: Answer) => a.suggestions.map(({ loc_code, reason }) => `${loc_code} ${reason}`);

/** The Eiffel Tower's cell, and a point 2 km from it. */
const EIFFEL = 'FR-0RMB-CLY0';
const NEAR_EIFFEL = '48.8664,2.3177';
/** Monaco's covered blocks are four: most slips of its block digits name no cell. */
const MONACO = 'MC-0000-X2VW';

describe('an existing code', () => {
  it('is answered as exact, normalised, with no suggestions and no address', async () => {
    const a = await answer({ input: ' fr 0rmb–cly0 ' });
    expect(a).toEqual({
      success: true,
      normalized: EIFFEL,
      exact: { loc_code: EIFFEL, latitude: expect.closeTo(48.8584, 3), longitude: expect.closeTo(2.2945, 3), country_code: 'FR' },
      suggestions: [],
    });
  });

  it('near the focus is taken as typed, with its distance: a slip that stays near cannot be told from the code meant', async () => {
    const a = await answer({ input: 'FR-0RM8-CLY0', focus: NEAR_EIFFEL });
    expect(a.exact).toMatchObject({ loc_code: 'FR-0RM8-CLY0', country_code: 'FR' });
    expect(a.exact!.distance_m).toBeLessThan(FAR_M);
    expect(a.suggestions).toEqual([]);
  });

  it(`far from the focus (over ${FAR_M / 1000} km) is doubted: its variants near the focus are listed, nearest first`, async () => {
    // The Eiffel Tower's code with two block characters swapped: a cell in Brittany, 380 km away.
    const a = await answer({ input: 'FR-0MRB-CLY0', focus: NEAR_EIFFEL });
    expect(a.exact).toMatchObject({ loc_code: 'FR-0MRB-CLY0', country_code: 'FR' });
    expect(a.exact!.distance_m).toBeGreaterThan(300_000);
    expect(a.suggestions[0]).toMatchObject({ loc_code: EIFFEL, reason: 'transposition', country_code: 'FR' });
    expect(a.suggestions[0].distance_m).toBeGreaterThan(1500);
    expect(a.suggestions[0].distance_m).toBeLessThan(2500);
    expect(a.suggestions.every(({ distance_m }) => distance_m! <= FAR_M)).toBe(true);
    const distances = a.suggestions.map(({ distance_m }) => distance_m!);
    expect(distances).toEqual([...distances].sort((x, y) => x - y));
  });
});

describe('a code that names no cell', () => {
  it('gets the look-alike that does', async () => {
    expect(listed(await answer({ input: 'MC-O000-X2VW' }))).toEqual([`${MONACO} look_alike`]);
  });

  it('gets the transpositions that do, the nearest the focus first', async () => {
    // Swapping the country's letters back names a cell in Cameroon.
    expect(listed(await answer({ input: 'mc000x02vw' }))).toEqual(['CM-000X-02VW transposition', `${MONACO} transposition`]);
    expect(listed(await answer({ input: 'mc000x02vw', focus: '43.74,7.42' }))).toEqual([`${MONACO} transposition`, 'CM-000X-02VW transposition']);
  });

  it('with one character too many or too few gets the codes without it or with it', async () => {
    expect(listed(await answer({ input: 'MC-0000-X2VVW' }))).toContain(`${MONACO} extra_character`);
    const missing = await answer({ input: 'MC-0000-X2W', focus: '43.7384,7.4246' });
    expect(missing.normalized).toBe('MC0000X2W');
    expect(missing.exact).toBeNull();
    expect(missing.suggestions).toHaveLength(SUGGESTIONS_MAX);
    expect(missing.suggestions.map(({ loc_code }) => loc_code)).toContain(MONACO);
  });

  it('with a malformed country gets the look-alike country, limited to the countries asked for', async () => {
    expect(listed(await answer({ input: '8E-0133-7RIN' }))).toEqual(['BE-0133-7RIN look_alike']);
    expect(listed(await answer({ input: '8E-0133-7RIN', countries: 'be,nl' }))).toEqual(['BE-0133-7RIN look_alike']);
    expect(await answer({ input: '8E-0133-7RIN', countries: 'FR' })).toMatchObject({ normalized: '8E01337RIN', exact: null, suggestions: [] });
  });

  it('without a focus ranks by the kind of slip: look-alikes before transpositions', async () => {
    const kinds = (await answer({ input: 'FR-0RMB-CLY0'.replace('0RMB', 'ORMB') })).suggestions.map(({ reason }) => reason);
    expect(kinds).toEqual([...kinds].sort((a, b) => ['look_alike', 'transposition'].indexOf(a!) - ['look_alike', 'transposition'].indexOf(b!)));
    expect(kinds[0]).toBe('look_alike');
  });
});

describe('refusals', () => {
  const refused = async (query: Record<string, string>, status: number, code: string, field: string) => {
    const response = await ask(query);
    expect(response.statusCode, JSON.stringify(query)).toBe(status);
    expect(json(response), JSON.stringify(query)).toMatchObject({ success: false, code, field });
  };

  it('400 invalid_code for input that cannot be a code: a wrong length, other characters, no country within one slip', async () => {
    for (const input of ['hello', '', '-', 'FR-0RMB', 'FR-0RMB-CLY0-X1', 'FR.0RMB.CLY0', '🇫🇷-0RMB-CLY0', '\u0000', 'ZZ-0000-0000']) {
      await refused({ input }, 400, 'invalid_code', 'input');
    }
  });

  it('422 validation_error naming focus, countries or input', async () => {
    for (const focus of ['abc', '91,0', '0,181', '48.8', '48.8;2.3', '1e3,0', 'NaN,0']) await refused({ input: EIFFEL, focus }, 422, 'validation_error', 'focus');
    for (const countries of ['XX', 'FRA', 'FR,', 'AQ']) await refused({ input: EIFFEL, countries }, 422, 'validation_error', 'countries');
    await refused({}, 422, 'validation_error', 'input');
    await refused({ input: 'x'.repeat(65) }, 422, 'validation_error', 'input');
    await refused({ input: EIFFEL, near: '1,2' }, 422, 'validation_error', 'near');
    const twice = await service.request({ url: '/v1/loc/suggest?input=FR-0RMB-CLY0&input=FR-0RMB-CLY1', headers: { 'x-api-key': service.secret } });
    expect(json(twice)).toMatchObject({ code: 'validation_error', field: 'input' });
  });

  it('takes only countries the service hands codes out in, as a session’s area does: LOC_SUPPORTED_COUNTRIES when set', () => {
    expect([...parseCountries({ supportedCountries: null }, 'de, fr')]).toEqual(['DE', 'FR']);
    const served = { supportedCountries: new Set(['FR', 'BE']) };
    expect([...parseCountries(served, 'be')]).toEqual(['BE']);
    expect(() => parseCountries(served, 'FR,DE')).toThrow('each one of LOC_SUPPORTED_COUNTRIES: FR, BE; "DE" is not one.');
  });
});

describe('budgets', () => {
  it('takes a session token, drawing from the session’s budget, not from the key’s server calls', async () => {
    const session = json<{ session_token: string }>(
      await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example' } }),
    ).session_token;
    const bearer = { authorization: `Bearer ${session}` };
    const first = await ask({ input: 'MC-O000-X2VW' }, bearer);
    const second = await ask({ input: 'MC-O000-X2VW' }, bearer);
    expect(first.statusCode).toBe(200);
    expect(Number(first.headers['ratelimit-limit'])).toBe(service.config.defaultSessionLimit);
    expect(Number(second.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
    expect(json(second)).toEqual(json(first));
    const byKey = await ask({ input: EIFFEL });
    expect(Number(byKey.headers['ratelimit-limit'])).toBe(service.config.defaultHourlyLimit);
  });

  it('draws from the key’s embed budget too: its sessions’ calls of the hour, never its own', async () => {
    const { secret } = await service.key('acme', { embedHourlyLimit: 1 });
    const session = json<{ session_token: string }>(
      await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example' } }),
    ).session_token;
    const bearer = { authorization: `Bearer ${session}` };
    expect((await ask({ input: EIFFEL }, bearer)).statusCode).toBe(200);
    expect(json(await ask({ input: EIFFEL }, bearer))).toMatchObject({ code: 'rate_limited' });
    expect((await ask({ input: EIFFEL }, { 'x-api-key': secret })).statusCode).toBe(200);
  });

  it('refuses a call without credentials', async () => {
    expect(json(await ask({ input: EIFFEL }, {}))).toMatchObject({ code: 'missing_api_key' });
  });
});

describe('the share of single-character typos caught', () => {
  it('lists the original for every typo that names no cell or a far one, when the focus is within 3 km of it', () => {
    const { byOutcome, withFocus } = measureTypoCatch(40, 18);
    expect(withFocus.typos).toBeGreaterThan(500);
    for (const outcome of ['not_a_code', 'far_code'] as const) {
      expect(byOutcome[outcome].listed / byOutcome[outcome].typos, outcome).toBeGreaterThanOrEqual(0.99);
      expect(byOutcome[outcome].first / byOutcome[outcome].typos, outcome).toBeGreaterThanOrEqual(0.95);
    }
  });
});
