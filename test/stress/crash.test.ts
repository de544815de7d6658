/**
 * Crash durability: writers issue `generate` (with a label and an address) and `resolve` with
 * `save: true` (with the key and with an embed session) as fast as they can, while the built server is
 * killed with SIGKILL at a random moment; then it is started again on the same data directory. Every
 * write that had been answered 2xx — before the kill or in the bytes still on their way — must be found
 * again: by lookup, with its label and address, and as a row of the account; the database must pass
 * `PRAGMA integrity_check`; the session must still work. One cycle in `npm test`, three under
 * `npm run stress`, each on the data the previous ones left.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src/store/sqlite/sqlite-files.ts';
import { SpawnedServer, stormUntilKilled, dispose, ensureBuilt, scale, seedDataDir, type SeededKey } from './harness.ts';

const CYCLES = scale(1, 3);
/** Readers checking the acknowledged writes, as many as the storm's writers. */
const WRITERS = 16;

interface Ack {
  code: string;
  via: 'generate' | 'resolve with key' | 'resolve with session';
  label: string | null;
  address: string | null;
}

let dataDir: string;
let key: SeededKey;
let server: SpawnedServer;
/** Every write answered 2xx, over all cycles. */
const acks: Ack[] = [];
/** The n-th write gets the n-th point: each in its own cell, all in France. */
let written = 0;

beforeAll(async () => {
  ensureBuilt();
  const seeded = await seedDataDir([{ account: 'acme' }]);
  dataDir = seeded.dataDir;
  [key] = seeded.keys;
  server = await SpawnedServer.start(dataDir);
});
afterAll(() => dispose(server, dataDir));

const post = (path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** One write; resolves with its acknowledgement, or null when it was not answered 2xx. */
async function write(token: string): Promise<Ack | null> {
  const n = written++;
  const latitude = 44 + Math.floor(n / 1000) * 0.01;
  const longitude = 1 + (n % 1000) * 0.003;
  const label = `crash ${n}`;
  const address = `${n} rue du Crash, ${'ü'.repeat(n % 7)} Lyon`;
  try {
    switch (n % 3) {
      case 0: {
        const response = await post('/v1/loc/generate', { 'x-api-key': key.secret }, { latitude, longitude, label, address });
        const body = (await response.json()) as { loc_code: string; is_existing: boolean };
        return response.ok && !body.is_existing ? { code: body.loc_code, via: 'generate', label, address } : null;
      }
      case 1: {
        const response = await post('/v1/embed/resolve', { 'x-api-key': key.secret }, { lat: latitude, lng: longitude, save: true });
        const body = (await response.json()) as { loc_code: string };
        return response.ok ? { code: body.loc_code, via: 'resolve with key', label: null, address: null } : null;
      }
      default: {
        const response = await post('/v1/embed/resolve', { authorization: `Bearer ${token}` }, { lat: latitude, lng: longitude, save: true });
        const body = (await response.json()) as { loc_code: string };
        return response.ok ? { code: body.loc_code, via: 'resolve with session', label: null, address: null } : null;
      }
    }
  } catch {
    // The connection died with the server: not acknowledged.
    return null;
  }
}

/** Every acknowledged write is there: lookup shows its label and address, the account has its row. */
async function verify(): Promise<void> {
  const pending = [...acks];
  const failures: string[] = [];
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    for (let ack = pending.pop(); ack !== undefined; ack = pending.pop()) {
      const response = await fetch(`${server.url}/v1/loc/lookup/${ack.code}`, { headers: { 'x-api-key': key.secret } });
      const body = (await response.json()) as { location?: { label: string | null; address: string } };
      if (response.status !== 200) failures.push(`${ack.code} (${ack.via}): lookup ${response.status}`);
      else if (ack.via === 'generate' && (body.location!.label !== ack.label || body.location!.address !== ack.address)) {
        failures.push(`${ack.code}: label ${JSON.stringify(body.location!.label)}, address ${JSON.stringify(body.location!.address)}`);
      }
    }
  }));
  expect(failures).toEqual([]);
  // Resolve saves carry no label: that they were saved shows in the account's rows. A reader beside the
  // running server, as WAL allows.
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const saved = new Set(db.prepare<[string], { code: string }>('SELECT code FROM locations WHERE account_id = ?').all(key.accountId).map((row) => row.code));
    expect(acks.filter((ack) => !saved.has(ack.code)).map((ack) => `${ack.code} (${ack.via})`)).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
  } finally {
    db.close();
  }
}

describe('SIGKILL during a write storm', () => {
  it(`loses no acknowledged write over ${CYCLES} kill${CYCLES > 1 ? 's' : ''}, and the database stays intact`, async () => {
    const created = await post('/v1/embed/sessions', { 'x-api-key': key.secret }, { origin: 'https://shop.example', ttl: 3600 });
    const token = ((await created.json()) as { session_token: string }).session_token;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const before = acks.length;
      const storm = await stormUntilKilled(() => write(token), (ack) => acks.push(ack), () => server.running, () => server.kill('SIGKILL'));
      server = await SpawnedServer.start(dataDir);
      await verify();
      console.log(
        `crash ${cycle}/${CYCLES}: SIGKILL ${Math.round(storm.killedAfterMs)} ms into the storm with ${storm.inFlight} writes in flight; ` +
          `${acks.length - before} acknowledged this cycle, all ${acks.length} so far found after restart; integrity_check ok`,
      );
    }
    expect(acks.some((ack) => ack.via === 'generate') && acks.some((ack) => ack.via === 'resolve with session')).toBe(true);
    const after = await post('/v1/embed/resolve', { authorization: `Bearer ${token}` }, { lat: 48.85, lng: 2.35, save: false });
    expect(after.status).toBe(200);
  }, scale(60_000, 180_000));
});
