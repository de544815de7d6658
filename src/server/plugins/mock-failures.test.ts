/**
 * The failure switches of `loc mock`, as an integrator's suite uses them: the built CLI as a child
 * process, failures queued with `--fail` and with `/_mock/failures`, and requests that meet them as a
 * client would — a 429 with Retry-After, an expired session, an unsupported location, a connection
 * that drops.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnLoc, type Spawned } from '../../../test/support/loc-process.ts';

const ORIGIN = 'http://localhost:3000';
const SAUSALITO = { lat: 37.8591, lng: -122.4853, save: false };
const PARIS = { latitude: 48.8584, longitude: 2.2945 };

/** What a request met: an answer, or a connection that dropped without one. */
type Outcome = { status: number; code: string | null; headers: Headers; body: Record<string, unknown> } | 'network';

interface Mock {
  process: Spawned;
  url: string;
  key: string;
  /** A session token of `key` for ORIGIN. */
  token: string;
}

async function startMock(args: string[] = []): Promise<Mock> {
  const started = spawnLoc(['mock', '--port', '0', '--host', '127.0.0.1', ...args], { env: { LOC_LOG_LEVEL: 'warn' } });
  const { url } = await started.ready();
  const key = `loc_test_${randomBytes(32).toString('base64url')}`;
  // Made before any failure can take it: a session is made by a key-authenticated call.
  const created = await fetch(`${url}/v1/embed/sessions`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ origin: ORIGIN }) });
  const token = ((await created.json()) as { session_token?: string }).session_token ?? '';
  return { process: started, url, key, token };
}

async function send(mock: Mock, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(`${mock.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    return 'network';
  }
  const text = await response.text();
  const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  return { status: response.status, code: typeof body.code === 'string' ? body.code : null, headers: response.headers, body };
}

/** The calls whose outcomes the tests compare: one of each kind an integrator makes. */
const requests = {
  lookup: (mock: Mock) => send(mock, '/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': mock.key } }),
  generate: (mock: Mock) => send(mock, '/v1/loc/generate', { headers: { 'x-api-key': mock.key }, body: PARIS }),
  keyResolve: (mock: Mock) => send(mock, '/v1/embed/resolve', { headers: { 'x-api-key': mock.key }, body: SAUSALITO }),
  sessionResolve: (mock: Mock) => send(mock, '/v1/embed/resolve', { headers: { authorization: `Bearer ${mock.token}`, origin: ORIGIN }, body: SAUSALITO }),
};

/** The short form of an outcome: `200`, `429 rate_limited`, `network`. */
const short = (outcome: Outcome): string => (outcome === 'network' ? 'network' : outcome.code === null ? String(outcome.status) : `${outcome.status} ${outcome.code}`);

/** An answer, where the test expects one: a dropped connection fails the test here. */
function answered(outcome: Outcome): Exclude<Outcome, 'network'> {
  if (outcome === 'network') throw new Error('the connection dropped without an answer');
  return outcome;
}

const queue = (mock: Mock, body: unknown) => send(mock, '/_mock/failures', { body });
/** What GET /_mock/failures answers. */
const queued = async (mock: Mock) => answered(await send(mock, '/_mock/failures')).body;

describe('--fail CODE[:N] at start', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock(['--fail', 'rate_limited:2', '--fail', 'network', '--fail', 'session_expired', '--fail', 'unsupported_location']);
  });
  afterAll(() => mock.process.stop());

  it('answers the next requests each failure applies to, in the order given, then as usual', async () => {
    // The session of startMock took the first rate_limited: a session is made with the key.
    expect(mock.token).toBe('');
    const token = await send(mock, '/v1/embed/sessions', { headers: { 'x-api-key': mock.key }, body: { origin: ORIGIN } });
    expect(short(token)).toBe('429 rate_limited');
    expect(short(await requests.lookup(mock))).toBe('network');
    const session = await send(mock, '/v1/embed/sessions', { headers: { 'x-api-key': mock.key }, body: { origin: ORIGIN } });
    expect(short(session)).toBe('200');
    mock.token = answered(session).body.session_token as string;
    // session_expired waits for a call made with a session, unsupported_location for one that hands out a code.
    expect(short(await requests.lookup(mock))).toBe('200');
    expect(short(await requests.generate(mock))).toBe('422 unsupported_location');
    expect(short(await requests.generate(mock))).toBe('200');
    expect(short(await requests.sessionResolve(mock))).toBe('401 session_expired');
    expect(short(await requests.sessionResolve(mock))).toBe('200');
    expect(await queued(mock)).toEqual({ success: true, failures: [] });
  });
});

describe('/_mock/failures', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterEach(() => send(mock, '/_mock/failures', { method: 'DELETE' }));
  afterAll(() => mock.process.stop());

  it('queues a failure: 201 with it, its defaults filled in (times 1, scope all); GET lists them, DELETE clears them (204)', async () => {
    const first = await queue(mock, { code: 'rate_limited' });
    expect(first).toMatchObject({ status: 201, body: { success: true, failure: { code: 'rate_limited', times: 1, scope: 'all' } } });
    await queue(mock, { code: 'network', times: 3, scope: 'embed' });
    expect(await queued(mock)).toEqual({
      success: true,
      failures: [{ code: 'rate_limited', times: 1, scope: 'all' }, { code: 'network', times: 3, scope: 'embed' }],
    });
    const cleared = await send(mock, '/_mock/failures', { method: 'DELETE' });
    expect(cleared).toMatchObject({ status: 204, body: {} });
    expect(await queued(mock)).toEqual({ success: true, failures: [] });
    expect(short(await requests.lookup(mock))).toBe('200');
  });

  it('refuses a bad body with the catalogue’s validation_error naming the field, and a body that is not JSON', async () => {
    const bad: [unknown, string][] = [
      [{}, 'code'], [{ code: 'teapot' }, 'code'], [{ code: 'network', times: 0 }, 'times'], [{ code: 'network', times: 1.5 }, 'times'],
      [{ code: 'network', scope: 'frame' }, 'scope'], [{ code: 'network', when: 'now' }, 'when'],
    ];
    for (const [body, field] of bad) {
      const answer = await queue(mock, body);
      expect(answer).toMatchObject({ status: 422, code: 'validation_error', body: { field } });
    }
    const notJson = await fetch(`${mock.url}/_mock/failures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code":' });
    expect(notJson.status).toBe(400);
    expect(await queued(mock)).toEqual({ success: true, failures: [] });
  });

  it('rate_limited: 429 with Retry-After and the limit headers, as the limiter answers, for `times` requests of its scope', async () => {
    await queue(mock, { code: 'rate_limited', times: 2, scope: 'api' });
    const refused = answered(await requests.lookup(mock));
    expect(short(refused)).toBe('429 rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.body).toMatchObject({ success: false, message: expect.any(String), error: expect.any(String) });
    // A map click is not in the scope `api`.
    expect(short(await requests.sessionResolve(mock))).toBe('200');
    expect(short(await requests.generate(mock))).toBe('429 rate_limited');
    expect(short(await requests.lookup(mock))).toBe('200');
  });

  it('session_expired: only calls made with a session meet it, as an expired session answers', async () => {
    await queue(mock, { code: 'session_expired', times: 2 });
    expect(short(await requests.keyResolve(mock))).toBe('200');
    expect(short(await requests.lookup(mock))).toBe('200');
    expect(short(await requests.sessionResolve(mock))).toBe('401 session_expired');
    expect(short(await requests.sessionResolve(mock))).toBe('401 session_expired');
    expect(short(await requests.sessionResolve(mock))).toBe('200');
  });

  it('invalid_session: only calls made with a session, answered as the service answers a token it does not know', async () => {
    const real = answered(await send(mock, '/v1/embed/resolve', { headers: { authorization: 'Bearer sid_unknown.secret', origin: ORIGIN }, body: SAUSALITO }));
    await queue(mock, { code: 'invalid_session' });
    expect(short(await requests.lookup(mock))).toBe('200');
    expect(short(await requests.keyResolve(mock))).toBe('200');
    const refused = answered(await requests.sessionResolve(mock));
    expect(short(refused)).toBe('401 invalid_session');
    expect(Object.keys(refused.body).sort()).toEqual(Object.keys(real.body).sort());
    const queued = (text: unknown) => `${text as string} (loc mock: a queued failure)`;
    expect(refused.body).toEqual({ ...real.body, message: queued(real.body.message), error: queued(real.body.error) });
    expect(short(await requests.sessionResolve(mock))).toBe('200');
  });

  it('key_inactive: calls made with the key and with its sessions, each with the message the service gives it', async () => {
    await queue(mock, { code: 'key_inactive', times: 2 });
    const byKey = answered(await requests.lookup(mock));
    expect(short(byKey)).toBe('401 key_inactive');
    expect(byKey.body).toMatchObject({ success: false, message: expect.stringMatching(/^The API key \S+ is disabled\. \(loc mock: a queued failure\)$/) });
    const bySession = answered(await requests.sessionResolve(mock));
    expect(short(bySession)).toBe('401 key_inactive');
    expect(bySession.body.message).toBe('The API key that created this session is disabled. (loc mock: a queued failure)');
    expect(short(await requests.lookup(mock))).toBe('200');
  });

  it('unsupported_location: only resolve and generate, with a valid body; scope embed takes resolve alone', async () => {
    await queue(mock, { code: 'unsupported_location', scope: 'embed' });
    expect(short(await requests.generate(mock))).toBe('200');
    expect(short(await requests.lookup(mock))).toBe('200');
    // A body the real service refuses is refused first, and the failure waits.
    expect(short(await send(mock, '/v1/embed/resolve', { headers: { 'x-api-key': mock.key }, body: { lat: 91, lng: 0 } }))).toBe('422 validation_error');
    const failed = await requests.keyResolve(mock);
    expect(short(failed)).toBe('422 unsupported_location');
    expect(short(await requests.keyResolve(mock))).toBe('200');
    await queue(mock, { code: 'unsupported_location', scope: 'api' });
    expect(short(await requests.sessionResolve(mock))).toBe('200');
    expect(short(await requests.generate(mock))).toBe('422 unsupported_location');
  });

  it('outside_session_area: only the map frame’s resolve, made with a session, with a valid body', async () => {
    await queue(mock, { code: 'outside_session_area' });
    expect(short(await requests.keyResolve(mock))).toBe('200');
    expect(short(await requests.generate(mock))).toBe('200');
    expect(short(await requests.sessionResolve(mock))).toBe('422 outside_session_area');
    expect(short(await requests.sessionResolve(mock))).toBe('200');
  });

  it('network: the connection drops without an answer, for `times` requests of its scope', async () => {
    await queue(mock, { code: 'network', times: 2, scope: 'embed' });
    expect(short(await requests.lookup(mock))).toBe('200');
    expect(short(await requests.sessionResolve(mock))).toBe('network');
    expect(short(await requests.keyResolve(mock))).toBe('network');
    expect(short(await requests.sessionResolve(mock))).toBe('200');
  });

  it('network: while a drop is queued, every answer closes its connection, so that a browser cannot resend the dropped request on a connection it reuses', async () => {
    const keepsAlive = async () => ((await requests.lookup(mock)) as Exclude<Outcome, 'network'>).headers.get('connection');
    expect(await keepsAlive()).toBe('keep-alive');
    await queue(mock, { code: 'network', scope: 'embed' });
    expect(await keepsAlive()).toBe('close');
    expect(short(await requests.sessionResolve(mock))).toBe('network');
    expect(await keepsAlive()).toBe('keep-alive');
  });

  it('takes no request without an accepted key or session: the real refusal comes first', async () => {
    await queue(mock, { code: 'network' });
    expect(short(await send(mock, '/v1/loc/lookup/FR-0RMB-CLY0'))).toBe('401 missing_api_key');
    expect(short(await send(mock, '/healthz'))).toBe('200');
    expect(await queued(mock)).toEqual({ success: true, failures: [{ code: 'network', times: 1, scope: 'all' }] });
    expect(short(await requests.lookup(mock))).toBe('network');
  });
});
