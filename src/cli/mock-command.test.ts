/**
 * `loc mock` as integrators run it in CI: the built CLI as a child process. What only the mock does —
 * the key it prints, any test key for any page on this machine, live keys refused, nothing on disk,
 * offline tiles, and the failure switches by flag and by endpoint; the flags refused before it starts
 * are checked in-process (test/support/cli.ts). What it shares with `loc serve` is checked by the
 * contract suite (test/contract/).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.ts';
import { freePort, spawnLoc, type Spawned } from '../../test/support/loc-process.ts';

const newKey = (): string => `loc_test_${randomBytes(32).toString('base64url')}`;

interface Mock {
  process: Spawned;
  url: string;
}

async function startMock(args: string[] = [], env: Record<string, string> = {}): Promise<Mock> {
  const started = spawnLoc(['mock', '--host', '127.0.0.1', ...args], { env: { LOC_LOG_LEVEL: 'warn', ...env } });
  return { process: started, url: (await started.ready()).url };
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

function client(mock: () => Mock) {
  return async (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> => {
    const response = await fetch(`${mock().url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  };
}

const SAUSALITO = { lat: 37.8591, lng: -122.4853, save: false };
const PARIS = { latitude: 48.8584, longitude: 2.2945 };

describe('keys and origins', () => {
  let mock: Mock;
  const call = client(() => mock);
  beforeAll(async () => {
    mock = await startMock(['--port', '0']);
  });
  afterAll(() => mock.process.stop());

  it('prints a test key that works, the URL and how to use it', async () => {
    const key = /test key +(loc_test_[\w-]+)/.exec(mock.process.output())?.[1];
    expect(key).toBeDefined();
    expect(mock.process.output()).toMatch(/curl -s http:\/\/localhost:\d+\/v1\/loc\/lookup\/\S+ -H 'x-api-key: loc_test_/);
    // The mock keeps no users: no panel to point to, and none served.
    expect(mock.process.output()).not.toContain('/panel');
    expect((await call('/panel/sign-in')).status).toBe(404);
    const answer = await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': key! } });
    expect(answer.status).toBe(200);
    expect(answer.body.loc_code).toBe('FR-0RMB-CLY0');
  });

  it('refuses a live key with 401 invalid_api_key that says it takes test keys only', async () => {
    const answer = await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': `loc_${randomBytes(32).toString('base64url')}` } });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'invalid_api_key', message: expect.stringContaining('test keys only') });
  });

  it('keeps each test key apart: a label saved with one is not seen with another', async () => {
    const [mine, theirs] = [newKey(), newKey()];
    await call('/v1/loc/generate', { headers: { 'x-api-key': mine }, body: { ...PARIS, label: 'mine' } });
    const own = await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': mine } });
    const other = await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': theirs } });
    expect((own.body.location as { label: unknown }).label).toBe('mine');
    expect((other.body.location as { label: unknown }).label).toBeNull();
  });

  it('makes sessions for pages on this machine, any port, each framed only by its own origin', async () => {
    const key = newKey();
    for (const origin of ['http://localhost:1234', 'http://localhost:65000', 'https://localhost:8443', 'https://127.0.0.1:4443']) {
      const created = await call('/v1/embed/sessions', { headers: { 'x-api-key': key }, body: { origin } });
      expect(created.status).toBe(200);
      const token = created.body.session_token as string;
      const resolved = await call('/v1/embed/resolve', { headers: { authorization: `Bearer ${token}`, origin }, body: SAUSALITO });
      expect(resolved.status).toBe(200);
      const frame = await fetch(`${mock.url}/embed/frame/${token.split('.')[0]}`);
      expect(frame.headers.get('content-security-policy')).toContain(`frame-ancestors ${origin}`);
    }
  });

  it('takes the key from a page on this machine (any loopback Origin), refuses it from elsewhere', async () => {
    const key = newKey();
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      expect((await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': key, origin } })).status).toBe(200);
    }
    const elsewhere = await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': key, origin: 'https://shop.example' } });
    expect(elsewhere.body.code).toBe('origin_not_allowed');
  });

  it('refuses a session for any other origin with 403 origin_not_allowed', async () => {
    for (const origin of ['https://shop.example', 'https://localhost.example']) {
      const answer = await call('/v1/embed/sessions', { headers: { 'x-api-key': newKey() }, body: { origin } });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'origin_not_allowed', field: 'origin', message: expect.stringContaining('this machine only') });
    }
  });

  it('draws map tiles itself', async () => {
    const tile = await fetch(`${mock.url}/tiles/streets/1/0/0.png`);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('image/png');
  });
});

describe('the start', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loc-mock-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('writes nothing to disk: no data directory, no lock; two mocks run on one LOC_DATA_DIR', async () => {
    const dataDir = join(dir, 'data');
    const env = { LOC_DATA_DIR: dataDir, LOC_TILES: 'online' };
    const [first, second] = await Promise.all([startMock(['--port', '0'], env), startMock(['--port', '0'], env)]);
    const key = newKey();
    for (const mock of [first, second]) {
      const saved = await fetch(`${mock.url}/v1/loc/generate`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(PARIS) });
      expect(saved.status).toBe(200);
      // LOC_TILES=online in its environment changes nothing: the mock draws its tiles.
      expect((await fetch(`${mock.url}/tiles/streets/0/0/0.png`)).headers.get('content-type')).toBe('image/png');
    }
    await Promise.all([first.process.stop(), second.process.stop()]);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('listens on PORT, and on the given --key, which it prints', async () => {
    const port = await freePort();
    const key = newKey();
    const mock = await startMock(['--key', key], { PORT: String(port) });
    try {
      expect(new URL(mock.url).port).toBe(String(port));
      expect(mock.process.output()).toContain(`test key   ${key}`);
    } finally {
      await mock.process.stop();
    }
  });

  it('refuses a live --key without printing it, and a bad --fail, exit 2', async () => {
    const live = `loc_${randomBytes(32).toString('base64url')}`;
    expect(await runCli({}, 'mock', '--port', '0', '--key', live)).toEqual({
      code: 2, stdout: '', stderr: `error: --key must be a test key: loc_test_ and 31 to 91 letters, digits, "-" or "_", received a live key. (see --help)\n`,
    });
    expect(await runCli({}, 'mock', '--port', '0', '--fail', 'teapot:3')).toEqual({
      code: 2, stdout: '',
      stderr: 'error: --fail must be CODE or CODE:N, CODE one of rate_limited, session_expired, invalid_session, key_inactive, unsupported_location, outside_session_area, network and N from 1 to 10000, received "teapot:3". (see --help)\n',
    });
  });

  it('refuses to listen beyond this machine, by --host or HOST, without --expose-unsafely (exit 2, one line)', async () => {
    const refusal = (host: string, from: string) => ({
      code: 2, stdout: '',
      stderr: `error: ${from} ${host} would let other machines reach the mock, and anyone reaching it can switch its failures (/_mock/failures): listen on localhost, 127.0.0.1 or ::1, or add --expose-unsafely for a network you trust (never production). (see --help)\n`,
    });
    const [any, six, lan, named, env] = await Promise.all([
      runCli({}, 'mock', '--port', '0', '--host', '0.0.0.0'),
      runCli({}, 'mock', '--port', '0', '--host', '::'),
      runCli({}, 'mock', '--port', '0', '--host', '192.168.1.20'),
      runCli({}, 'mock', '--port', '0', '--host', 'ci-runner.example'),
      runCli({ HOST: '0.0.0.0' }, 'mock', '--port', '0'),
    ]);
    expect(any).toEqual(refusal('0.0.0.0', '--host'));
    expect(six).toEqual(refusal('::', '--host'));
    expect(lan).toEqual(refusal('192.168.1.20', '--host'));
    expect(named).toEqual(refusal('ci-runner.example', '--host'));
    expect(env).toEqual(refusal('0.0.0.0', 'HOST'));
  });

  it('listens on every interface with --expose-unsafely, saying on stderr that it is not for production', async () => {
    const started = spawnLoc(['mock', '--host', '0.0.0.0', '--port', '0', '--expose-unsafely'], { env: { LOC_LOG_LEVEL: 'warn' } });
    try {
      const { url } = await started.ready();
      expect((await fetch(`${url}/_mock/failures`)).status).toBe(200);
      expect(started.output()).toContain('warning: the mock listens on 0.0.0.0: any machine that reaches it can use it and switch its failures (/_mock/failures). Not for production.');
    } finally {
      await started.stop();
    }
  });
});
