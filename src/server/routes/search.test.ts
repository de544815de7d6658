/**
 * `GET /v1/loc/search` through the real service, codec and places: each kind of text, a session's
 * area, the geocoder's forward search on Enter (a Nominatim stand-in on loopback), its refusals and how
 * it counts against a session's budgets.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileService, json, testService, type TestService } from '../../../test/support/service.ts';
import { FAR_M } from '../../search/suggest.ts';

const service = fileService();

interface Result {
  name?: string;
  loc_code?: string;
  match?: string;
  country_code?: string | null;
  country?: string | null;
  admin?: string | null;
  latitude: number;
  longitude: number;
  distance_m?: number;
  swapped?: boolean;
  source?: string;
  in_area?: boolean;
}
interface Answer {
  kind: 'code' | 'coordinates' | 'places';
  normalized?: string;
  results: Result[];
}

const ask = (s: TestService, query: Record<string, string>, headers: Record<string, string>) =>
  s.request({ url: `/v1/loc/search?${new URLSearchParams(query)}`, headers });
const answer = async (query: Record<string, string>, headers: Record<string, string> = { 'x-api-key': service.secret }, s: TestService = service) => {
  const response = await ask(s, query, headers);
  expect(response.statusCode, response.body).toBe(200);
  return json<Answer & { success: true }>(response);
};
const names = (a: Answer) => a.results.map((r) => `${r.name} ${r.country_code}`);

const LYON = '45.7640,4.8357';
const EIFFEL = 'FR-0RMB-CLY0';

async function session(s: TestService, secret: string, area: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const response = await s.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example', ...area } });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${json<{ session_token: string }>(response).session_token}` };
}

describe('place names', () => {
  it('by the start of the name or of a word in it, accents and case aside, with country and distance', async () => {
    const a = await answer({ q: 'lyon', focus: LYON });
    expect(a.kind).toBe('places');
    expect(a.results[0]).toMatchObject({ name: 'Lyon', country_code: 'FR', country: 'France', admin: null, source: 'places' });
    expect(a.results[0].distance_m).toBeLessThan(2000);
    expect(names(await answer({ q: 'sao pa' }))[0]).toBe('São Paulo BR');
    expect(names(await answer({ q: 'ZURICH' }))[0]).toBe('Zürich CH');
    expect(names(await answer({ q: 'denis' }))).toContain('Saint-Denis FR');
    // A space stands for any run of spaces, hyphens, full stops and apostrophes.
    expect(names(await answer({ q: 'st louis', focus: '38.6,-90.2' }))[0]).toBe('St. Louis US');
    expect(names(await answer({ q: 'saint denis' }))).toContain('Saint-Denis FR');
  });

  it('nearest the focus first, a big place reaching further than a small one', async () => {
    // Without a focus, by population: São Paulo, Paris …; seen from Lyon, Paris leads the places of "pari".
    expect(names(await answer({ q: 'pa' }))[0]).toBe('São Paulo BR');
    expect(names(await answer({ q: 'pari', focus: LYON }))[0]).toBe('Paris FR');
    // Seen from Texas, the Paris there comes first.
    expect(names(await answer({ q: 'paris', focus: '33.66,-95.55' }))[0]).toBe('Paris US');
    const near = await answer({ q: 'sa', focus: LYON });
    expect(near.results.length).toBe(8);
    expect(near.results[0].distance_m).toBeLessThan(100_000);
  });

  it('limited to the countries asked for, and to those the service hands codes out in', async () => {
    expect(names(await answer({ q: 'paris', countries: 'US' })).every((n) => n.endsWith(' US'))).toBe(true);
    const s = await testService({ LOC_SUPPORTED_COUNTRIES: 'FR,BE' });
    try {
      const { secret } = await s.key('acme');
      const found = names(await answer({ q: 'paris', focus: '33.66,-95.55' }, { 'x-api-key': secret }, s));
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((n) => n.endsWith(' FR') || n.endsWith(' BE'))).toBe(true);
      const refused = await ask(s, { q: 'paris', countries: 'US' }, { 'x-api-key': secret });
      expect(json(refused)).toMatchObject({ code: 'validation_error', field: 'countries' });
    } finally {
      await s.close();
    }
  });

  it('finds nothing for text no name starts with; a single character is too short to search', async () => {
    expect(await answer({ q: 'qxzqxz' })).toEqual({ success: true, kind: 'places', normalized: null, results: [] });
    expect((await answer({ q: 'l' })).results).toEqual([]);
  });
});

describe('coordinates', () => {
  it.each([
    ['48.8584, 2.2945', false],
    [`48°51'30.2"N 2°17'40.2"E`, false],
    ['https://www.google.com/maps/@48.8584,2.2945,17z', false],
    ['2.2945, 48.8584', false],
  ])('%s', async (q, swapped) => {
    const a = await answer({ q, focus: LYON });
    expect(a.kind).toBe('coordinates');
    expect(a.results).toHaveLength(1);
    expect(a.results[0].swapped).toBe(swapped);
    expect(a.results[0].distance_m).toBeGreaterThan(380_000);
  });

  it('a first number beyond ±90 is read as longitude and said so', async () => {
    expect((await answer({ q: '151.2153, -33.8568' })).results[0]).toEqual({ latitude: -33.8568, longitude: 151.2153, swapped: true });
  });
});

describe('codes', () => {
  it('an existing code is the exact cell, with its centre and no address', async () => {
    const a = await answer({ q: 'fr 0rmb cly0', focus: '48.8664,2.3177' });
    expect(a).toMatchObject({ kind: 'code', normalized: EIFFEL });
    expect(a.results).toEqual([{ loc_code: EIFFEL, latitude: expect.closeTo(48.8584, 3), longitude: expect.closeTo(2.2945, 3), country_code: 'FR', distance_m: expect.any(Number), match: 'exact' }]);
  });

  it(`far from the focus (over ${FAR_M / 1000} km), the exact cell comes with the codes meant near it`, async () => {
    const a = await answer({ q: 'FR-0MRB-CLY0', focus: '48.8664,2.3177' });
    expect(a.results[0]).toMatchObject({ loc_code: 'FR-0MRB-CLY0', match: 'exact' });
    expect(a.results[0].distance_m).toBeGreaterThan(FAR_M);
    expect(a.results[1]).toMatchObject({ loc_code: EIFFEL, match: 'transposition' });
  });

  it('a code that names no cell lists the codes one slip away, none exact', async () => {
    const a = await answer({ q: 'MC-O000-X2VW' });
    expect(a).toMatchObject({ kind: 'code', normalized: 'MC-O000-X2VW', results: [{ loc_code: 'MC-0000-X2VW', match: 'look_alike' }] });
  });

  it('ten letters without digits or a code’s separators are a name first, a code only when no place has it', async () => {
    expect((await answer({ q: 'Washington' })).kind).toBe('places');
    expect(names(await answer({ q: 'saint louis park' }))).toEqual(['Saint Louis Park US']);
    // A code with a letter O for its zero, run together: no place is called that, and one slip away a code is.
    const a = await answer({ q: 'FRORMBCLYO' });
    expect(a.kind).toBe('code');
    expect(a.results[0]).toMatchObject({ loc_code: 'FR-0RMB-CLYO', match: 'look_alike' });
  });
});

describe('a session', () => {
  it('has its area applied: codes suggested within it, places in it first, each result saying whether it is in it', async () => {
    const bearer = await session(service, service.secret, { countries: ['US'] });
    // Seen from Paris, France, the Paris of the United States comes first: it is in the area.
    const paris = await answer({ q: 'paris', focus: '48.85,2.35' }, bearer);
    expect(paris.results[0]).toMatchObject({ name: 'Paris', country_code: 'US', in_area: true });
    const inArea = paris.results.map((r) => r.in_area);
    expect(inArea).toEqual([...inArea].sort((a, b) => Number(b) - Number(a)));
    // Places outside the area are still found, after those in it, and say so.
    expect((await answer({ q: 'tokyo' }, bearer)).results[0]).toMatchObject({ name: 'Tokyo', country_code: 'JP', in_area: false });
    const code = await answer({ q: EIFFEL }, bearer);
    expect(code.results[0]).toMatchObject({ loc_code: EIFFEL, match: 'exact', in_area: false });
    expect(code.results.slice(1).every((r) => r.country_code === 'US')).toBe(true);
    const boxed = await session(service, service.secret, { bounds: { south: 48, west: 2, north: 49, east: 3 } });
    expect((await answer({ q: '48.5, 2.5' }, boxed)).results[0]).toMatchObject({ in_area: true });
    expect((await answer({ q: '45.5, 2.5' }, boxed)).results[0]).toMatchObject({ in_area: false });
    expect((await answer({ q: '45.5, 2.5' })).results[0].in_area).toBeUndefined();
  });

  it('searches from an allowance of their own: a session that has searched its fill still resolves, and one that resolved its fill still searches', async () => {
    const s = await testService({ LOC_DEFAULT_SESSION_LIMIT: '3' });
    try {
      const { secret } = await s.key('acme');
      const bearer = await session(s, secret);
      for (let i = 0; i < 3; i++) {
        const response = await ask(s, { q: 'lyon' }, bearer);
        expect(response.statusCode).toBe(200);
        expect(Number(response.headers['ratelimit-remaining'])).toBe(2 - i);
      }
      const spent = await ask(s, { q: 'lyon' }, bearer);
      expect(spent.statusCode).toBe(429);
      expect(json(spent)).toMatchObject({ code: 'session_limit_reached', message: expect.stringContaining('searches') });
      const resolve = (lat: number) => s.request({ method: 'POST', url: '/v1/embed/resolve', headers: bearer, payload: { lat, lng: 4.8357, save: false } });
      for (let i = 0; i < 3; i++) expect((await resolve(45.764 + i / 1e4)).statusCode).toBe(200);
      expect(json(await resolve(45.77))).toMatchObject({ code: 'session_limit_reached' });
      const other = await session(s, secret);
      for (let i = 0; i < 3; i++) expect((await resolve(45.764)).statusCode).toBe(429);
      expect((await ask(s, { q: 'lyon' }, other)).statusCode).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('searches draw from the key’s embed budget too, never from its own', async () => {
    const { secret } = await service.key('acme', { embedHourlyLimit: 1 });
    const bearer = await session(service, secret);
    expect((await ask(service, { q: 'lyon' }, bearer)).statusCode).toBe(200);
    expect(json(await ask(service, { q: 'lyon' }, bearer))).toMatchObject({ code: 'rate_limited' });
    expect((await ask(service, { q: 'lyon' }, { 'x-api-key': secret })).statusCode).toBe(200);
  });
});

describe('refusals', () => {
  const refused = async (query: Record<string, string>, field: string) => {
    const response = await ask(service, query, { 'x-api-key': service.secret });
    expect(response.statusCode, JSON.stringify(query)).toBe(422);
    expect(json(response), JSON.stringify(query)).toMatchObject({ success: false, code: 'validation_error', field });
  };

  it('422 validation_error naming the field: no q, an empty or blank one, a bad focus, countries or forward, an unknown parameter', async () => {
    await refused({}, 'q');
    await refused({ q: '' }, 'q');
    await refused({ q: '   ' }, 'q');
    await refused({ q: 'x'.repeat(2049) }, 'q');
    await refused({ q: 'lyon', focus: '91,0' }, 'focus');
    await refused({ q: 'lyon', countries: 'XX' }, 'countries');
    await refused({ q: 'lyon', forward: 'yes' }, 'forward');
    await refused({ q: 'lyon', near: '1,2' }, 'near');
  });

  it('never a 500 for odd text', async () => {
    for (const q of ['%', '\u0000', '🇫🇷', '(', '[a-z]+', 'https://', 'geo:', '-', "''", '°', 'N', 'FR-', 'a'.repeat(2048), '1 '.repeat(500)]) {
      const response = await ask(service, { q }, { 'x-api-key': service.secret });
      expect(response.statusCode, q).toBe(200);
    }
  });

  it('refuses a call without credentials', async () => {
    expect(json(await ask(service, { q: 'lyon' }, {}))).toMatchObject({ code: 'missing_api_key' });
  });
});

describe('the geocoder’s forward search', () => {
  let geocoder: Server;
  let url: string;
  const asked: IncomingMessage[] = [];
  let mode: 'ok' | 'slow' | 'fail' = 'ok';

  beforeAll(async () => {
    geocoder = createServer((req, res) => {
      asked.push(req);
      if (mode === 'fail') return void res.writeHead(500).end();
      const body = JSON.stringify([
        { name: '10 Downing Street', display_name: '10 Downing Street, Westminster, London, England, United Kingdom', lat: '51.5033635', lon: '-0.1276248', address: { country_code: 'gb', state: 'England' } },
        { display_name: 'Lyon, Métropole de Lyon, France', lat: '45.7578137', lon: '4.8320114', address: { country_code: 'fr', state: 'Auvergne-Rhône-Alpes' } },
        { name: 'Nowhere', lat: '95', lon: '0' },
      ]);
      const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (mode === 'slow') setTimeout(send, 1000);
      else send();
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => geocoder.close(() => resolve())));

  it('is asked on forward=1 only, its places after the offline ones, a place both know listed once', async () => {
    // The default timeout: this geocoder answers at once, and a loaded machine must not turn it into a slow one.
    const s = await testService({ LOC_GEOCODER_URL: url, LOC_GEOCODER_SEARCH: 'on' });
    try {
      const { secret } = await s.key('acme');
      asked.length = 0;
      mode = 'ok';
      await answer({ q: 'lyon' }, { 'x-api-key': secret }, s);
      expect(asked).toHaveLength(0);
      const a = await answer({ q: 'lyon', forward: '1', focus: LYON }, { 'x-api-key': secret }, s);
      expect(asked).toHaveLength(1);
      const query = new URL(asked[0].url!, 'http://x').searchParams;
      expect(asked[0].url).toMatch(/^\/search\?/);
      expect(Object.fromEntries(query)).toMatchObject({ format: 'jsonv2', q: 'lyon', limit: '5' });
      expect(asked[0].headers['user-agent']).toMatch(/^loc \(/);
      expect(asked[0].headers['accept-language']).toBe('en');
      expect(a.results.filter((r) => r.name === 'Lyon')).toHaveLength(1);
      expect(a.results.at(-1)).toEqual({
        name: '10 Downing Street', country_code: 'GB', country: 'United Kingdom', admin: 'England', latitude: 51.5033635, longitude: -0.1276248,
        distance_m: expect.any(Number), source: 'geocoder',
      });
      expect(a.results.some((r) => r.name === 'Nowhere')).toBe(false);
      // The countries asked for go to the geocoder, and its places outside them are dropped; the
      // caller's first language names them.
      const fr = await answer({ q: 'lyon', forward: '1', countries: 'FR' }, { 'x-api-key': secret, 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' }, s);
      expect(new URL(asked[1].url!, 'http://x').searchParams.get('countrycodes')).toBe('fr');
      expect(asked[1].headers['accept-language']).toBe('fr-CH');
      expect(fr.results.every((r) => r.country_code === 'FR')).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('that fails or is slow leaves the offline places alone to answer, quickly', async () => {
    for (const failing of ['fail', 'slow'] as const) {
      const s = await testService({ LOC_GEOCODER_URL: url, LOC_GEOCODER_SEARCH: 'on', LOC_GEOCODER_TIMEOUT_MS: '200' });
      try {
        const { secret } = await s.key('acme');
        mode = failing;
        const started = Date.now();
        const a = await answer({ q: 'lyon', forward: '1' }, { 'x-api-key': secret }, s);
        expect(Date.now() - started).toBeLessThan(900);
        expect(a.results.length).toBeGreaterThan(0);
        expect(a.results.every((r) => r.source === 'places')).toBe(true);
      } finally {
        await s.close();
      }
    }
  });

  it('is never asked when the operator left it off, forward=1 or not', async () => {
    const s = await testService({ LOC_GEOCODER_URL: url });
    try {
      const { secret } = await s.key('acme');
      asked.length = 0;
      mode = 'ok';
      const a = await answer({ q: 'lyon', forward: '1' }, { 'x-api-key': secret }, s);
      expect(asked).toHaveLength(0);
      expect(a.results.every((r) => r.source === 'places')).toBe(true);
    } finally {
      await s.close();
    }
  });
});
