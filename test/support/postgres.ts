/**
 * A PostgreSQL for the tests, found once per test file: LOC_TEST_DATABASE_URL, else the one every
 * machine of the project runs on 127.0.0.1:5432 (user postgres), else a throwaway cluster started
 * here (initdb with trust auth in a temporary directory, pg_ctl on a free port; as the postgres user
 * when running as root, which initdb refuses to be) and stopped when the file ends.
 *
 * Each caller gets a database of its own (`CREATE DATABASE loc_t_<random>`, dropped by its dispose),
 * so tests never see each other's rows. Nothing found is a failure that says what was tried, never a
 * skip: a suite that silently skips proves nothing.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './loc-process.ts';

export interface TestDatabase {
  /** postgres:// URL of a fresh, empty database of this caller's own. */
  url: string;
  name: string;
  /** Drops the database, ending whatever connections are still on it. */
  dispose: () => Promise<void>;
}

export interface Server {
  /** URL of the server's maintenance database, where databases are created and dropped. */
  adminUrl: string;
  /** Stops a cluster started here; nothing for one found running. */
  stop: () => void;
}

/** A throwaway cluster of a test's own, which it may also stop and start again (startCluster). */
export interface Cluster extends Server {
  /**
   * Stops PostgreSQL at once (`pg_ctl -m immediate stop`, a crash: no checkpoint), keeping its data;
   * resolves once it is down. Asynchronous, so that a test's clients go on sending meanwhile.
   */
  halt: () => Promise<void>;
  /** Starts it again on the same data and port after `halt`; resolves once it accepts connections. */
  resume: () => Promise<void>;
  /** PostgreSQL's own log so far. */
  log: () => string;
}

let server: Promise<Server> | undefined;

/** The server for this test file, found or started on first use. */
export function postgresServer(): Promise<Server> {
  server ??= findServer();
  return server;
}

/** Stops a throwaway cluster if this file started one; call it from afterAll. */
export async function stopPostgres(): Promise<void> {
  const found = server;
  server = undefined;
  if (found !== undefined) (await found.catch(() => undefined))?.stop();
}

/**
 * A fresh database on the test server. With `icuLocale` it sorts text by that locale's rules (ICU,
 * which every PostgreSQL of Debian has) rather than the server's default, which on a C.UTF-8 machine
 * sorts by bytes and would hide a query that relies on it. With `on`, on that server (a cluster of the
 * test's own) rather than the file's.
 */
export async function createTestDatabase({ icuLocale, on }: { icuLocale?: 'en'; on?: Server } = {}): Promise<TestDatabase> {
  const { adminUrl } = on ?? (await postgresServer());
  const name = `loc_t_${randomBytes(6).toString('hex')}`;
  const locale = icuLocale === undefined ? '' : ` LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale}' LOCALE 'C.UTF-8' TEMPLATE template0`;
  await admin(adminUrl, `CREATE DATABASE ${name}${locale}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    dispose: () => admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** One statement on the database at `url`, with a connection of the test's own (not a store's); its rows. */
export async function sql<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Runs one statement on the maintenance database with a connection of its own. */
export async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function findServer(): Promise<Server> {
  const tried: string[] = [];
  const given = process.env.LOC_TEST_DATABASE_URL?.trim();
  if (given) {
    // Named by the caller: it must work, falling back would test somewhere else than they asked.
    const why = await reachable(given);
    if (why === null) return { adminUrl: given, stop: () => {} };
    throw new Error(`LOC_TEST_DATABASE_URL=${given} cannot be used: ${why}`);
  }
  tried.push('LOC_TEST_DATABASE_URL (not set)');
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  const why = await reachable(local);
  if (why === null) return { adminUrl: local, stop: () => {} };
  tried.push(`${local} (${why})`);
  try {
    return await startCluster();
  } catch (error) {
    tried.push(`a throwaway cluster (${(error as Error).message.split('\n')[0]})`);
  }
  throw new Error(
    `no PostgreSQL for the tests; tried ${tried.join('; ')}. Install PostgreSQL 15 (apt-get install postgresql) or set LOC_TEST_DATABASE_URL.`,
  );
}

/** Null when a connection to `url` works, else why not. */
async function reachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** PostgreSQL's server binaries: Debian keeps them out of PATH, under /usr/lib/postgresql/<major>/bin. */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((entry) => existsSync(join(root, entry, 'bin', 'initdb'))) : [];
  if (majors.length === 0) throw new Error(`no initdb under ${root}/*/bin`);
  return join(root, majors.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** A throwaway cluster of its own: also what a test that restarts PostgreSQL must use (never the machine's). */
export async function startCluster(): Promise<Cluster> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), 'loc-pg-'));
  const data = join(dir, 'data');
  // initdb and postgres refuse to run as root; the postgres user of the Debian package runs them.
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, { stdio: 'pipe', timeout: 60_000 });
  if (asRoot) chmodSync(dir, 0o777);
  const port = await freePort();
  // The socket in the temporary directory: the default one may not be writable, or be the machine's own.
  const startArgs = ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start'];
  const haltArgs = ['-D', data, '-m', 'immediate', 'stop'];
  const runLater = (command: string, args: string[]) =>
    promisify(execFile)(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, { timeout: 60_000 });
  try {
    run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    run(join(bin, 'pg_ctl'), startArgs);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(stderr || (error as Error).message);
  }
  let running = true;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        if (running) run(join(bin, 'pg_ctl'), haltArgs);
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
    halt: async () => {
      await runLater(join(bin, 'pg_ctl'), haltArgs);
      running = false;
    },
    resume: async () => {
      await runLater(join(bin, 'pg_ctl'), startArgs);
      running = true;
    },
    log: () => readFileSync(join(dir, 'log'), 'utf8'),
  };
}
