/**
 * The frame's session against the real service on a real database: its fetches are answered in
 * process by the service under test, as the service would answer the frame's origin. The service's
 * clock ends a session early; a key's session limit spends one.
 */
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FrameConfig } from '../src/embed/protocol.ts';
import { frameConfig } from '../src/server/embed/frame-page.ts';
import { json, testService, type TestService } from '../test/support/service.ts';
import { EmbedFailure } from './api.ts';
import { SESSION_ENDED, startSession, type Session, type SessionOptions } from './session.ts';

const ORIGIN = 'https://shop.example';
const EIFFEL_TOWER = { lat: 48.8584, lng: 2.2945 };

let service: TestService;
let keySecret: string;
let spentKeySecret: string;
const started: Session[] = [];

beforeAll(async () => {
  service = await testService();
  ({ secret: keySecret } = await service.key('session-frame'));
  ({ secret: spentKeySecret } = await service.key('session-frame-spent', { sessionLimit: 1 }));
});
afterAll(() => service.close());

afterEach(() => {
  started.splice(0).forEach((session) => session.stop());
  vi.unstubAllGlobals();
});

/** The frame's fetch, answered by the service under test; a POST carries the frame's origin, as a browser's does. */
function fetchFromService(input: string, init: RequestInit = {}): Promise<Response> {
  init.signal?.throwIfAborted();
  const url = new URL(input);
  const method = (init.method ?? 'GET') as 'GET' | 'POST';
  const headers = { ...(init.headers as Record<string, string>), ...(method === 'GET' ? {} : { origin: url.origin }) };
  return service.request({ method, url: url.pathname + url.search, headers, payload: init.body as string | undefined }).then(
    (answer) => new Response(answer.body, { status: answer.statusCode, headers: Object.entries(answer.headers).map(([name, value]): [string, string] => [name, String(value)]) }),
  );
}

/** A session made with the API, as the partner's server makes one: its token, and the config of its frame page. */
async function newSession(secret = keySecret): Promise<{ token: string; config: FrameConfig }> {
  const answer = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: ORIGIN } });
  const token = json<{ session_token: string }>(answer).session_token;
  const stored = (await service.app.store.getSession(token.slice(0, token.indexOf('.'))))!;
  const config = frameConfig({
    apiBase: service.config.publicUrl,
    origin: stored.origin,
    sid: stored.sid,
    expiresAt: new Date(stored.expiresAt),
    secretHash: stored.secretHash,
    styles: service.app.embedStyles,
    now: new Date(service.clock.now()),
  });
  return { token, config };
}

/** Starts the frame's session as init does, for a session made with the API (with `secret`, the key's). */
async function start({ secret, ...options }: Partial<SessionOptions> & { secret?: string } = {}) {
  vi.stubGlobal('fetch', fetchFromService);
  const { token, config } = await newSession(secret);
  const onExpired = vi.fn();
  const session = startSession(config, { token, skew: skewOf(config), onExpired, ...options });
  started.push(session);
  return { session, token, onExpired };
}

/** As the frame reads it when it starts: the service's clock against this one. */
const skewOf = (config: FrameConfig) => Date.parse(config.now) - Date.now();

/** What `getSessionToken` does on a partner's page: a new session from their server. */
const renewFromPartner = (secret = keySecret) => vi.fn(async () => (await newSession(secret)).token);

const signal = () => new AbortController().signal;
const DAY_MS = 24 * 3_600_000;

describe('the frame’s session', () => {
  it('looks a point up with its token', async () => {
    const { session } = await start();
    const result = await session.resolve(EIFFEL_TOWER, false, signal());
    expect(result).toMatchObject({ success: true, country_code: 'FR', saved: false });
    expect(result.loc_code).toMatch(/^FR-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(session.isOver()).toBe(false);
  });

  it('renews once through the page when the service ends the session early, and looks the point up with the new token', async () => {
    const renew = renewFromPartner();
    const { session, token } = await start({ renew });
    service.clock.advance(DAY_MS);
    try {
      const result = await session.resolve(EIFFEL_TOWER, true, signal());
      expect(result).toMatchObject({ success: true, saved: true });
      expect(renew).toHaveBeenCalledTimes(1);
      // The old token stays refused; the next lookup goes with the new one, without renewing again.
      const old = await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${token}` }, payload: EIFFEL_TOWER });
      expect(json(old).code).toBe('session_expired');
      await session.resolve(EIFFEL_TOWER, false, signal());
      expect(renew).toHaveBeenCalledTimes(1);
    } finally {
      service.clock.advance(-DAY_MS);
    }
  });

  it('ends, and says so once, when the service ended the session and nothing can renew it', async () => {
    const { session, onExpired } = await start();
    service.clock.advance(DAY_MS);
    try {
      await expect(session.resolve(EIFFEL_TOWER, false, signal())).rejects.toBe(SESSION_ENDED);
      expect(onExpired).toHaveBeenCalledTimes(1);
      expect(onExpired).toHaveBeenCalledWith(undefined);
      expect(session.isOver()).toBe(true);
    } finally {
      service.clock.advance(-DAY_MS);
    }
  });

  it('says why the page’s renewal failed when the session ends: a session for another origin', async () => {
    const other = await service.key('session-frame-other', { origins: ['http://localhost:3000'] });
    const renew = vi.fn(async () => {
      const answer = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': other.secret }, payload: { origin: 'http://localhost:3000' } });
      return json<{ session_token: string }>(answer).session_token;
    });
    const { session, onExpired } = await start({ renew });
    service.clock.advance(DAY_MS);
    try {
      await expect(session.resolve(EIFFEL_TOWER, false, signal())).rejects.toBe(SESSION_ENDED);
      expect(onExpired).toHaveBeenCalledTimes(1);
      expect((onExpired.mock.calls[0][0] as Error).message).toBe(`The new session is for http://localhost:3000, this map's for ${ORIGIN}.`);
    } finally {
      service.clock.advance(-DAY_MS);
    }
  });

  it('passes on the service’s session_limit_reached when a spent session cannot be renewed, and goes on', async () => {
    const { session, onExpired } = await start({ secret: spentKeySecret });
    await session.resolve(EIFFEL_TOWER, false, signal());
    const refused = await session.resolve(EIFFEL_TOWER, false, signal()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmbedFailure);
    expect((refused as EmbedFailure).toJSON()).toMatchObject({ code: 'session_limit_reached', recoverable: false });
    expect(onExpired).not.toHaveBeenCalled();
    expect(session.isOver()).toBe(false);
  });

  it('replaces a spent session through the page, and looks the point up with the new one', async () => {
    const renew = renewFromPartner(spentKeySecret);
    const { session } = await start({ secret: spentKeySecret, renew });
    await session.resolve(EIFFEL_TOWER, false, signal());
    await expect(session.resolve(EIFFEL_TOWER, false, signal())).resolves.toMatchObject({ success: true });
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it('finds its own token good, in Web Crypto and, without it, by asking the service', async () => {
    const { session } = await start();
    await expect(session.verify()).resolves.toBeUndefined();
    vi.stubGlobal('crypto', {});
    await expect(session.verify()).resolves.toBeUndefined();
  });

  it('finds a token whose secret is not the session’s: invalid_session, in Web Crypto and by the service', async () => {
    const { token, config } = await newSession();
    vi.stubGlobal('fetch', fetchFromService);
    const mangled = startSession(config, { token: `${token}x`, skew: skewOf(config), onExpired: vi.fn() });
    started.push(mangled);
    expect((await mangled.verify())?.toJSON()).toEqual({ code: 'invalid_session', message: 'The session token is not this session’s.', recoverable: false });
    vi.stubGlobal('crypto', {});
    expect((await mangled.verify())?.toJSON()).toMatchObject({ code: 'invalid_session', recoverable: false });
  });

  it('does not hold the map back when the token cannot be checked: the service is unreachable', async () => {
    const { token, config } = await newSession();
    vi.stubGlobal('crypto', {});
    // A port that was just free and is closed again: the frame's real fetch is refused, as offline.
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const unreachable = startSession({ ...config, apiBase: `http://127.0.0.1:${port}` }, { token, skew: skewOf(config), onExpired: vi.fn() });
    started.push(unreachable);
    await expect(unreachable.verify()).resolves.toBeUndefined();
  });
});
