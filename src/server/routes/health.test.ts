/**
 * Liveness, readiness and the health check, in process: ready only once the codec's tables and the
 * address index are loaded, not while draining, not while the database or the counters' store — cut
 * for real by a TCP proxy — does not answer; live through all of it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';
import { redisServer, stopRedis } from '../../../test/support/redis.ts';
import { freshService, json, testService, type TestService } from '../../../test/support/service.ts';
import { tcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.ts';
import { loadPlaces } from '../../address/offline.ts';
import { coverage } from '../../code/shipped-table.ts';

afterAll(async () => {
  await stopPostgres();
  await stopRedis();
});

/** `url`'s status and, when it failed, its message. */
async function ask(service: TestService, url: string, method: 'GET' | 'HEAD' = 'GET'): Promise<{ status: number; message?: string; retryAfter?: string }> {
  const response = await service.request({ url, method });
  if (response.statusCode < 400 || method === 'HEAD') return { status: response.statusCode };
  return { status: response.statusCode, message: json<{ message: string }>(response).message, retryAfter: response.headers['retry-after'] as string };
}

describe('/readyz and /livez on SQLite', () => {
  it('say not ready until the tables and the address index are loaded, live all along, then ready', async () => {
    // This file's first test: nothing in this process has read the table or the index yet.
    const service = await freshService();
    expect(await ask(service, '/readyz')).toEqual({
      status: 503, retryAfter: '1', message: "Not ready: the codec's tables are not loaded yet; the address index is not loaded yet.",
    });
    expect(await ask(service, '/readyz', 'HEAD')).toEqual({ status: 503 });
    expect(await service.app.readiness.check()).toEqual({
      ready: false, draining: false,
      failed: [{ check: 'tables', message: "the codec's tables are not loaded yet" }, { check: 'addresses', message: 'the address index is not loaded yet' }],
    });
    expect(await ask(service, '/livez')).toEqual({ status: 200 });
    expect(await ask(service, '/healthz')).toEqual({ status: 200 });

    // What server.ts does: the index before listening, the table just after.
    loadPlaces();
    coverage();
    const ready = await service.request({ url: '/readyz' });
    expect({ status: ready.statusCode, body: json(ready), cache: ready.headers['cache-control'] }).toEqual({ status: 200, body: { success: true, status: 'ready' }, cache: 'no-store' });
    expect(await ask(service, '/readyz', 'HEAD')).toEqual({ status: 200 });
    const live = await service.request({ url: '/livez' });
    expect({ status: live.statusCode, body: json(live), cache: live.headers['cache-control'] }).toEqual({ status: 200, body: { success: true, status: 'ok' }, cache: 'no-store' });
    expect(await ask(service, '/livez', 'HEAD')).toEqual({ status: 200 });
    expect(await service.app.readiness.check()).toEqual({ ready: true, draining: false, failed: [] });
  });

  it('say not ready while draining, and every answer then closes its connection; live, healthy and serving still', async () => {
    const service = await freshService();
    loadPlaces();
    coverage();
    const { secret } = await service.key('acme');
    expect(service.app.readiness.draining).toBe(false);
    service.app.drain();
    expect(service.app.readiness.draining).toBe(true);
    expect(await ask(service, '/readyz')).toEqual({ status: 503, retryAfter: '10', message: 'Not ready: the service is shutting down.' });
    expect(await service.app.readiness.check()).toEqual({ ready: false, draining: true, failed: [{ check: 'draining', message: 'the service is shutting down' }] });
    expect(await ask(service, '/livez')).toEqual({ status: 200 });
    expect(await ask(service, '/healthz')).toEqual({ status: 200 });
    const lookup = await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } });
    expect({ status: lookup.statusCode, connection: lookup.headers.connection }).toEqual({ status: 200, connection: 'close' });
  });
});

describe.each([
  { cut: 'the database', engine: 'PostgreSQL', check: 'store', message: 'the database does not answer', healthz: 'The database does not answer.' },
  { cut: 'the counters', engine: 'Redis', check: 'counters', message: 'the store of the request counters does not answer', healthz: 'The store of the request counters does not answer.' },
])('with $cut cut', ({ engine, check, message, healthz }) => {
  it(`says not ready naming ${check} alone, fails /healthz, stays live, and is ready again once it answers`, async () => {
    const db: TestDatabase = await createTestDatabase({ migrated: true });
    const redis = (await redisServer()).url;
    const target = new URL(engine === 'PostgreSQL' ? db.url : redis);
    const proxy: TcpProxy = await tcpProxy({ host: target.hostname, port: Number(target.port) });
    let service: TestService | undefined;
    try {
      const through = (url: string) => (engine === 'PostgreSQL' ? proxy.through(url) : url);
      service = await testService({ LOC_DATABASE_URL: through(db.url), LOC_REDIS_URL: engine === 'Redis' ? proxy.through(redis) : redis });
      const running = service;
      loadPlaces();
      coverage();
      expect(await ask(running, '/readyz')).toEqual({ status: 200 });

      await proxy.cut();
      expect(await ask(running, '/readyz')).toEqual({ status: 503, retryAfter: '10', message: `Not ready: ${message}.` });
      expect((await running.app.readiness.check()).failed).toEqual([{ check, message }]);
      // What a metrics scrape reads: the engines as the last check found them, without asking again.
      expect(running.app.readiness.known().failed).toEqual([{ check, message }]);
      expect(await ask(running, '/healthz')).toEqual({ status: 503, retryAfter: '10', message: healthz });
      expect(await ask(running, '/livez')).toEqual({ status: 200 });

      await proxy.restore();
      await expect.poll(async () => (await ask(running, '/readyz')).status, { timeout: 10_000 }).toBe(200);
      expect(running.app.readiness.known()).toEqual({ ready: true, draining: false, failed: [] });
    } finally {
      await service?.close();
      await proxy.close();
      await db.dispose();
    }
  });
});
