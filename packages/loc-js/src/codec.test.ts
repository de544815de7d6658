// @vitest-environment node
/**
 * loc-js/codec in Node: the table checked before anything is encoded, the service's answers on the
 * golden vectors and on a random sample against the service's own codec, and the one fetch per
 * service from a real server. The same in Chromium: e2e/codec.spec.ts.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decode, encode, neighbours } from '../../../src/code/codec.ts';
import { TABLE_URL } from '../../../src/code/shipped-table.ts';
import { TABLE_PATH } from '../../../src/code/table-release.ts';
import { goldenRows, writtenAnswer as written } from '../../../test/support/golden.ts';
import { freshService } from '../../../test/support/service.ts';
import { loadCodec, type LocCodec } from './codec.ts';

const table = readFileSync(TABLE_URL);
const golden = goldenRows();

/** What a call answered: the cell, or the error's code. */
const answer = (call: () => unknown): unknown => {
  try {
    return call();
  } catch (error) {
    return { error: (error as { code?: string }).code };
  }
};

describe('loc-js/codec from the table bytes', () => {
  let codec: LocCodec;
  beforeAll(async () => void (codec = await loadCodec({ table })));

  it('answers every golden row as the service does, both ways', () => {
    expect(golden.length).toBeGreaterThan(350);
    for (const row of golden) {
      const encoded = answer(() => codec.encode(Number(row.lat), Number(row.lng)));
      if (row.error) {
        expect(encoded, row.name).toEqual({ error: row.error });
        continue;
      }
      expect(encoded, row.name).toMatchObject({ loc_code: row.loc_code, latitude: Number(row.latitude), longitude: Number(row.longitude) });
      expect(codec.decode(row.loc_code), row.name).toEqual(encoded);
    }
  });

  it('agrees with the service’s codec on 100 000 random points and their codes, misspelt ones included', () => {
    let seed = 1_038;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const differences: string[] = [];
    let coded = 0;
    for (let i = 0; i < 100_000; i++) {
      // A quarter anywhere, the rest in Europe's band of coasts, borders and microstates, where codes are dense.
      const lat = i % 4 === 0 ? next() * 180 - 90 : 35 + next() * 25;
      const lng = i % 4 === 0 ? next() * 360 - 180 : -10 + next() * 40;
      const ours = written(() => codec.encode(lat, lng));
      if (ours !== written(() => encode(lat, lng))) differences.push(`${lat}, ${lng}`);
      if (!ours.includes(' ')) continue;
      coded++;
      // A near miss of the code (another row or block, or none), or a lower-case spelling.
      const code = ours.slice(0, 12);
      const variant = i % 3 === 0 ? code.toLowerCase() : `${code.slice(0, 8)}${code[9]}${code[8]}${code.slice(10)}`;
      if (written(() => codec.decode(variant)) !== written(() => decode(variant))) differences.push(variant);
    }
    expect(coded).toBeGreaterThan(40_000);
    expect(differences).toEqual([]);
  });

  it('gives every golden code’s neighbours as the service does, across band edges and the antimeridian', () => {
    const codes = golden.filter((row) => row.loc_code !== '').map((row) => row.loc_code);
    // A band edge and the antimeridian: cells whose neighbours lie in another band, or across 180°.
    codes.push(codec.encode(60.000_01, 10).loc_code, codec.encode(65.5, 179.999_99).loc_code, codec.encode(65.5, -179.999_99).loc_code);
    for (const code of codes) expect(codec.neighbours(code), code).toEqual(neighbours(code));
    expect(answer(() => codec.neighbours('nonsense'))).toEqual({ error: 'invalid_code' });
  });

  it('throws the service’s error codes on bad input', () => {
    expect(answer(() => codec.encode(91, 0))).toEqual({ error: 'validation_error' });
    expect(answer(() => codec.encode(Number.NaN, 0))).toEqual({ error: 'validation_error' });
    expect(answer(() => codec.encode(0, -30))).toEqual({ error: 'unsupported_location' });
    expect(answer(() => codec.decode('FR-0RMB'))).toEqual({ error: 'invalid_code' });
    expect(answer(() => codec.decode('FR-ZZZZ-0000'))).toEqual({ error: 'code_not_found' });
  });

  it('refuses a table that is not the one it was built for, before reading it', async () => {
    const changed = Uint8Array.from(table);
    changed[100_000] ^= 1;
    await expect(loadCodec({ table: changed })).rejects.toThrow(/the table's SHA-256 is [0-9a-f]{64}, not revision 3's 7f7af0b3/);
    const revision2 = readFileSync(new URL('../../../src/code/tables/v1r2.bin', import.meta.url));
    await expect(loadCodec({ table: revision2 })).rejects.toThrow(/not revision 3's/);
  });
});

describe('loc-js/codec without Web Crypto', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('rejects, saying why, rather than use a table it cannot check', async () => {
    // What a page on plain http:// other than localhost has: crypto without subtle.
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) });
    await expect(loadCodec({ table })).rejects.toThrow('loadCodec: checking the table needs Web Crypto (crypto.subtle), which a browser gives only to pages on https:// or localhost.');
  });
});

describe('loc-js/codec from a service', () => {
  it('fetches the table once per service, and forgets a failed fetch so that the next call retries', async () => {
    const { app } = await freshService();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`;
    const requests: string[] = [];
    // The network fails once, as a phone's does; then the service answers.
    const flaky: typeof fetch = (input, init) => {
      requests.push(String(input));
      return requests.length === 1 ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init);
    };
    await expect(loadCodec({ baseUrl, fetch: flaky })).rejects.toThrow('fetch failed');
    const [first, second] = await Promise.all([loadCodec({ baseUrl, fetch: flaky }), loadCodec({ baseUrl: baseUrl.slice(0, -1), fetch: flaky })]);
    expect(second).toBe(first);
    expect(first.encode(48.8584, 2.2945).loc_code).toBe('FR-0RMB-CLY0');
    expect(requests).toEqual([`${baseUrl.slice(0, -1)}${TABLE_PATH}`, `${baseUrl.slice(0, -1)}${TABLE_PATH}`]);
    const wrong = `${baseUrl}nowhere`;
    await expect(loadCodec({ baseUrl: wrong })).rejects.toThrow(`loadCodec: ${wrong}${TABLE_PATH} answered 404.`);
  });

  it('refuses a base URL that is not absolute http(s)', async () => {
    await expect(loadCodec({ baseUrl: 'loc.example' })).rejects.toThrow('loadCodec: baseUrl must be an absolute http(s) URL, received "loc.example".');
  });
});
