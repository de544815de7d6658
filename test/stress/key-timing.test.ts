/**
 * Does the time to refuse a wrong API key depend on how many of its leading characters are right?
 *
 * The guarantee is structural (review note in docs/stress.md): a presented key is hashed with SHA-256
 * and looked up by that hash through an index; it is never compared with a stored secret, so no
 * comparison could stop early at the first wrong character, and a matching prefix of the key says
 * nothing about the hash. The first test proves that structure on the real app: the store is only
 * ever asked for the hash of what was presented, and no call to it carries the key.
 *
 * The second is a statistical check over the real request path, in-process (no socket noise):
 * interleaved trials of fresh wrong keys that share only `loc_`, or 30 leading characters, with a
 * real key, whose median times must lie within 25 % of each other. It catches a gross dependence — an early exit, a
 * different path for a near miss — on a noisy two-core machine without flaking; a difference of a few
 * nanoseconds is below its reach, and is what the hashing rules out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/auth/keys.ts';
import { hashSecret, newApiKey } from '../../src/auth/secrets.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite.ts';
import type { Store } from '../../src/store/store.ts';
import { scale } from './harness.ts';

const LOOKUP = '/v1/loc/lookup/FR-0RMB-CLY0';
const TRIALS = scale(2_000, 20_000);
const SHARED = 30;

let dataDir: string;
let app: FastifyInstance;
let key: string;
/** Every call that reached the store behind the request cache: method name and arguments. */
const calls: unknown[][] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-timing-'));
  const real = openSqliteStore(dataDir);
  const recording = new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (...args: unknown[]) => (calls.push([name, ...args]), value.apply(target, args)) : value;
    },
  }) as Store;
  const account = await real.createAccount({ name: 'acme', partner: true, createdAt: Date.now() });
  ({ secret: key } = await issueKey(real, { accountId: account.id, hourlyLimit: 1_000_000_000, createdAt: Date.now() }));
  app = await buildApp(loadConfig({ LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'silent' }), { store: recording });
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A fresh wrong key whose first `shared` characters are the real key's. */
const wrongKey = (shared: number): string => {
  let wrong: string;
  do wrong = key.slice(0, shared) + newApiKey().slice(shared);
  while (wrong === key);
  return wrong;
};

const lookupWith = (presented: string) => app.inject({ url: LOOKUP, headers: { 'x-api-key': presented } });

describe('a wrong API key', () => {
  it('is looked up by its SHA-256 only: no store call ever carries a presented key', async () => {
    const near = wrongKey(SHARED);
    calls.length = 0;
    expect((await lookupWith(near)).statusCode).toBe(401);
    expect((await lookupWith(key)).statusCode).toBe(200);
    expect(calls.filter(([name]) => name === 'findKeyByHash')).toEqual([['findKeyByHash', hashSecret(near)], ['findKeyByHash', hashSecret(key)]]);
    const sent = JSON.stringify(calls);
    for (const secret of [near, key, near.slice(4), key.slice(4)]) expect(sent).not.toContain(secret);
  });

  it(`takes as long to refuse a key with only "loc_" right as one with its first ${SHARED} characters right (medians of ${TRIALS} interleaved trials each)`, async () => {
    for (let i = 0; i < 300; i++) await lookupWith(wrongKey(i % 2 === 0 ? 0 : SHARED));
    const times: Record<'far' | 'near', number[]> = { far: [], near: [] };
    for (let i = 0; i < 2 * TRIALS; i++) {
      // Interleaved in a random order, so that drift and other processes weigh on both alike.
      const kind = times.far.length === TRIALS ? 'near' : times.near.length === TRIALS ? 'far' : Math.random() < 0.5 ? 'far' : 'near';
      const presented = wrongKey(kind === 'far' ? 4 : SHARED);
      const started = process.hrtime.bigint();
      const response = await lookupWith(presented);
      times[kind].push(Number(process.hrtime.bigint() - started) / 1000);
      expect(response.statusCode).toBe(401);
    }
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const far = median(times.far);
    const near = median(times.near);
    console.log(`wrong-key timing: median ${far.toFixed(1)} µs sharing only "loc_", ${near.toFixed(1)} µs sharing ${SHARED} characters (${TRIALS} trials each)`);
    expect(Math.abs(far - near) / Math.min(far, near)).toBeLessThan(0.25);
  }, scale(30_000, 120_000));
});
