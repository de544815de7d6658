/**
 * A PostgreSQL for the tests, one per vitest run: the run's global setup (test/setup/postgres.ts)
 * finds or starts it with `startRun` and hands it to every test file (vitest's provide and inject):
 * LOC_TEST_DATABASE_URL, else a throwaway cluster started for the run (initdb with trust auth in a
 * temporary directory, pg_ctl on a free port; as the postgres user when running as root, which initdb
 * refuses to be), else the one every machine of the project runs on 127.0.0.1:5432 (user postgres),
 * whose settings are never changed. Outside a vitest run (a benchmark, a stress script run alone) each
 * process finds its own, the machine's first, and stopPostgres ends it.
 *
 * Each caller gets a database of its own (`loc_t_<run>_<random>`, dropped by its dispose), so tests
 * never see each other's rows: empty, or a clone of the run's migrated template
 * (`loc_template_<run>`, migrated once by the store and closed to connections, as PostgreSQL copies
 * no database anyone is connected to). At the end of the run a cluster started for it is stopped and
 * removed; on a server that was found, the template and every database of the run still there are
 * dropped first. Nothing found is a failure, of the tests that ask for a database, that says what
 * was tried, never a skip: a suite that silently skips proves nothing.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres.ts';
import { freePort } from './loc-process.ts';

export interface TestDatabase {
  /** postgres:// URL of a fresh database of this caller's own: empty, or migrated when asked. */
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

/** What the run's global setup hands every test file: the run's server and template, or why there is none. */
export type ProvidedPostgres = { adminUrl: string; run: string; template: string } | { error: string };

declare module 'vitest' {
  interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

export interface DatabaseOptions {
  /**
   * Sorts text by that locale's rules (ICU, which every PostgreSQL of Debian has) rather than the
   * server's default, which on a C.UTF-8 machine sorts by bytes and would hide a query that relies on
   * it. An empty database only: a clone has its template's locale.
   */
  icuLocale?: 'en';
  /**
   * Holds loc's schema at this loc's version, as the store's migrations leave it (a clone of the
   * run's template): for every test but those of migrations, of an empty database, of another schema.
   */
  migrated?: boolean;
}

/** The PostgreSQL of a run, and the names of what the run makes on it. */
class Run {
  private template: Promise<string> | undefined;

  /** `template`: the name of a migrated template the run's setup made already. */
  constructor(readonly server: Server, readonly id: string, template?: string) {
    if (template !== undefined) this.template = Promise.resolve(template);
  }

  /** A fresh database of the run's, empty or migrated. */
  async createDatabase({ icuLocale, migrated = false }: DatabaseOptions = {}): Promise<TestDatabase> {
    if (migrated && icuLocale !== undefined) throw new Error('a migrated database is a clone of the template, with its locale: ask for an empty one with icuLocale');
    const { adminUrl } = this.server;
    const name = `loc_t_${this.id}_${randomBytes(6).toString('hex')}`;
    const from = migrated
      ? ` TEMPLATE ${await this.migratedTemplate()}`
      : icuLocale === undefined ? '' : ` LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale}' LOCALE 'C.UTF-8' TEMPLATE template0`;
    await admin(adminUrl, `CREATE DATABASE ${name}${from}`);
    return { url: databaseUrl(adminUrl, name), name, dispose: () => admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }

  /** The migrated template's name; made on the first call. */
  migratedTemplate(): Promise<string> {
    this.template ??= makeTemplate(this.server.adminUrl, `loc_template_${this.id}`);
    return this.template;
  }

  /** Drops the template and every database of the run still there, then stops a cluster started for it. */
  async close(): Promise<void> {
    try {
      const client = new pg.Client({ connectionString: this.server.adminUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          'SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1) OR datname = $2', [`loc_t_${this.id}_`, `loc_template_${this.id}`],
        );
        for (const { name } of rows) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    } finally {
      this.server.stop();
    }
  }
}

/** A database loc's migrations have run on, which nobody may connect to from then on: the source of every migrated database of a run. */
async function makeTemplate(adminUrl: string, name: string): Promise<string> {
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  await (await openPostgresStore(databaseUrl(adminUrl, name))).close();
  // A clone waits for the template's last connection to end, and fails after 5 s: none may begin.
  await admin(adminUrl, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  return name;
}

const databaseUrl = (adminUrl: string, name: string): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
};

const newRunId = (): string => randomBytes(4).toString('hex');

/**
 * For the run's global setup: finds or starts the run's PostgreSQL and migrates its template; what to
 * hand the test files, and what ends the run. Finding nothing is no failure here, where every test
 * would fail with it, but in each test that asks for a database.
 */
export async function startRun(): Promise<{ provided: ProvidedPostgres; close: () => Promise<void> }> {
  let run: Run;
  try {
    run = new Run(await findServer('cluster first'), newRunId());
  } catch (error) {
    return { provided: { error: (error as Error).message }, close: async () => {} };
  }
  try {
    const template = await run.migratedTemplate();
    return { provided: { adminUrl: run.server.adminUrl, run: run.id, template }, close: () => run.close() };
  } catch (error) {
    // The template's failure is the one to report; ending the run is tidying up after it.
    await run.close().catch(() => {});
    return { provided: { error: `the migrated template could not be made on ${run.server.adminUrl}: ${(error as Error).message}` }, close: async () => {} };
  }
}

/** This process's run: the one the global setup provided, else one of its own (`owned`), which stopPostgres ends. */
let current: Promise<{ run: Run; owned: boolean }> | undefined;

function currentRun(): Promise<{ run: Run; owned: boolean }> {
  current ??= (async () => {
    const given = await provided();
    if (given === undefined) return { run: new Run(await findServer('machine first'), newRunId()), owned: true };
    if ('error' in given) throw new Error(given.error);
    return { run: new Run({ adminUrl: given.adminUrl, stop: () => {} }, given.run, given.template), owned: false };
  })();
  return current;
}

/** What the run's global setup provided; nothing outside a vitest worker, or in a run without the setup. */
async function provided(): Promise<ProvidedPostgres | undefined> {
  const { inject } = await import('vitest');
  try {
    return inject('postgres');
  } catch {
    // Outside a vitest worker (a benchmark, a script) vitest has no state to read: no run either.
    return undefined;
  }
}

/** The test server: the run's, else this process's own, found or started on first use. */
export async function postgresServer(): Promise<Server> {
  return (await currentRun()).run.server;
}

/**
 * Ends this process's own server, if it has one (outside a vitest run): drops what it made there, or
 * stops the cluster it started. Nothing for the run's server, which the run's end clears. Call it from
 * afterAll.
 */
export async function stopPostgres(): Promise<void> {
  const found = current;
  current = undefined;
  const ended = await found?.catch(() => undefined);
  if (ended?.owned) await ended.run.close();
}

/**
 * A fresh database on the test server (see DatabaseOptions). With `on`, on that server (a cluster of
 * the test's own, which its stop removes whole) rather than the run's; an empty one only.
 */
export async function createTestDatabase({ on, ...options }: DatabaseOptions & { on?: Server } = {}): Promise<TestDatabase> {
  if (on === undefined) return (await currentRun()).run.createDatabase(options);
  if (options.migrated) throw new Error('the migrated template is on the run\'s server: on a cluster of its own a test migrates its database itself');
  return new Run(on, newRunId()).createDatabase(options);
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

/**
 * LOC_TEST_DATABASE_URL, else the machine's PostgreSQL and a throwaway cluster in the order given. A
 * run's tests take a cluster first: with its disk writes off it creates, migrates and drops databases
 * in about half the machine's time or less, and the machine's, which other work shares, is left alone.
 * A benchmark takes the machine's first, as its figures are about a PostgreSQL set up for production.
 */
async function findServer(order: 'cluster first' | 'machine first'): Promise<Server> {
  const tried: string[] = [];
  const given = process.env.LOC_TEST_DATABASE_URL?.trim();
  if (given) {
    // Named by the caller: it must work, falling back would test somewhere else than they asked.
    const why = await reachable(given);
    if (why === null) return { adminUrl: given, stop: () => {} };
    throw new Error(`LOC_TEST_DATABASE_URL=${given} cannot be used: ${why}`);
  }
  tried.push('LOC_TEST_DATABASE_URL (not set)');
  const machine = async (): Promise<Server | undefined> => {
    const local = 'postgres://postgres@127.0.0.1:5432/postgres';
    const why = await reachable(local);
    if (why === null) return { adminUrl: local, stop: () => {} };
    tried.push(`${local} (${why})`);
  };
  const cluster = async (): Promise<Server | undefined> => {
    try {
      return await startCluster({ settings: SHARED_CLUSTER });
    } catch (error) {
      tried.push(`a throwaway cluster (${(error as Error).message.split('\n')[0]})`);
    }
  };
  for (const attempt of order === 'cluster first' ? [cluster, machine] : [machine, cluster]) {
    const server = await attempt();
    if (server !== undefined) return server;
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

/**
 * The settings of every throwaway cluster: its data is thrown away, and no test crashes the machine
 * under it, so nothing waits for the disk. A crash of PostgreSQL alone (`halt`) loses nothing by them:
 * what it wrote is in the kernel's cache.
 */
const THROWAWAY = ['fsync=off', 'full_page_writes=off'];

/**
 * And of the cluster a run's test files share, which no test halts: commits that do not wait for
 * their WAL to be written (a halt would lose the last of them, which a test of a cluster of its own may
 * count on), and connections for several test files at once, each with servers holding pools.
 */
const SHARED_CLUSTER = ['synchronous_commit=off', 'max_connections=300'];

/**
 * A throwaway cluster of its own: also what a test that restarts PostgreSQL must use (never the
 * machine's). `settings`: more `name=value` for the server.
 */
export async function startCluster({ settings = [] }: { settings?: string[] } = {}): Promise<Cluster> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), 'loc-pg-'));
  const data = join(dir, 'data');
  // initdb and postgres refuse to run as root; the postgres user of the Debian package runs them.
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, { stdio: 'pipe', timeout: 60_000 });
  if (asRoot) chmodSync(dir, 0o777);
  const port = await freePort();
  const options = [...THROWAWAY, ...settings].map((setting) => `-c ${setting}`).join(' ');
  // The socket in the temporary directory: the default one may not be writable, or be the machine's own.
  const startArgs = ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${options}`, 'start'];
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
  const stop = () => {
    process.off('exit', stop);
    try {
      if (running) run(join(bin, 'pg_ctl'), haltArgs);
    } finally {
      running = false;
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // Also when the process that started it ends without its teardown: vitest, interrupted (Ctrl-C),
  // exits at once, and a cluster left running would hold its port and files until the next boot.
  process.once('exit', stop);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
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
