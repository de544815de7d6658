/** The SQLite adapter against the store conformance suite, plus what is SQLite's own: files, WAL, migrations. */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storeConformance } from './conformance.ts';
import { MIGRATIONS } from './sqlite-migrations.ts';
import { DATABASE_FILE, openSqliteStore } from './sqlite.ts';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'loc-store-'));

storeConformance('sqlite', async () => {
  const dir = tempDir();
  return { store: openSqliteStore(dir), dispose: () => rmSync(dir, { recursive: true, force: true }) };
});

describe('sqlite store', () => {
  it('creates its data directory private to the owner, in WAL mode, at the latest schema', async () => {
    const dir = join(tempDir(), 'nested', 'data');
    const store = openSqliteStore(dir);
    await store.close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('sees what another connection (the CLI) wrote, on the next query', async () => {
    const dir = tempDir();
    const server = openSqliteStore(dir);
    const cli = openSqliteStore(dir);
    await cli.createAccount({ name: 'acme', partner: false, createdAt: 1 });
    expect((await server.findAccount('acme'))?.partner).toBe(false);
    await cli.setPartner('acme', true);
    expect((await server.findAccount('acme'))?.partner).toBe(true);
    await Promise.all([server.close(), cli.close()]);
  });

  it('refuses a database from a newer loc', async () => {
    const dir = tempDir();
    await openSqliteStore(dir).close();
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openSqliteStore(dir)).toThrow(/newer than this loc knows/);
  });

  it('leaves no WAL file behind once closed', async () => {
    const dir = tempDir();
    const store = openSqliteStore(dir);
    await store.createAccount({ name: 'acme', partner: true, createdAt: 1 });
    await store.close();
    expect(existsSync(join(dir, `${DATABASE_FILE}-wal`))).toBe(false);
  });
});
