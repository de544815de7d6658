/**
 * Saving and reading locations: generate's idempotency (also under 50 concurrent calls), the rules of
 * address and label, resolve with `save`, lookup's normalisation and caching, and account scoping —
 * one account never sees another's label or address — and addresses from a reverse geocoder.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from '../../code/index.ts';
import { fileService, json, testService, type TestService } from '../../../test/support/service.ts';

const service = fileService();
let beta: string;

beforeAll(async () => {
  beta = (await service.key('beta', { partner: false })).secret;
});

const generate = (key: string, payload: Record<string, unknown>) =>
  service.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': key }, payload });
const resolve = (key: string, payload: Record<string, unknown>) =>
  service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { 'x-api-key': key }, payload });
const lookup = (key: string, code: string, headers: Record<string, string> = {}) =>
  service.request({ url: `/v1/loc/lookup/${code}`, headers: { 'x-api-key': key, ...headers } });

describe('generate', () => {
  it('returns the cell centre, not the submitted point, and the same code for any point of the cell', async () => {
    const a = json(await generate(service.secret, { latitude: 51.50070, longitude: -0.12460 }));
    const b = json(await generate(service.secret, { latitude: a.latitude as number, longitude: a.longitude as number }));
    expect(b.loc_code).toBe(a.loc_code);
    expect(b.is_existing).toBe(true);
    expect(a.latitude).not.toBe(51.5007);
  });

  it('keeps the first address and label: a second call with other texts changes nothing', async () => {
    const first = json(await generate(service.secret, { latitude: 40.6892, longitude: -74.0445, address: 'Liberty Island', label: 'Statue' }));
    const second = json(await generate(service.secret, { latitude: 40.6892, longitude: -74.0445, label: 'Something else' }));
    expect(second).toMatchObject({ is_existing: true, label: 'Statue', address: 'Liberty Island', loc_code: first.loc_code });
  });

  it('computes the address when none is supplied, and gives label null', async () => {
    const body = json(await generate(service.secret, { latitude: 37.8591, longitude: -122.4853 }));
    expect(body).toMatchObject({ address: 'near Sausalito, United States', label: null });
  });

  it('creates one location under 50 concurrent calls: one is_existing false, 49 true', async () => {
    const payload = { latitude: -33.8568, longitude: 151.2153, label: 'Opera' };
    const responses = await Promise.all(Array.from({ length: 50 }, () => generate(service.secret, payload)));
    const bodies = responses.map((r) => json(r));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(bodies.filter((b) => b.is_existing === false)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.loc_code)).size).toBe(1);
  });

  it('is idempotent per account: another account creating the same cell gets is_existing false', async () => {
    await generate(service.secret, { latitude: 35.6586, longitude: 139.7454, label: 'Acme tower' });
    const theirs = json(await generate(beta, { latitude: 35.6586, longitude: 139.7454 }));
    expect(theirs).toMatchObject({ is_existing: false, label: null });
  });
});

describe('address and label rules', () => {
  const outcome = async (payload: Record<string, unknown>): Promise<string> => {
    const response = await generate(service.secret, { latitude: 48.1374, longitude: 11.5755, ...payload });
    const body = json(response);
    return response.statusCode === 200 ? `ok ${JSON.stringify(body.label)} ${JSON.stringify(body.address)}` : `${response.statusCode} ${body.field}: ${body.message}`;
  };

  it('allows 300 address and 100 label characters, counted in code points', async () => {
    expect(await outcome({ latitude: 48.1, address: 'a'.repeat(300), label: '😀'.repeat(100) })).toMatch(/^ok/);
    expect(await outcome({ address: 'a'.repeat(301) })).toBe(`422 address: address must be at most 300 characters, received "${'a'.repeat(40)}…".`);
    expect(await outcome({ label: 'b'.repeat(101) })).toMatch(/^422 label: label must be at most 100 characters/);
  });

  it('counts the stored form: a text that NFC makes longer than the limit is refused', async () => {
    // U+0958 is one code point sent, two stored (U+0915 U+093C); U+FB2C is three stored.
    expect(await outcome({ label: '\u0958'.repeat(100) })).toBe('422 label: label must be at most 100 characters; its normalised form (NFC) has 200.');
    expect(await outcome({ address: '\uFB2C'.repeat(101) })).toMatch(/^422 address: address must be at most 300 characters; its normalised form \(NFC\) has 303\.$/);
    expect(await outcome({ latitude: 48.6, label: '\u0958'.repeat(50) })).toMatch(/^ok "(\u0915\u093C){50}"/);
  });

  it('refuses control characters, newlines and bidi overrides', async () => {
    expect(await outcome({ label: 'two\nlines' })).toBe('422 label: label must be one line of visible text; found U+000A at position 3, a control character.');
    expect(await outcome({ address: 'one\u2028two' })).toBe('422 address: address must be one line of visible text; found U+2028 at position 3, a line or paragraph separator.');
    expect(await outcome({ label: 'tab\there' })).toMatch(/U\+0009/);
    expect(await outcome({ address: 'evil\u202Etxt.exe' })).toMatch(/^422 address: .*U\+202E/);
    expect(await outcome({ label: 'bell\u0007' })).toMatch(/U\+0007/);
  });

  it('refuses broken UTF-16', async () => {
    const response = await service.request({
      method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': service.secret, 'content-type': 'application/json' },
      payload: '{"latitude":48.2,"longitude":11.5,"label":"\\ud800x"}',
    });
    expect(json(response)).toMatchObject({ code: 'validation_error', field: 'label', message: 'label must be one line of visible text; found U+D800 at position 0, half of a broken character (an unpaired UTF-16 surrogate).' });
  });

  it('trims, normalises to NFC, and treats blank as absent', async () => {
    expect(await outcome({ latitude: 48.3, label: '  Cafe\u0301  ' })).toMatch(/^ok "Café"/);
    expect(await outcome({ latitude: 48.4, label: '   ', address: '' })).toMatch(/^ok null "near .+, Germany"$/);
  });

  it('accepts every script and emoji', async () => {
    expect(await outcome({ latitude: 48.5, label: '東京 · Ελλάδα · مرحبا · 👋🏽' })).toMatch(/^ok "東京 · Ελλάδα · مرحبا · 👋🏽"/);
  });
});

describe('resolve and save', () => {
  it('does not save unless save is true (save defaults to false)', async () => {
    const point = { lat: 52.5163, lng: 13.3777 };
    expect(json(await resolve(service.secret, point)).saved).toBe(false);
    const first = json(await generate(service.secret, { latitude: point.lat, longitude: point.lng }));
    expect(first.is_existing).toBe(false);
  });

  it('saves with save: true, and generate then finds it existing', async () => {
    const body = json(await resolve(service.secret, { lat: 41.8902, lng: 12.4922, save: true }));
    expect(body.saved).toBe(true);
    expect(json(await resolve(service.secret, { lat: 41.8902, lng: 12.4922, save: true })).saved).toBe(true);
    expect(json(await generate(service.secret, { latitude: 41.8902, longitude: 12.4922 })).is_existing).toBe(true);
  });

  it("shows the account's own saved address in resolve", async () => {
    await generate(service.secret, { latitude: 59.3293, longitude: 18.0686, address: 'Gamla stan 1' });
    expect(json(await resolve(service.secret, { lat: 59.3293, lng: 18.0686 })).address).toBe('Gamla stan 1');
    expect(json(await resolve(beta, { lat: 59.3293, lng: 18.0686 })).address).toBe('near Stockholm, Sweden');
  });
});

describe('what an embed session sees and stores', () => {
  // Every visitor of the partner's page holds the session token, and anyone can send it with curl.
  const sessionToken = async (): Promise<string> =>
    json(await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example' } }))
      .session_token as string;
  const resolveWith = async (token: string, payload: Record<string, unknown>) =>
    json(await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${token}` }, payload }));

  it('never sees the address the partner stored with its key, saving or not; the key does', async () => {
    await generate(service.secret, { latitude: 60.1699, longitude: 24.9384, address: 'Private delivery door 4B', label: 'Back office' });
    const token = await sessionToken();
    for (const save of [false, true]) {
      const body = await resolveWith(token, { lat: 60.1699, lng: 24.9384, save });
      expect({ save, address: body.address }).toEqual({ save, address: 'near Helsinki, Finland' });
      expect(JSON.stringify(body)).not.toMatch(/Private|Back office/);
    }
    expect(json(await resolve(service.secret, { lat: 60.1699, lng: 24.9384 })).address).toBe('Private delivery door 4B');
    expect(json(await resolve(service.secret, { lat: 60.1699, lng: 24.9384, save: true })).address).toBe('Private delivery door 4B');
  });

  it("stores a visitor's save without label or address, so the partner's later generate labels the cell", async () => {
    const token = await sessionToken();
    const clicked = await resolveWith(token, { lat: 64.1466, lng: -21.9426, save: true });
    expect(clicked).toMatchObject({ saved: true, address: 'near Reykjavík, Iceland' });
    const code = clicked.loc_code as string;
    const before = await lookup(service.secret, code);
    expect(json(before).location).toMatchObject({ label: null, address: 'near Reykjavík, Iceland' });

    const labelled = json(await generate(service.secret, { latitude: 64.1466, longitude: -21.9426, label: 'Pickup point', address: 'Harbour gate 2' }));
    expect(labelled).toMatchObject({ loc_code: code, is_existing: true, label: 'Pickup point', address: 'Harbour gate 2' });
    const after = await lookup(service.secret, code, { 'if-none-match': before.headers.etag as string });
    // A cached lookup from before the label is stale: it gets the new answer, not 304.
    expect(after.statusCode).toBe(200);
    expect(json(after).location).toMatchObject({ label: 'Pickup point', address: 'Harbour gate 2' });

    // A visitor saving the cell again takes nothing away, and still sees only the public address.
    expect(await resolveWith(token, { lat: 64.1466, lng: -21.9426, save: true })).toMatchObject({ address: 'near Reykjavík, Iceland' });
    expect(json(await lookup(service.secret, code)).location).toMatchObject({ label: 'Pickup point', address: 'Harbour gate 2' });
    // What a save stored is never replaced: a second label is ignored.
    expect(json(await generate(service.secret, { latitude: 64.1466, longitude: -21.9426, label: 'Other' }))).toMatchObject({ is_existing: true, label: 'Pickup point' });
  });
});

describe('lookup', () => {
  it('normalises case, spaces, missing hyphens and URL encoding', async () => {
    for (const spelling of ['US-550M-RQ5L', 'us-550m-rq5l', 'US550MRQ5L', 'US%20550M%20RQ5L', '%20us-550m-rq5l%20', 'US-550M-RQ5L%0A']) {
      const response = await lookup(service.secret, spelling);
      expect({ spelling, status: response.statusCode, code: json(response).loc_code }).toEqual({ spelling, status: 200, code: 'US-550M-RQ5L' });
    }
  });

  it('answers 400 for malformed and 404 for well-formed codes of no cell', async () => {
    for (const bad of ['US-550M-RQ5', 'U1-550M-RQ5L', 'US-550M-RQ5L-X', 'US_550M_RQ5L', '%F0%9F%98%80']) {
      expect({ bad, status: (await lookup(service.secret, bad)).statusCode }).toEqual({ bad, status: 400 });
    }
    for (const missing of ['ZZ-0000-0000', 'US-ZZZZ-ZZZZ', 'AQ-0RMB-CLY0']) {
      const response = await lookup(service.secret, missing);
      expect({ missing, status: response.statusCode, code: json(response).code }).toEqual({ missing, status: 404, code: 'code_not_found' });
    }
  });

  it("shows a saved label and address to their account only", async () => {
    const saved = json(await generate(service.secret, { latitude: 45.764, longitude: 4.8357, address: '1 Place Bellecour', label: 'HQ' }));
    const mine = json(await lookup(service.secret, saved.loc_code as string));
    const theirs = json(await lookup(beta, saved.loc_code as string));
    expect(mine.location).toMatchObject({ label: 'HQ', address: '1 Place Bellecour' });
    expect(theirs.location).toMatchObject({ label: null, address: 'near Lyon, France' });
    expect(theirs.loc_code).toBe(mine.loc_code);
    expect(theirs.cell).toEqual(mine.cell);
  });

  it('is cacheable: private Cache-Control, an ETag, and 304 for If-None-Match', async () => {
    const first = await lookup(service.secret, 'US-550M-RQ5L');
    expect(first.headers['cache-control']).toBe('private, max-age=300');
    expect(first.headers.vary).toBe('x-api-key');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"US-550M-RQ5L\.\w+\.\w+"$/);
    const again = await lookup(service.secret, 'us550mrq5l', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A 304 may not announce a length other than the full answer's (RFC 9110 §8.6).
    expect(again.headers['content-length']).toBeUndefined();
    expect(again.headers.etag).toBe(etag);
    expect((await lookup(beta, 'US-550M-RQ5L', { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('compares If-None-Match as HTTP does: weak tags, lists and * match; no-cache does not skip the comparison', async () => {
    const etag = (await lookup(service.secret, 'US-550M-RQ5L')).headers.etag as string;
    for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
      expect({ header, status: (await lookup(service.secret, 'US-550M-RQ5L', { 'if-none-match': header })).statusCode }).toEqual({ header, status: 304 });
    }
    // no-cache asks caches to revalidate with the origin; the origin still compares the validator.
    expect((await lookup(service.secret, 'US-550M-RQ5L', { 'if-none-match': etag, 'cache-control': 'no-cache', pragma: 'no-cache' })).statusCode).toBe(304);
    expect((await lookup(service.secret, 'US-550M-RQ5L', { 'cache-control': 'no-cache' })).statusCode).toBe(200);
  });

  it('answers 304 to a revalidation sent with fetch, which adds Cache-Control: no-cache to it', async () => {
    const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address}/v1/loc/lookup/US-550M-RQ5L`;
    const first = await fetch(url, { headers: { 'x-api-key': service.secret } });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const again = await fetch(url, { headers: { 'x-api-key': service.secret, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('answers invalid_code for a code of any length, without echoing all of it', async () => {
    const response = await lookup(service.secret, 'a'.repeat(500));
    expect(json(response)).toMatchObject({ code: 'invalid_code', field: 'code' });
    expect(response.body.length).toBeLessThan(300);
    const spaced = await lookup(service.secret, `US-550M-RQ5L${'%20'.repeat(40)}`);
    expect(json(spaced).loc_code).toBe('US-550M-RQ5L');
  });

  it('changes the ETag when the account saves a label', async () => {
    const { loc_code: code } = encode(47.3769, 8.5417);
    const before = (await lookup(service.secret, code)).headers.etag;
    await generate(service.secret, { latitude: 47.3769, longitude: 8.5417, label: 'Ferry' });
    const after = await lookup(service.secret, code, { 'if-none-match': before as string });
    expect(after.statusCode).toBe(200);
    expect(json(after).location).toMatchObject({ label: 'Ferry' });
  });
});

describe('supported countries', () => {
  let limited: TestService;
  let key: string;
  beforeAll(async () => {
    limited = await testService({ LOC_SUPPORTED_COUNTRIES: 'fr, de' });
    key = (await limited.key()).secret;
  });
  afterAll(() => limited.close());

  it('hands out codes only inside LOC_SUPPORTED_COUNTRIES', async () => {
    const inside = await limited.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': key }, payload: { latitude: 48.8584, longitude: 2.2945 } });
    expect(inside.statusCode).toBe(200);
    const outside = await limited.request({ method: 'POST', url: '/v1/embed/resolve', headers: { 'x-api-key': key }, payload: { lat: 37.8591, lng: -122.4853 } });
    expect(json(outside)).toMatchObject({ code: 'unsupported_location', message: 'Codes are not handed out in US by this service.' });
  });

  it('still looks up codes of other countries: a code keeps meaning its cell', async () => {
    expect((await limited.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': key } })).statusCode).toBe(200);
  });
});

describe('with a reverse geocoder', () => {
  it('answers its street address, and the offline one when it fails', async () => {
    let up = true;
    const geocoder = createServer((_req, res) => {
      if (!up) return void res.writeHead(500).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ display_name: '1 Bridgeway, Sausalito, CA 94965, United States' }));
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    const port = (geocoder.address() as AddressInfo).port;
    const geo = await testService({ LOC_GEOCODER_URL: `http://127.0.0.1:${port}` });
    try {
      const { secret } = await geo.key();
      const ask = async (lat: number) => json(await geo.request({ method: 'POST', url: '/v1/embed/resolve', headers: { 'x-api-key': secret }, payload: { lat, lng: -122.4853 } })).address;
      expect(await ask(37.8591)).toBe('1 Bridgeway, Sausalito, CA 94965, United States');
      up = false;
      expect(await ask(37.8592)).toBe('near Sausalito, United States');
    } finally {
      await geo.close();
      await new Promise<void>((resolve) => geocoder.close(() => resolve()));
    }
  });
});
