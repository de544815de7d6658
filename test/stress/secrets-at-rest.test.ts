/**
 * Secrets at rest: after traffic that puts API keys and session tokens everywhere a client might —
 * headers, query strings, paths, malformed requests, wrong keys shaped like real ones — neither the
 * database files (loc.db, its WAL and shared memory, while the server runs and after it stopped, and a
 * `loc backup` copy) nor the server's logs, captured at `trace`, hold a key, a token or a token's
 * secret: not whole, not without its `loc_` prefix. As a control, the database does hold each key's
 * SHA-256, and the logs do hold the requests (with `[redacted]` where a secret was).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, newApiKey } from '../../src/auth/secrets.ts';
import { runCli } from '../support/cli.ts';
import { SpawnedServer, dispose, ensureBuilt, seedDataDir } from './harness.ts';
import { rawRequest } from './raw-http.ts';

let server: SpawnedServer;
let dataDir: string;
/** Every secret the traffic carried, real or not. */
const secrets: string[] = [];
let keys: string[];

/** The files of the data directory, as bytes, by name. */
const dataFiles = (): Map<string, Buffer> =>
  new Map(readdirSync(dataDir).map((name) => [name, readFileSync(join(dataDir, name))]));

/** Each secret, and the part that is secret on its own (a key without `loc_`, a token's secret). */
const needles = (): string[] => secrets.flatMap((secret) => {
  if (secret.startsWith('loc_')) return [secret, secret.slice(4)];
  const dot = secret.indexOf('.');
  return dot > 0 ? [secret, secret.slice(dot + 1)] : [secret];
});

beforeAll(async () => {
  ensureBuilt();
  const seeded = await seedDataDir([{ account: 'acme' }, { account: 'beta', partner: false }]);
  dataDir = seeded.dataDir;
  keys = seeded.keys.map((key) => key.secret);
  const wrongKey = newApiKey();
  secrets.push(...keys, wrongKey);
  server = await SpawnedServer.start(dataDir, { LOC_LOG_LEVEL: 'trace' });

  const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
  const percentEncoded = (text: string): string => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  const json = (key: string, body: unknown): RequestInit => ({
    method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const tokens: string[] = [];
  for (let i = 0; i < 2; i++) {
    const created = await call('/v1/embed/sessions', json(keys[0], { origin: 'https://shop.example' }));
    tokens.push(((await created.json()) as { session_token: string }).session_token);
  }
  secrets.push(...tokens);
  const [key, other] = keys;
  const [token] = tokens;
  const tokenSecret = token.split('.')[1];

  await call('/v1/loc/generate', json(key, { latitude: 48.8584, longitude: 2.2945, label: 'Tower', address: 'Champ de Mars' }));
  await call('/v1/embed/resolve', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"lat":48.85,"lng":2.29,"save":true}' });
  await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': other, referer: `https://shop.example/?key=${key}` } });
  await call('/v1/loc/lookup/FR-0RMB-CLY0', { headers: { 'x-api-key': wrongKey } });
  // Secrets where they do not belong: query strings, paths, the wrong header, the share page.
  for (const path of [
    `/v1/loc/lookup/FR-0RMB-CLY0?api_key=${key}`, `/v1/loc/lookup/FR-0RMB-CLY0?q=${key}`, `/v1/loc/lookup/${key}`, `/${key}`,
    `/v1/loc/lookup/FR-0RMB-CLY0?session=${token}`, `/embed/frame/${token}`, `/embed/session/${token}`, `/${token}`,
    `/embed/session/${tokenSecret}`, `/v1/loc/lookup/${key.slice(4)}`, `/healthz?token=${tokenSecret}`,
    // Percent-encoded: no run of the raw URL is shaped like a secret, the decoded one is the secret.
    `/v1/loc/lookup/${percentEncoded(key)}`, `/${percentEncoded(token)}`, `/healthz?q=${percentEncoded(tokenSecret)}`,
  ]) {
    await call(path, { headers: { 'x-api-key': key } });
  }
  await call('/v1/embed/resolve', { method: 'POST', headers: { 'x-api-key': token, 'content-type': 'application/json' }, body: '{"lat":1,"lng":2}' });
  await call('/v1/loc/generate', json(key, { latitude: 'not a number', longitude: 2 }));
  // Requests the HTTP parser refuses, a secret in their bytes.
  await rawRequest(server.port, { method: 'GET', target: '/healthz', headers: [['x-api-key', key], ['x-bad', 'a\u0001b']] });
  await rawRequest(server.port, { method: 'GET', target: `/v1/loc/lookup/${key} x`, headers: [['authorization', `Bearer ${token}`]] });
});
afterAll(() => dispose(server, dataDir));

describe('secrets at rest', () => {
  it('the running database holds the SHA-256 of each key, never a key or a token', () => {
    const files = dataFiles();
    // The database, and the server's lock (its pid).
    expect([...files.keys()].sort()).toEqual(['loc.db', 'loc.db-shm', 'loc.db-wal', 'server.pid']);
    const bytes = Buffer.concat([...files.values()]);
    for (const key of keys) expect(bytes.includes(hashSecret(key)), 'the hash of a key').toBe(true);
    for (const needle of needles()) expect(bytes.includes(needle), `a secret in the data directory: ${needle.slice(0, 8)}…`).toBe(false);
  });

  it('the logs, at trace level, hold every request but no key and no token', async () => {
    // A request's line is written once its response is out, so the last ones may still be on their way:
    // the last requests sent were the two the parser refused.
    await expect.poll(() => server.output().match(/"msg":"request refused before routing"/g)?.length ?? 0).toBe(2);
    const log = server.output();
    expect(log.match(/"msg":"request"/g)?.length).toBeGreaterThanOrEqual(18);
    expect(log).toContain('[redacted]');
    for (const needle of needles()) expect(log.includes(needle), `a secret in the logs: ${needle.slice(0, 8)}…`).toBe(false);
    const decoded = log.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1'));
    for (const needle of needles()) expect(decoded.includes(needle), `a percent-encoded secret in the logs: ${needle.slice(0, 8)}…`).toBe(false);
  });

  it('neither does the database once the server stopped, nor a backup of it', async () => {
    expect((await server.stop()).code).toBe(0);
    const backup = join(dataDir, 'backup.db');
    expect((await runCli({ LOC_DATA_DIR: dataDir }, 'backup', backup)).code).toBe(0);
    const bytes = Buffer.concat([...dataFiles().values()]);
    for (const key of keys) expect(bytes.includes(hashSecret(key))).toBe(true);
    for (const needle of needles()) expect(bytes.includes(needle), `a secret at rest: ${needle.slice(0, 8)}…`).toBe(false);
    for (const needle of needles()) expect(server.output().includes(needle), `a secret in the shutdown logs: ${needle.slice(0, 8)}…`).toBe(false);
  });
});
