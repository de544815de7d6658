/**
 * The embed's routes on the real service: the session-bound frame page and its headers, the public
 * session facts, the static files and offline tiles — drawn by worker threads, which a test holds in
 * the middle of a drawing, or crashes, through the inspector (test/support/worker-inspector.ts).
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from '../../code/index.ts';
import { countriesViewBox } from '../../code/country-bounds.ts';
import { TILE_WORKERS } from '../../tiles/offline.ts';
import { watchWorkers } from '../../../test/support/worker-inspector.ts';
import { json, testService, type TestService } from '../../../test/support/service.ts';

let service: TestService;
let secret: string;
let keyId: string;

beforeAll(async () => {
  service = await testService({ LOC_TILES: 'offline' });
  const issued = await service.key('acme', { origins: ['https://shop.example', 'http://localhost:5173'] });
  ({ secret } = issued);
  keyId = issued.key.id;
});
afterAll(() => service.close());

async function newSession(origin = 'https://shop.example', ttl = 300): Promise<{ sid: string; token: string; embedUrl: string }> {
  const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin, ttl } });
  expect(response.statusCode).toBe(200);
  const body = json<{ session_token: string; embed_url: string }>(response);
  return { sid: body.session_token.split('.')[0], token: body.session_token, embedUrl: body.embed_url };
}

describe('the frame page', () => {
  it('is the embed_url of a session, framable only by that session’s origin, and holds no secret', async () => {
    const { sid, token, embedUrl } = await newSession('http://localhost:5173');
    expect(embedUrl).toBe(`https://loc.example/embed/frame/${sid}`);
    const response = await service.request({ method: 'GET', url: `/embed/frame/${sid}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors http://localhost:5173');
    expect(csp).toContain("default-src 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain(sid);
    expect(response.body).not.toContain(token.split('.')[1]);
    expect(response.body).toContain('https://loc.example/tiles/streets/{z}/{x}/{y}.png');
  });

  it('is still served after expiry, so the frame can say so', async () => {
    const { sid } = await newSession();
    service.clock.advance(301_000);
    const response = await service.request({ method: 'GET', url: `/embed/frame/${sid}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain('frame-ancestors https://shop.example');
  });

  it('tells the frame when the service already refuses the session (its key disabled, its account no partner), so it stops before ready', async () => {
    const { sid } = await newSession();
    const configOf = async () => {
      const body = (await service.request({ method: 'GET', url: `/embed/frame/${sid}` })).body;
      return JSON.parse(/<script type="application\/json" id="loc-config">([^<]*)<\/script>/.exec(body)![1]) as { refusal?: unknown };
    };
    expect((await configOf()).refusal).toBeUndefined();
    await service.app.store.setKeyStatus(keyId, 'disabled');
    const disabled = await configOf();
    await service.app.store.setKeyStatus(keyId, 'active');
    await service.app.store.setPartner('acme', false);
    const formerPartner = await configOf();
    await service.app.store.setPartner('acme', true);
    expect(disabled.refusal).toEqual({ code: 'key_inactive', message: 'The API key that created this session is disabled.' });
    expect(formerPartner.refusal).toEqual({ code: 'partner_required', message: 'The account of this session is no longer a partner.' });
  });

  it('tells the frame that a test key made the session, so it shows its test-mode mark; a live session says nothing', async () => {
    const test = await service.key('acme', { origins: ['https://shop.example'], mode: 'test' });
    expect(test.secret).toMatch(/^loc_test_/);
    const configOf = async (apiKey: string) => {
      const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': apiKey }, payload: { origin: 'https://shop.example' } });
      const sid = json<{ session_token: string }>(response).session_token.split('.')[0];
      const body = (await service.request({ method: 'GET', url: `/embed/frame/${sid}` })).body;
      return JSON.parse(/<script type="application\/json" id="loc-config">([^<]*)<\/script>/.exec(body)![1]) as { testMode?: unknown };
    };
    expect((await configOf(test.secret)).testMode).toBe(true);
    expect(await configOf(secret)).not.toHaveProperty('testMode');
  });

  it('gives the frame the box to keep the view in: the bounds, the countries’ box, or where both overlap; never the countries', async () => {
    const configOf = async (area: Record<string, unknown>) => {
      const response = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example', ...area } });
      const sid = json<{ session_token: string }>(response).session_token.split('.')[0];
      const body = (await service.request({ method: 'GET', url: `/embed/frame/${sid}` })).body;
      return JSON.parse(/<script type="application\/json" id="loc-config">([^<]*)<\/script>/.exec(body)![1]) as Record<string, unknown>;
    };
    const bounds = { south: 48, west: 1, north: 51, east: 5 };
    expect((await configOf({ bounds })).bounds).toEqual(bounds);
    expect((await configOf({ countries: ['FR'] })).bounds).toEqual(countriesViewBox(['FR']));
    // Inside France's box, the bounds are the overlap; from northern France into Germany, the part of them in Germany's.
    expect((await configOf({ bounds, countries: ['FR'] })).bounds).toEqual(bounds);
    expect((await configOf({ bounds, countries: ['DE'] })).bounds).toEqual({ ...bounds, west: countriesViewBox(['DE'])!.west });
    // Countries half a world apart: no box, the map is free.
    expect(await configOf({ countries: ['BR', 'JP'] })).not.toHaveProperty('bounds');
    expect(await configOf({ bounds })).not.toHaveProperty('countries');
    expect(await configOf({})).not.toHaveProperty('bounds');
  });

  it('is a 404 no page may frame for an unknown session', async () => {
    const response = await service.request({ method: 'GET', url: '/embed/frame/unknownSid123' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.body).toContain('Unknown map session');
  });
});

describe('the public facts of a session', () => {
  it('give the origin and expiry to any page, and nothing secret', async () => {
    const { sid } = await newSession();
    const response = await service.request({ method: 'GET', url: `/embed/session/${sid}`, headers: { origin: 'https://elsewhere.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(json(response)).toEqual({ origin: 'https://shop.example', expires_at: new Date(service.clock.now() + 300_000).toISOString() });
  });

  it('check a token sent along: its own passes, another secret, another session’s or a malformed one is invalid_session', async () => {
    const { sid, token } = await newSession();
    const other = await newSession();
    const ask = (authorization: string) => service.request({ method: 'GET', url: `/embed/session/${sid}`, headers: { authorization } });
    expect((await ask(`Bearer ${token}`)).statusCode).toBe(200);
    expect((await ask(`bearer  ${token} `)).statusCode).toBe(200);
    const [, secretPart] = token.split('.');
    const wrongSecret = `${sid}.${secretPart.slice(0, -1)}${secretPart.endsWith('A') ? 'B' : 'A'}`;
    for (const authorization of [`Bearer ${wrongSecret}`, `Bearer ${other.token}`, `Bearer ${sid}.short`, token, 'Basic Zm9vOmJhcg==']) {
      const response = await ask(authorization);
      expect(response.statusCode, authorization).toBe(401);
      expect(json(response), authorization).toMatchObject({ success: false, code: 'invalid_session' });
    }
  });

  it('say invalid_session for an unknown session and key_inactive once its key is disabled', async () => {
    const unknown = await service.request({ method: 'GET', url: '/embed/session/nope' });
    expect(unknown.statusCode).toBe(401);
    expect(json(unknown)).toMatchObject({ success: false, code: 'invalid_session' });
    const { sid } = await newSession();
    await service.app.store.setKeyStatus(keyId, 'disabled');
    service.clock.advance(2_000);
    const disabled = await service.request({ method: 'GET', url: `/embed/session/${sid}` });
    await service.app.store.setKeyStatus(keyId, 'active');
    service.clock.advance(2_000);
    expect(disabled.statusCode).toBe(401);
    expect(json(disabled)).toMatchObject({ success: false, code: 'key_inactive' });
  });

  it('say partner_required once the account of the session is no longer a partner', async () => {
    const { sid } = await newSession();
    await service.app.store.setPartner('acme', false);
    const refused = await service.request({ method: 'GET', url: `/embed/session/${sid}` });
    await service.app.store.setPartner('acme', true);
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toMatchObject({ success: false, code: 'partner_required' });
    expect((await service.request({ method: 'GET', url: `/embed/session/${sid}` })).statusCode).toBe(200);
  });

  it('are readable by any page and stored by no cache, refusals included: a malformed sid too', async () => {
    const { sid } = await newSession();
    for (const [url, status] of [[`/embed/session/${sid}`, 200], ['/embed/session/nope', 401], [`/embed/session/${'s'.repeat(65)}`, 422]] as const) {
      const response = await service.request({ method: 'GET', url, headers: { origin: 'https://elsewhere.example' } });
      expect(response.statusCode, url).toBe(status);
      expect(response.headers, url).toMatchObject({ 'access-control-allow-origin': '*', 'cache-control': 'no-store' });
    }
  });
});

describe('static files and tiles', () => {
  it('serves the loader to any origin and the grid table', async () => {
    const loader = await service.request({ method: 'GET', url: '/embed/loc-embed.js' });
    expect(loader.statusCode).toBe(200);
    expect(loader.headers['access-control-allow-origin']).toBe('*');
    const grid = json<{ columns: number[] }>(await service.request({ method: 'GET', url: '/embed/grid.json' }));
    expect(grid.columns).toHaveLength(5148);
  });

  it('draws offline tiles for every style, and 404s a tile address that is not one', async () => {
    for (const style of ['streets', 'satellite', 'traffic', 'biking']) {
      const tile = await service.request({ method: 'GET', url: `/tiles/${style}/2/2/1.png` });
      expect(tile.statusCode, style).toBe(200);
      expect(tile.headers['content-type']).toBe('image/png');
    }
    const bad = await service.request({ method: 'GET', url: '/tiles/streets/2/9/1.png' });
    expect(bad.statusCode).toBe(404);
    expect(json(bad)).toMatchObject({ success: false, code: 'not_found' });
  });

  it('draws no more new tiles than LOC_TILE_RENDERS_PER_SECOND allows: 503 with Retry-After, one warning, cached tiles still served', async () => {
    const lines: string[] = [];
    const limited = await testService({ LOC_TILES: 'offline', LOC_TILE_RENDERS_PER_SECOND: '1', LOC_LOG_LEVEL: 'warn' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      const tile = (x: number) => limited.request({ method: 'GET', url: `/tiles/satellite/4/${x}/6.png` });
      for (let x = 0; x < 10; x++) expect((await tile(x)).statusCode, `tile ${x}`).toBe(200);
      const refused = await tile(10);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(json(refused)).toMatchObject({ success: false, code: 'service_unavailable', message: expect.stringMatching(/at most 1 new map tiles a second/) });
      expect((await tile(11)).statusCode).toBe(503);
      expect((await tile(3)).statusCode).toBe(200);
      limited.clock.advance(1000);
      expect((await tile(10)).statusCode).toBe(200);
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(logged.filter((line) => line.msg.startsWith('offline tile budget spent'))).toHaveLength(1);
      // A refusal the service chose is not a failure: no error line per refused tile.
      expect(logged.filter((line) => line.level >= 50)).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

describe('offline tiles, drawn off the event loop', () => {
  /** Where a tile worker stops when the test holds it: the first statement of drawing a tile. */
  const DRAWING = ['renderTile', /\/tiles\/draw\.ts$/] as const;

  it('leave the API answering while a tile worker is held in the middle of drawing a new tile', async () => {
    const watch = await watchWorkers();
    try {
      expect((await service.request({ method: 'GET', url: '/tiles/streets/1/0/0.png' })).statusCode).toBe(200);
      await watch.breakAt(...DRAWING);
      let answered = false;
      const tile = service.request({ method: 'GET', url: '/tiles/streets/6/32/21.png' }).then((response) => {
        answered = true;
        return response;
      });
      await watch.stopped();
      const lookup = await service.request({ method: 'GET', url: `/v1/loc/lookup/${encode(48.8584, 2.2945).loc_code}`, headers: { 'x-api-key': secret } });
      expect(lookup.statusCode).toBe(200);
      expect((await service.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await service.request({ method: 'GET', url: '/tiles/streets/1/0/0.png' })).statusCode).toBe(200);
      expect(answered, 'the tile answered while its worker was held').toBe(false);
      await watch.release();
      const drawn = await tile;
      expect(drawn.statusCode).toBe(200);
      expect(PNG.sync.read(drawn.rawPayload).width).toBe(256);
    } finally {
      await watch.close();
    }
  });

  it('answer 503 with Retry-After when a worker crashes while drawing, log the cause, draw the next with a new worker, and end with the app', async () => {
    const lines: string[] = [];
    const crashing = await testService({ LOC_TILES: 'offline', LOC_LOG_LEVEL: 'warn' }, { logStream: { write: (line) => void lines.push(line) } });
    const watch = await watchWorkers();
    // The workers of the other services of this file.
    const others = watch.running();
    let closing: Promise<void> | undefined;
    try {
      expect((await crashing.request({ method: 'GET', url: '/tiles/biking/1/1/0.png' })).statusCode).toBe(200);
      await watch.breakAt(...DRAWING);
      const tile = crashing.request({ method: 'GET', url: '/tiles/biking/3/4/2.png' });
      const worker = await watch.stopped();
      await watch.crash(worker, 7);
      const refused = await tile;
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(json(refused)).toMatchObject({ success: false, code: 'service_unavailable', message: 'The map tile could not be drawn this time; retry in 1 s.' });
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } });
      expect(logged.filter((line) => line.level >= 50)).toMatchObject([
        { msg: 'an offline tile worker failed to draw a tile (503); the worker is replaced', err: { message: 'worker exited with code: 7' } },
      ]);
      const again = await crashing.request({ method: 'GET', url: '/tiles/biking/3/4/2.png' });
      expect(again.statusCode).toBe(200);
      const replaced = watch.running().filter((running) => !others.includes(running));
      expect(replaced).not.toContain(worker);
      expect(replaced).toHaveLength(TILE_WORKERS);
      closing = crashing.close();
      await expect.poll(() => watch.running(), { message: 'tile workers still running after the app closed' }).toEqual(others);
      await closing;
    } finally {
      await watch.close();
      if (!closing) await crashing.close();
    }
  });
});
