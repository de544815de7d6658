/** The SQLite adapter against the store conformance suites, plus what is SQLite's own: files, WAL, migrations. */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditStoreConformance } from '../../../test/conformance/audit-store.ts';
import { boundsConformance } from '../../../test/conformance/bounds.ts';
import { panelStoreConformance } from '../../../test/conformance/panel-store.ts';
import { heldInvitationsConformance } from '../../../test/conformance/held-invitations.ts';
import { storeConformance, type OpenedStore } from '../../../test/conformance/store.ts';
import { usageStoreConformance } from '../../../test/conformance/usage-store.ts';
import { sqliteFill } from '../../../test/support/sqlite-fill.ts';
import { MIGRATIONS } from './sqlite-migrations.ts';
import { DATABASE_FILE } from './sqlite-files.ts';
import { translateSqliteError } from './sqlite-errors.ts';
import { openSqliteStore, type SqliteStore } from './sqlite.ts';
import { StoreUnavailable } from '../store.ts';

/** Temporary directories made by this file, removed when it ends. */
const made: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'loc-store-'));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const open = async (): Promise<OpenedStore> => {
  const dir = tempDir();
  const store = openSqliteStore(dir);
  return {
    store, second: openSqliteStore(dir), settle: () => {}, fill: sqliteFill(store), sql: async (text) => rawSqlite(dir, text),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
};
storeConformance('sqlite', open);
panelStoreConformance('sqlite', open);
heldInvitationsConformance('sqlite', open);
usageStoreConformance('sqlite', open);
boundsConformance('sqlite', open);
auditStoreConformance('sqlite', open);

/** One statement on the database of `dir` through a connection of its own, as the sqlite3 shell would run it. */
function rawSqlite(dir: string, text: string): void {
  const db = new Database(join(dir, DATABASE_FILE));
  try {
    db.exec(text);
  } finally {
    db.close();
  }
}

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

  it('makes a new database readable by its owner only, in a directory made beforehand too, and leaves an existing one as it is', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const store = openSqliteStore(dir);
    await store.createAccount({ name: 'acme', partner: false, createdAt: 0 });
    const modes = () => Object.fromEntries(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mode & 0o777]));
    expect(modes()).toEqual({ [DATABASE_FILE]: 0o600, [`${DATABASE_FILE}-wal`]: 0o600, [`${DATABASE_FILE}-shm`]: 0o600 });
    await store.close();
    chmodSync(join(dir, DATABASE_FILE), 0o640);
    await openSqliteStore(dir).close();
    expect(statSync(join(dir, DATABASE_FILE)).mode & 0o777).toBe(0o640);
  });

  it('syncs every commit to disk (synchronous FULL): an acknowledged write survives a power cut', async () => {
    const store = openSqliteStore(tempDir());
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    await store.close();
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

  it('migrates a database of schema 3: its sessions keep working, with no area', async () => {
    const dir = tempDir();
    const old = new Database(join(dir, DATABASE_FILE));
    MIGRATIONS.slice(0, 3).forEach((migration) => old.exec(migration));
    old.pragma('user_version = 3');
    old.exec(`
      INSERT INTO accounts VALUES ('acct_1', 'acme', 1, 0);
      INSERT INTO api_keys (id, account_id, hash, status, origins, ip_ranges, created_at) VALUES ('key_1', 'acct_1', 'h', 'active', '[]', '[]', 0);
      INSERT INTO sessions VALUES ('s_1', 'sh', 'key_1', 'https://shop.example', 0, 900000);
    `);
    old.close();
    const store = openSqliteStore(dir);
    expect(await store.getSession('s_1')).toMatchObject({ sid: 's_1', keyActive: true, countries: null, bounds: null });
    await store.close();
  });

  it('refuses a database from a newer loc', async () => {
    const dir = tempDir();
    await openSqliteStore(dir).close();
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openSqliteStore(dir)).toThrow(StoreUnavailable);
    expect(() => openSqliteStore(dir)).toThrow(/newer than this loc knows/);
  });

  it('with create: false, opens an existing database and refuses anything else, creating nothing', async () => {
    const existing = tempDir();
    const first = openSqliteStore(existing);
    await first.createAccount({ name: 'acme', partner: false, createdAt: 1 });
    await first.close();
    const store = openSqliteStore(existing, { create: false });
    expect((await store.findAccount('acme'))?.name).toBe('acme');
    await store.close();

    const missing = join(tempDir(), 'typo');
    const empty = tempDir();
    const blank = tempDir();
    writeFileSync(join(blank, DATABASE_FILE), '');
    for (const [dir, why] of [[missing, 'the directory does not exist'], [empty, `the directory has no ${DATABASE_FILE}`], [blank, `its ${DATABASE_FILE} holds no loc schema`]]) {
      expect(() => openSqliteStore(dir, { create: false })).toThrow(expect.objectContaining({ name: 'NoDatabase', where: dir, why }));
    }
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(empty)).toEqual([]);
    expect(readdirSync(blank)).toEqual([DATABASE_FILE]);
    expect(statSync(join(blank, DATABASE_FILE)).size).toBe(0);
  });

  it('leaves no WAL file behind once closed', async () => {
    const dir = tempDir();
    const store = openSqliteStore(dir);
    await store.createAccount({ name: 'acme', partner: true, createdAt: 1 });
    await store.close();
    expect(existsSync(join(dir, `${DATABASE_FILE}-wal`))).toBe(false);
  });
});

describe('a machine at fault', () => {
  it('turns SQLite errors of a full, read-only, failing or locked disk into StoreUnavailable, keeping the cause', () => {
    const cases = {
      SQLITE_FULL: 'full', SQLITE_READONLY: 'read-only', SQLITE_READONLY_DBMOVED: 'read-only', SQLITE_IOERR: 'io-error',
      SQLITE_IOERR_WRITE: 'io-error', SQLITE_IOERR_FSYNC: 'io-error', SQLITE_BUSY: 'busy', SQLITE_BUSY_SNAPSHOT: 'busy',
      SQLITE_LOCKED: 'busy', SQLITE_CANTOPEN: 'cannot-open',
    };
    for (const [code, reason] of Object.entries(cases)) {
      const cause = new Database.SqliteError('disk says no', code);
      const translated = translateSqliteError(cause);
      expect(translated).toBeInstanceOf(StoreUnavailable);
      expect(translated).toMatchObject({ reason, message: `disk says no (${code})`, cause });
    }
  });

  it('reports a data directory that cannot be made as StoreUnavailable, with the path', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    let error: unknown;
    try {
      openSqliteStore(join(file, 'data'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(error).toMatchObject({ reason: 'cannot-open', message: expect.stringContaining(join(file, 'data')) });
  });

  it('reports a data directory that is a file as StoreUnavailable that says so, not as EEXIST', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    expect(() => openSqliteStore(file)).toThrow(expect.objectContaining({ name: 'StoreUnavailable', reason: 'cannot-open', message: `${file} is not a directory` }));
  });

  it('reports a loc.db that is not a SQLite file as StoreUnavailable, and leaves the file alone', () => {
    const dir = tempDir();
    const garbage = 'not a database, but a file that fills more than a header would. '.repeat(20);
    writeFileSync(join(dir, DATABASE_FILE), garbage);
    expect(() => openSqliteStore(dir)).toThrow(expect.objectContaining({ name: 'StoreUnavailable', reason: 'cannot-open', message: 'file is not a database (SQLITE_NOTADB)' }));
    expect(readFileSync(join(dir, DATABASE_FILE), 'utf8')).toBe(garbage);
  });

  it('leaves errors of the request or of loc itself as they are', () => {
    for (const error of [
      new Database.SqliteError('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE'),
      new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT'),
      new Database.SqliteError('no such table: x', 'SQLITE_ERROR'),
      new TypeError('x is undefined'),
    ]) {
      expect(translateSqliteError(error)).toBe(error);
    }
  });
});
