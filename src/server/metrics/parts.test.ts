/**
 * The metrics of the parts that keep figures of their own — embed sessions, offline tiles, the
 * password hash gate — read from the app's registry in process, after the requests that move them.
 * (The usage meter's batches need a store that fails: store.test.ts.)
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { panelClient } from '../../../test/support/panel-client.ts';
import { sampled } from '../../../test/support/metric-samples.ts';
import { freshService } from '../../../test/support/service.ts';
import { HASHES_AT_ONCE, HASHES_WAITING } from '../../panel/hash-gate.ts';

describe('embed sessions', () => {
  it('counts the sessions created and the requests that came with an expired one', async () => {
    const registry = new Registry();
    const service = await freshService({}, { metrics: registry });
    const { secret } = await service.key('acme');
    const create = () => service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example', ttl: 60 } });
    expect((await create()).statusCode).toBe(200);
    const token = (JSON.parse((await create()).body) as { session_token: string }).session_token;
    expect(await sampled(registry, 'loc_sessions_created_total')).toBe(2);
    expect(await sampled(registry, 'loc_sessions_expired_total')).toBe(0);

    const resolve = () => service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${token}` }, payload: { code: 'US-550M-RQ5L' } });
    expect((await resolve()).statusCode).toBe(200);
    service.clock.advance(60_000);
    for (let i = 0; i < 3; i++) expect(JSON.parse((await resolve()).body)).toMatchObject({ code: 'session_expired' });
    expect(await sampled(registry, 'loc_sessions_expired_total')).toBe(3);
    // A scrape reads what happened since the last one: totals, not counted twice.
    expect(await sampled(registry, 'loc_sessions_created_total')).toBe(2);
  });
});

describe('offline tiles', () => {
  it('shows the tiles waiting for a worker, then those drawn, and counts those refused over the render rate', async () => {
    const registry = new Registry();
    const service = await freshService({ LOC_TILES: 'offline', LOC_TILE_RENDERS_PER_SECOND: '1' }, { metrics: registry });
    const tile = (x: number) => service.request({ method: 'GET', url: `/tiles/satellite/4/${x}/6.png` });
    // Ten seconds of one a second at once: the burst. The workers start on the first tile: the ten wait meanwhile.
    const drawn = Promise.all(Array.from({ length: 10 }, (_, x) => tile(x)));
    await expect.poll(() => sampled(registry, 'loc_tiles_queued')).toBe(10);
    expect((await drawn).map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    expect(await sampled(registry, 'loc_tiles_queued')).toBe(0);
    expect(await sampled(registry, 'loc_tiles_rendered_total')).toBe(10);
    expect((await tile(10)).statusCode).toBe(503);
    expect((await tile(11)).statusCode).toBe(503);
    expect((await tile(3)).statusCode).toBe(200);
    expect(await sampled(registry, 'loc_tiles_refused_total')).toBe(2);
    expect(await sampled(registry, 'loc_tiles_rendered_total')).toBe(10);
  });

  it('has no tile metrics when the tiles are not drawn by the service', async () => {
    const registry = new Registry();
    await freshService({}, { metrics: registry });
    expect(await sampled(registry, 'loc_tiles_rendered_total')).toBeUndefined();
    expect(await sampled(registry, 'loc_tiles_queued')).toBeUndefined();
  });
});

describe('the password hash gate', () => {
  it('shows the hashes running and waiting in a rush of sign-ins, and counts those it refused', async () => {
    const registry = new Registry();
    // Hashes of some milliseconds each: a rush keeps the gate full while the test reads it.
    const service = await freshService({}, { metrics: registry, passwordCost: { ln: 13, r: 8, p: 1 } });
    expect(await sampled(registry, 'loc_password_hashes_running')).toBe(0);
    const rush = HASHES_AT_ONCE + HASHES_WAITING + 3;
    const clients = await Promise.all(Array.from({ length: rush }, async () => {
      const client = panelClient(service);
      await client.get('/panel/sign-in');
      return client;
    }));
    const answers = Promise.all(clients.map((client, i) => client.submit('/panel/sign-in', { email: `rush-${i}@example.com`, password: 'not the password at all' })));
    await expect.poll(async () => [await sampled(registry, 'loc_password_hashes_running'), await sampled(registry, 'loc_password_hashes_queued')])
      .toEqual([HASHES_AT_ONCE, expect.toSatisfy((queued: number) => queued > 0)]);
    expect((await answers).filter((answer) => answer.statusCode === 503)).toHaveLength(3);
    expect(await sampled(registry, 'loc_password_hashes_refused_total')).toBe(3);
    expect(await sampled(registry, 'loc_password_hashes_running')).toBe(0);
    expect(await sampled(registry, 'loc_password_hashes_queued')).toBe(0);
  });
});
