/** Addresses: offline nearest place, and a Nominatim-compatible geocoder (a local fake) with its fallbacks. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from '../code/index.ts';
import { createAddresses, languageOf } from './addresses.ts';
import { GEOCODER_MAX_IN_FLIGHT } from './nominatim.ts';
import { offlineAddress } from './offline.ts';

describe('offline addresses', () => {
  it('names a place of the same country', async () => {
    expect(await offlineAddress(37.8591, -122.4853, 'US')).toBe('near Sausalito, United States');
    expect(await offlineAddress(45.764, 4.8357, 'FR')).toBe('near Lyon, France');
  });

  it('names the place a cell lies deepest in, not a suburb whose centre is nearer', async () => {
    // The Eiffel Tower is 3.4 km from Neuilly-sur-Seine's centre and 5.2 km from Paris's.
    expect(await offlineAddress(48.8584, 2.2945, 'FR')).toBe('near Paris, France');
    // Yet a village keeps its own name next to a big city: Sausalito, 11 km from San Francisco.
    expect(await offlineAddress(37.8591, -122.4853, 'US')).toBe('near Sausalito, United States');
  });

  it('ignores places across a border', async () => {
    // The middle of Lake Constance's Swiss shore: the nearest place of Switzerland, not of Germany.
    expect(await offlineAddress(47.62, 9.3, 'CH')).toMatch(/, Switzerland$/);
  });

  it('names the first listed of two places GeoNames lists twice at one spot', async () => {
    // "Pakham" and "Pa Kham": the same village, the same point, the same population; the first listed wins.
    const cell = decode('TH-0BZW-ZYCT');
    expect(await offlineAddress(cell.latitude, cell.longitude, 'TH')).toBe('near Pakham, Thailand');
  });

  it('spells names with characters beyond Latin-1 and within it, each from its own string of names', async () => {
    expect(await offlineAddress(51.7592, 19.456, 'PL')).toBe('near Łódź, Poland');
    expect(await offlineAddress(50.0647, 19.945, 'PL')).toBe('near Kraków, Poland');
    expect(await offlineAddress(35.6762, 139.6503, 'JP')).toBe('near Tokyo, Japan');
  });

  it('names the country alone far from every place', async () => {
    expect(await offlineAddress(-54.4, 3.4, 'BV')).toBe('Bouvet Island');
  });
});

describe('reverse geocoder', () => {
  let server: Server;
  let url: string;
  const requests: IncomingMessage[] = [];
  let mode: 'ok' | 'slow' | 'fail' | 'sea' | 'held' = 'ok';
  /** Answers the requests held in mode 'held'. */
  const held: (() => void)[] = [];
  let clock = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req);
      const q = new URL(req.url!, 'http://x').searchParams;
      if (mode === 'fail') return void res.writeHead(503).end();
      if (mode === 'sea') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"Unable to geocode"}');
      const send = (): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ display_name: `1 Fake Street (${q.get('lat')}, ${q.get('lon')})` }));
      };
      if (mode === 'slow') setTimeout(send, 3_000).unref();
      else if (mode === 'held') held.push(send);
      else send();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // Timeouts generous enough for a loaded machine where an answer is expected; the slow geocoder
  // answers after 3 s, well past the 1 s the timeout test gives it.
  const addresses = (geocoderTimeoutMs = 5_000) => createAddresses({ geocoderUrl: url, geocoderTimeoutMs, userAgent: 'loc-test', now: () => clock });
  const cell = encode(37.8591, -122.4853);

  it('asks the geocoder, identifies itself and caches the answer per cell', async () => {
    mode = 'ok';
    requests.length = 0;
    const book = addresses();
    const first = await book.addressOf(cell);
    expect(first).toBe(`1 Fake Street (${cell.latitude}, ${cell.longitude})`);
    expect(await book.addressOf(cell)).toBe(first);
    expect(requests).toHaveLength(1);
    expect(requests[0].url).toMatch(/^\/reverse\?format=jsonv2&lat=/);
    expect(requests[0].headers['user-agent']).toBe('loc-test');
  });

  it('asks in the language given, English by default, and caches per cell and language', async () => {
    mode = 'ok';
    requests.length = 0;
    const book = addresses();
    await book.addressOf(cell);
    await book.addressOf(cell, false, 'fr');
    await book.addressOf(cell, false, 'fr');
    expect(requests.map((request) => request.headers['accept-language'])).toEqual(['en', 'fr']);
  });

  it('reads the first language of an Accept-Language header, and nothing that is not a tag', () => {
    expect(languageOf('fr-CH, fr;q=0.9, en;q=0.8')).toBe('fr-CH');
    expect(languageOf('ar')).toBe('ar');
    expect(languageOf('*')).toBeUndefined();
    expect(languageOf('en\r\nx: y')).toBeUndefined();
    expect(languageOf(undefined)).toBeUndefined();
  });

  it('leaves the geocoder alone for a test key: the offline address, the same every time', async () => {
    mode = 'ok';
    requests.length = 0;
    const book = addresses();
    const offline = await createAddresses({ geocoderUrl: null, geocoderTimeoutMs: 1, userAgent: 'loc-test', now: () => clock }).addressOf(cell);
    expect(await book.addressOf(cell, true)).toBe(offline);
    expect(requests).toHaveLength(0);
    expect(await book.addressOf(cell)).toMatch(/^1 Fake Street/);
    expect(requests).toHaveLength(1);
  });

  it('falls back to the offline address on a timeout, then leaves the geocoder alone for a while', async () => {
    mode = 'slow';
    requests.length = 0;
    const book = addresses(1_000);
    expect(await book.addressOf(cell)).toBe('near Sausalito, United States');
    mode = 'ok';
    expect(await book.addressOf(cell)).toBe('near Sausalito, United States');
    expect(requests).toHaveLength(1);
    clock += 60_000;
    expect(await book.addressOf(cell)).toMatch(/^1 Fake Street/);
  });

  it('falls back on an error status and on "Unable to geocode"', async () => {
    mode = 'fail';
    expect(await addresses().addressOf(cell)).toBe('near Sausalito, United States');
    mode = 'sea';
    expect(await addresses().addressOf(cell)).toBe('near Sausalito, United States');
  });

  it(`opens at most ${GEOCODER_MAX_IN_FLIGHT} requests to the geocoder at a time, one per cell; more at once get the offline address`, async () => {
    mode = 'held';
    requests.length = 0;
    const book = createAddresses({ geocoderUrl: url, geocoderTimeoutMs: 10_000, userAgent: 'loc-test', now: () => clock });
    // As many share pages of distinct codes at once as an anonymous client cares to ask for.
    const cells = Array.from({ length: 3 * GEOCODER_MAX_IN_FLIGHT }, (_, i) => encode(48.85 + i * 0.001, 2.29));
    const answers = cells.map((c) => book.addressOf(c));
    const again = book.addressOf(cells[0]);
    const beyond = await Promise.all(answers.slice(GEOCODER_MAX_IN_FLIGHT));
    expect(beyond.every((address) => address.endsWith(', France') && !address.startsWith('1 Fake Street'))).toBe(true);
    await expect.poll(() => requests.length).toBe(GEOCODER_MAX_IN_FLIGHT);
    for (const send of held.splice(0)) send();
    const first = await Promise.all(answers.slice(0, GEOCODER_MAX_IN_FLIGHT));
    expect(first.every((address) => address.startsWith('1 Fake Street'))).toBe(true);
    expect(await again).toBe(first[0]);
    expect(requests).toHaveLength(GEOCODER_MAX_IN_FLIGHT);
    // Once they are answered, the geocoder is asked again.
    mode = 'ok';
    expect(await book.addressOf(cells.at(-1)!)).toMatch(/^1 Fake Street/);
  });

  it('falls back when nothing listens', async () => {
    const book = createAddresses({ geocoderUrl: 'http://127.0.0.1:9', geocoderTimeoutMs: 200, userAgent: 'loc-test', now: () => 0 });
    expect(await book.addressOf(cell)).toBe('near Sausalito, United States');
  });
});
