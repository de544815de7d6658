/**
 * A reverse geocoder that never answers, and one that answers 500, each behind a fresh built server:
 * resolve answers within the configured timeout with the offline address, and the next resolve does
 * not wait for the geocoder at all. The answers are timed, so the suite runs alone on the machine
 * (vitest.config.ts); the disk's faults are faults.test.ts's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpawnedServer, dispose, ensureBuilt, healthStatus, post, seedDataDir } from './harness.ts';

describe('a reverse geocoder that hangs or fails', () => {
  const TIMEOUT_MS = 400;
  let geocoder: Server;
  let geocoderUrl: string;
  let mode: 'hang' | 'fail' = 'hang';
  let asked = 0;

  beforeAll(async () => {
    ensureBuilt();
    geocoder = createServer((_request, response) => {
      asked++;
      // A hanging geocoder accepts the request and never answers.
      if (mode === 'fail') response.writeHead(500).end('{"error":"down"}');
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    geocoderUrl = `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    geocoder.closeAllConnections();
    return new Promise<void>((resolve) => geocoder.close(() => resolve()));
  });

  for (const which of ['hang', 'fail'] as const) {
    it(`${which === 'hang' ? 'never answers' : 'answers 500'}: resolve answers within the ${TIMEOUT_MS} ms timeout with the offline address`, async () => {
      mode = which;
      const { dataDir, keys } = await seedDataDir([{ account: 'acme' }]);
      const server = await SpawnedServer.start(dataDir, { LOC_GEOCODER_URL: geocoderUrl, LOC_GEOCODER_TIMEOUT_MS: String(TIMEOUT_MS) });
      try {
        // Once a first request is answered, the start-up work (the offline address index) is done.
        expect(await healthStatus(server)).toBe(200);
        const before = asked;
        const started = performance.now();
        const response = await post(server, '/v1/embed/resolve', keys[0].secret, { lat: 45.764, lng: 4.8357 });
        const took = performance.now() - started;
        console.log(`geocoder that ${which === 'hang' ? 'hangs' : 'fails'}: resolve answered ${response.status} in ${Math.round(took)} ms (timeout ${TIMEOUT_MS} ms)`);
        expect(response.status).toBe(200);
        expect(((await response.json()) as { address: string }).address).toBe('near Lyon, France');
        expect(asked).toBe(before + 1);
        expect(took).toBeLessThan(TIMEOUT_MS + 600);
        // Then it is left alone for a while: the next answer does not wait for it at all.
        const again = performance.now();
        expect((await post(server, '/v1/embed/resolve', keys[0].secret, { lat: 45.77, lng: 4.84 })).status).toBe(200);
        expect(performance.now() - again).toBeLessThan(TIMEOUT_MS);
        expect(asked).toBe(before + 1);
      } finally {
        await dispose(server, dataDir);
      }
    });
  }
});
