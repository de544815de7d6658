import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';
import type { KeyMode, SavedLocation } from '../store.ts';
import { locationReads } from './location-reads.ts';
import { newPool } from './postgres-pool.ts';
import { openPostgresStore, type PostgresStore } from './postgres.ts';

const T0 = 1_800_000_000_000;
let db: TestDatabase;
let store: PostgresStore;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase({ migrated: true });
  store = await openPostgresStore(db.url);
  pool = await newPool(db.url);
});
afterAll(async () => {
  await pool.end();
  await store.close();
  await db.dispose();
  await stopPostgres();
});

const spot = (accountId: string, mode: KeyMode, code: string): SavedLocation => ({ accountId, mode, code, latitude: 48.85, longitude: 2.29, address: null, label: code, createdAt: T0 });

describe('saved-location reads on PostgreSQL', () => {
  it('answer the reads that wait together, of several accounts and both modes, in one statement per account and mode', async () => {
    const [acme, beta] = [await store.createAccount({ name: 'acme', partner: true, createdAt: T0 }), await store.createAccount({ name: 'beta', partner: true, createdAt: T0 })];
    const saved = [spot(acme.id, 'live', 'FR-0000-0001'), spot(acme.id, 'test', 'FR-0000-0002'), spot(beta.id, 'live', 'FR-0000-0001')];
    for (const location of saved) await store.saveLocation(location);
    const statements: string[] = [];
    const read = locationReads((text, values, name) => (statements.push(`${name} ${String(values[0])}`), pool.query({ text, values, name })));

    const asked = [acme.id, beta.id].flatMap((accountId) => (['live', 'test'] as const).flatMap((mode) => ['FR-0000-0001', 'FR-0000-0002', 'FR-0000-0001'].map((code) => ({ accountId, mode, code }))));
    const first = read({ accountId: acme.id, mode: 'live', code: 'FR-0000-0003' });
    const answers = await Promise.all(asked.map(read));
    expect(await first).toBeNull();
    expect(answers).toEqual(asked.map((question) => saved.find((s) => s.accountId === question.accountId && s.mode === question.mode && s.code === question.code) ?? null));
    // The first went alone; the twelve that waited went as four statements, one per account and mode.
    expect(statements.sort()).toEqual([
      `get-many-locations ${acme.id}`, `get-many-locations ${acme.id}`, `get-many-locations ${beta.id}`, `get-many-test_locations ${acme.id}`, `get-many-test_locations ${beta.id}`,
    ].sort());
  });

  it('are what the store\'s findLocation answers, a code it cannot store included', async () => {
    const acme = (await store.findAccount('acme'))!;
    expect(await Promise.all([store.findLocation(acme.id, 'live', 'FR-0000-0001'), store.findLocation(acme.id, 'live', 'FR-0000-0009'), store.findLocation(acme.id, 'live', 'FR\0')]))
      .toEqual([spot(acme.id, 'live', 'FR-0000-0001'), null, null]);
  });
});
