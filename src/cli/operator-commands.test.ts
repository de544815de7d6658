/**
 * The operator CLI, run in-process (test/support/cli.ts) against a temporary data directory, and
 * against a PostgreSQL database (LOC_DATABASE_URL), while a server uses the same database: accounts,
 * keys, their restrictions, and that each change reaches the running server within a second. What
 * only the built CLI as a process of its own shows is in cli-process.test.ts.
 */
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { FastifyInstance } from 'fastify';
import { KEY_CACHE_MS } from '../server/plugins/store.ts';
import { json, testClock } from '../../test/support/service.ts';
import { MIGRATIONS } from '../store/sqlite/sqlite-migrations.ts';
import { DATABASE_FILE } from '../store/sqlite/sqlite-files.ts';
import { createTestDatabase, sql, stopPostgres, type TestDatabase } from '../../test/support/postgres.ts';
import { runCli, type CommandResult } from '../../test/support/cli.ts';
import { freePort } from '../../test/support/loc-process.ts';

const run = promisify(execFile);
let dataDir: string;
/** The server on the SQLite database of `dataDir`, as the operator commands find it. */
let sqliteApp: FastifyInstance;
const clock = testClock();

/** The server reuses key reads for KEY_CACHE_MS: a CLI change is seen once that has passed (≤ 5 s promised). */
const settle = (): void => clock.advance(KEY_CACHE_MS);

/** How a key's summary line ends when it has no limits of its own. */
const DEFAULT_LIMITS = 'hourly limit: the default (LOC_DEFAULT_HOURLY_LIMIT); embed hourly limit: the default (LOC_DEFAULT_EMBED_HOURLY_LIMIT); ' +
  'session limit: the default (LOC_DEFAULT_SESSION_LIMIT)';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `loc …` on the data directory the test server uses. */
const loc = (...args: string[]): Promise<CommandResult> => runCli({ LOC_DATA_DIR: dataDir }, ...args);

/**
 * Whether any file of the data directory holds `text`. Read in another process: closing a descriptor
 * of the database file in this one would drop the POSIX locks of the app's open SQLite connection.
 */
async function filesContain(text: string): Promise<boolean> {
  const script = 'const fs=require("fs"),p=require("path"),[d,t]=process.argv.slice(1);' +
    'process.stdout.write(String(fs.readdirSync(d).some((f)=>fs.readFileSync(p.join(d,f)).includes(t))))';
  return (await run(process.execPath, ['-e', script, dataDir, text])).stdout === 'true';
}

/** Other data directories than the server's, each new and empty; removed when the file ends. */
const scratchDirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loc-cli-other-'));
  scratchDirs.push(dir);
  return dir;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-cli-'));
  sqliteApp = await buildApp(loadConfig({ LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'silent' }), { now: clock.now });
});
afterAll(async () => {
  await sqliteApp.close();
  await stopPostgres();
  for (const dir of [dataDir, ...scratchDirs]) rmSync(dir, { recursive: true, force: true });
});


describe('LOC_DATABASE_URL', () => {
  it('names a database where loc never ran: every command but accounts create refuses in one line, exit 1, and creates nothing there', async () => {
    const fresh = await createTestDatabase();
    try {
      // A password in the URL (trust auth lets it in all the same) is never printed.
      const url = fresh.url.replace('postgres@', 'postgres:hunter2@');
      const shown = url.replace(':hunter2@', ':***@');
      const untouched = scratch();
      const runs = await Promise.all([['accounts', 'list'], ['keys', 'list', '--account', 'acme'], ['keys', 'disable', 'key_x'], ['test-data', 'wipe', '--account', 'acme']]
        .map(async (args) => ({ args, ...(await runCli({ LOC_DATA_DIR: untouched, LOC_DATABASE_URL: url }, ...args)) })));
      for (const result of runs) {
        expect(result).toEqual({
          args: result.args, code: 1, stdout: '',
          stderr: `error: there is no loc database in ${shown} (it holds no loc schema); loc never ran on it: set LOC_DATABASE_URL to the server's database (loc accounts create or loc db migrate starts a new one).\n`,
        });
      }
      expect(await sql(fresh.url, "SELECT 1 FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
      expect(await runCli({ LOC_DATA_DIR: untouched, LOC_DATABASE_URL: url }, 'accounts', 'create', '--name', 'acme')).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/^Created account acme /),
        stderr: `note: created loc's tables in the database ${shown}. If the server uses another database, set LOC_DATABASE_URL to it instead.\n`,
      });
      expect(await runCli({ LOC_DATA_DIR: untouched, LOC_DATABASE_URL: url }, 'accounts', 'list')).toMatchObject({ code: 0, stdout: expect.stringContaining('acme'), stderr: '' });
      expect(readdirSync(untouched)).toEqual([]);
    } finally {
      await fresh.dispose();
    }
  });

  it('that cannot be reached, or is no PostgreSQL URL: one line, exit 1 or 2, without the password', async () => {
    const closed = `postgres://loc:hunter2@127.0.0.1:${await freePort()}/loc`;
    const unreachable = await runCli({ LOC_DATA_DIR: scratch(), LOC_DATABASE_URL: closed }, 'keys', 'disable', 'key_x');
    expect(unreachable).toMatchObject({ code: 1, stdout: '' });
    expect(unreachable.stderr).toMatch(/^error: cannot open the database in postgres:\/\/loc:\*\*\*@127\.0\.0\.1:\d+\/loc: connect ECONNREFUSED \S+ \(ECONNREFUSED\)\n$/);
    expect(await runCli({ LOC_DATA_DIR: scratch(), LOC_DATABASE_URL: 'mysql://loc:hunter2@db/loc' }, 'accounts', 'list')).toEqual({
      code: 2, stdout: '', stderr: 'error: LOC_DATABASE_URL must be a postgres:// or postgresql:// URL, received "mysql://loc:***@db/loc". (see --help)\n',
    });
  });

  it('is refused by loc backup in one line, exit 1, with a pg_dump line to use instead that holds no password', async () => {
    // Refused before connecting: no database is needed to say so.
    const target = join(scratch(), 'copy.db');
    expect(await runCli({ LOC_DATA_DIR: dataDir, LOC_DATABASE_URL: "postgresql://loc:hunter2@db.example:5432/loc?sslmode=require&application_name=it's" }, 'backup', target)).toEqual({
      code: 1, stdout: '',
      stderr: "error: LOC_DATABASE_URL is set: loc backup copies SQLite databases only; back PostgreSQL up with its own tools, e.g. pg_dump --format=custom --file=loc.dump 'postgresql://loc@db.example:5432/loc?sslmode=require&application_name=it'\\''s' (restore with pg_restore)\n",
    });
    expect(existsSync(target)).toBe(false);
  });
});

/**
 * The commands that work on the store run on each engine: SQLite in LOC_DATA_DIR (the server's data
 * directory) and PostgreSQL in LOC_DATABASE_URL, each beside a server on the same database, with the
 * same commands, answers and errors.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`on ${engine}`, () => {
    let app: FastifyInstance;
    let env: Record<string, string>;
    /** Whether the database holds `text` anywhere: a secret must never be stored. */
    let holds: (text: string) => Promise<boolean>;
    let database: TestDatabase | undefined;
    let untouched: string;

    beforeAll(async () => {
      if (engine === 'sqlite') {
        app = sqliteApp;
        env = { LOC_DATA_DIR: dataDir };
        holds = filesContain;
        return;
      }
      database = await createTestDatabase();
      // A data directory the commands must leave alone: with LOC_DATABASE_URL set, SQLite is not used.
      untouched = scratch();
      env = { LOC_DATA_DIR: untouched, LOC_DATABASE_URL: database.url };
      app = await buildApp(loadConfig({ ...env, LOC_LOG_LEVEL: 'silent' }), { now: clock.now });
      const url = database.url;
      holds = async (text) => (await sql<{ found: boolean }>(url, "SELECT EXISTS (SELECT 1 FROM accounts a LEFT JOIN api_keys k ON k.account_id = a.id WHERE a::text || coalesce(k::text, '') LIKE '%' || $1 || '%') AS found", [text]))[0].found;
    });
    afterAll(async () => {
      if (engine === 'postgres') {
        await app?.close();
        await database?.dispose();
      }
    });

    const loc = (...args: string[]): Promise<CommandResult> => runCli(env, ...args);
    const lookup = async (key: string, remoteAddress = '127.0.0.1'): Promise<number> =>
      (await app.inject({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': key }, remoteAddress })).statusCode;
    const session = async (key: string, origin: string): Promise<number> =>
      (await app.inject({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': key }, payload: { origin } })).statusCode;

  describe('loc accounts', () => {
    it('creates, lists and switches partner status', async () => {
      expect(await loc('accounts', 'create', '--name', 'acme')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Created account acme \(acct_[\w-]+\), partner: no\.\n$/) });
      const created = await loc('accounts', 'create', '--name', 'globex', '--partner', '--json');
      expect(JSON.parse(created.stdout)).toMatchObject({ name: 'globex', partner: true });
      const list = await loc('accounts', 'list');
      expect(list.stdout).toMatch(/^NAME\s+ID\s+PARTNER\s+CREATED \(UTC\)\nacme\s+acct_\S+\s+no\s+.+\nglobex\s+acct_\S+\s+yes/);
      expect((await loc('accounts', 'set-partner', 'acme', '--on')).stdout).toContain('partner: yes');
      expect(JSON.parse((await loc('accounts', 'list', '--json')).stdout).map((a: { partner: boolean }) => a.partner)).toEqual([true, true]);
    });

    it('refuses duplicates, bad names and a missing --on/--off with one line and a non-zero exit', async () => {
      expect(await loc('accounts', 'create', '--name', 'acme')).toMatchObject({ code: 1, stderr: 'error: An account named "acme" already exists.\n' });
      const bad = await loc('accounts', 'create', '--name', 'has space');
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect((await loc('accounts', 'set-partner', 'acme')).code).toBe(2);
      expect(await loc('accounts', 'set-partner', 'nobody', '--off')).toMatchObject({ code: 1, stderr: 'error: No account is named "nobody"; see loc accounts list.\n' });
      expect((await loc('accounts', 'create')).stderr).toBe("error: required option '--name <name>' not specified (see --help)\n");
    });
  });

  describe('loc keys', () => {
    let keyId: string;
    let secret: string;

    it('creates a key, prints its secret once and stores only its hash; the server accepts it at once', async () => {
      const created = await loc('keys', 'create', '--account', 'acme', '--origin', 'https://shop.example', '--origin', 'http://localhost:5173', '--ip', '127.0.0.0/8', '--hourly-limit', '500', '--label', 'prod', '--json');
      expect(created.code).toBe(0);
      const body = JSON.parse(created.stdout) as { key: { id: string; origins: string[]; ipRanges: string[]; hourlyLimit: number }; api_key: string };
      ({ id: keyId } = body.key);
      secret = body.api_key;
      expect(secret).toMatch(/^loc_[\w-]{43}$/);
      expect(body.key).toMatchObject({ origins: ['https://shop.example', 'http://localhost:5173'], ipRanges: ['127.0.0.0/8'], hourlyLimit: 500, label: 'prod' });
      expect(await holds(secret)).toBe(false);
      expect(await lookup(secret)).toBe(200);
    });

    it('prints a new key for people, with its id', async () => {
      const created = await loc('keys', 'create', '--account', 'globex');
      const [line, ...rest] = created.stdout.split('\n');
      expect(line).toMatch(/^Created API key key_[\w-]+ \(active\) origins: none; IP ranges: any; /);
      expect(line.endsWith(`; ${DEFAULT_LIMITS}.`)).toBe(true);
      expect(rest.join('\n')).toMatch(/^Secret \(shown this once; only its hash is stored\):\nloc_[\w-]{43}\n$/);
    });

    it('lists keys without their secrets', async () => {
      const table = await loc('keys', 'list', '--account', 'acme');
      expect(table.stdout).toContain(keyId);
      expect(table.stdout).toMatch(/live\s+active\s+prod\s+https:\/\/shop\.example,http:\/\/localhost:5173\s+127\.0\.0\.0\/8\s+500/);
      const listed = await loc('keys', 'list', '--account', 'acme', '--json');
      expect(listed.stdout).not.toContain(secret);
      expect(listed.stdout).not.toMatch(/hash/);
    });

    it('disables and enables a key; the running server follows within a second', async () => {
      expect((await loc('keys', 'disable', keyId)).stdout).toContain(`${keyId} (disabled)`);
      settle();
      expect(await lookup(secret)).toBe(401);
      expect((await loc('keys', 'enable', keyId)).stdout).toContain(`${keyId} (active)`);
      settle();
      expect(await lookup(secret)).toBe(200);
    });

    it("changes a key's hourly limit and gives it back to the default; the running server follows within a second", async () => {
      const limitOf = async () =>
        (await app.inject({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } })).headers['ratelimit-limit'];
      expect(await limitOf()).toBe('500');
      expect((await loc('keys', 'set-limit', keyId, '20000')).stdout).toContain(`${keyId} (active)`);
      settle();
      expect(await limitOf()).toBe('20000');
      expect((await loc('keys', 'set-limit', keyId, '--default')).stdout).toContain('hourly limit: the default (LOC_DEFAULT_HOURLY_LIMIT)');
      settle();
      expect(await limitOf()).toBe('1000');
      expect((await loc('keys', 'set-limit', keyId, '500')).stdout).toContain('hourly limit: 500');
      // The refusals change nothing, so they run at once.
      const bad = [[keyId], [keyId, '0'], [keyId, '10', '--default'], [keyId, 'many']];
      const [missing, ...refusals] = await Promise.all([['key_missing', '10'], ...bad].map((args) => loc('keys', 'set-limit', ...args)));
      for (const [i, refused] of refusals.entries()) {
        expect({ args: bad[i], code: refused.code }).toEqual({ args: bad[i], code: 2 });
        expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      }
      expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('No API key has the id "key_missing"') });
    });

    it("sets the limits of a key's embed traffic, per hour and per session, apart from its own; the running server follows", async () => {
      const session = json(await app.inject({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example' } }));
      const resolve = () => app.inject({ method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${session.session_token}` }, payload: { lat: 1.3, lng: 103.8 } });
      expect((await resolve()).headers['ratelimit-limit']).toBe('500');
      const set = await loc('keys', 'set-limit', keyId, '--session-limit', '2', '--embed-hourly-limit', '40', '--json');
      expect(JSON.parse(set.stdout)).toMatchObject({ id: keyId, hourlyLimit: 500, embedHourlyLimit: 40, sessionLimit: 2 });
      settle();
      // The session made one request already: its second is its last.
      expect((await resolve()).headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0' });
      expect(json(await resolve()).code).toBe('session_limit_reached');
      const text = await loc('keys', 'set-limit', keyId, '--session-limit', 'default', '--embed-hourly-limit', 'default');
      expect(text.stdout).toContain(
        'hourly limit: 500; embed hourly limit: the default (LOC_DEFAULT_EMBED_HOURLY_LIMIT); session limit: the default (LOC_DEFAULT_SESSION_LIMIT).',
      );
      settle();
      expect((await resolve()).statusCode).toBe(200);
      const refused = await Promise.all([
        loc('keys', 'set-limit', keyId, '--session-limit', '0'),
        loc('keys', 'set-limit', keyId, '--embed-hourly-limit', 'lots'),
      ]);
      for (const result of refused) expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: option '--[a-z-]+ <n\|default>' argument '\w+' is invalid\. expected a positive integer, or default\. \(see --help\)\n$/) });
      expect(await loc('keys', 'create', '--account', 'acme', '--session-limit', '0')).toMatchObject({ code: 2 });
      expect(await loc('keys', 'set-limit', keyId, '--embed-hourly-limit', '2000000000')).toEqual({
        code: 2, stdout: '', stderr: 'error: embed hourly limit must be an integer from 1 to 1000000000, received 2000000000. (see --help)\n',
      });
    });

    it('adds and removes origins, in canonical form', async () => {
      expect(await session(secret, 'https://new.example')).toBe(403);
      expect((await loc('keys', 'origins', 'add', keyId, 'https://new.example')).code).toBe(0);
      settle();
      expect(await session(secret, 'https://new.example')).toBe(200);
      expect((await loc('keys', 'origins', 'remove', keyId, 'https://new.example')).stdout).not.toContain('new.example');
      settle();
      expect(await session(secret, 'https://new.example')).toBe(403);
      const bad = await loc('keys', 'origins', 'add', keyId, 'https://new.example/');
      expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean "https://new.example"?') });
    });

    it('refuses a wildcard origin when a key is created or an origin added: one line naming it, exit 2', async () => {
      const line = 'error: origin must be one exact origin such as "https://shop.example" (https, or http://localhost:<port>), without a wildcard, received "https://*.example"; register each origin your pages are served from. (see --help)\n';
      expect(await loc('keys', 'create', '--account', 'acme', '--origin', 'https://*.example')).toEqual({ code: 2, stdout: '', stderr: line });
      expect(await loc('keys', 'origins', 'add', keyId, 'https://*.example')).toEqual({ code: 2, stdout: '', stderr: line });
      expect(JSON.parse((await loc('keys', 'list', '--account', 'acme', '--json')).stdout)).toHaveLength(1);
    });

    it('refuses a label with control characters in one line that does not echo them, exit 2', async () => {
      expect(await loc('keys', 'create', '--account', 'acme', '--label', 'a\nb\u001b[31m')).toEqual({
        code: 2, stdout: '', stderr: 'error: label must be one line of visible text; found U+000A at position 1, a control character. (see --help)\n',
      });
      expect(JSON.parse((await loc('keys', 'list', '--account', 'acme', '--json')).stdout)).toHaveLength(1);
    });

    it('adds and removes IP ranges, IPv4 and IPv6', async () => {
      expect(await lookup(secret, '2001:db8::1')).toBe(403);
      expect((await loc('keys', 'ips', 'add', keyId, '2001:db8::/32')).stdout).toContain('2001:db8::/32');
      settle();
      expect(await lookup(secret, '2001:db8::1')).toBe(200);
      expect((await loc('keys', 'ips', 'remove', keyId, '127.0.0.0/8')).stdout).toContain('IP ranges: 2001:db8::/32');
      settle();
      expect(await lookup(secret, '127.0.0.1')).toBe(403);
      expect((await loc('keys', 'ips', 'add', keyId, '10.0.0.0/33')).code).toBe(2);
    });

    it('refuses to remove what the key does not have, naming it and listing what it has', async () => {
      expect(await loc('keys', 'origins', 'remove', keyId, 'https://other.example')).toEqual({
        code: 1, stdout: '', stderr: `error: The origin https://other.example is not on the API key ${keyId}; it has https://shop.example, http://localhost:5173.\n`,
      });
      expect(await loc('keys', 'ips', 'remove', keyId, '10.0.0.1/8')).toEqual({
        code: 1, stdout: '', stderr: `error: The IP range 10.0.0.0/8 is not on the API key ${keyId}; it has 2001:db8::/32.\n`,
      });
      expect(JSON.parse((await loc('keys', 'list', '--account', 'acme', '--json')).stdout)[0]).toMatchObject({
        origins: ['https://shop.example', 'http://localhost:5173'], ipRanges: ['2001:db8::/32'],
      });
    });

    it('removes the last IP range with a warning: the key then accepts any address', async () => {
      expect(await loc('keys', 'ips', 'remove', keyId, '2001:db8::/32')).toEqual({
        code: 0,
        stdout: `API key ${keyId} (active) origins: https://shop.example, http://localhost:5173; IP ranges: any; ${DEFAULT_LIMITS.replace('the default (LOC_DEFAULT_HOURLY_LIMIT)', '500')}.\n`,
        stderr: `warning: API key ${keyId} has no IP ranges left and now accepts requests from any IP address.\n`,
      });
      settle();
      expect(await lookup(secret, '198.51.100.7')).toBe(200);
      expect((await loc('keys', 'ips', 'add', keyId, '127.0.0.0/8')).stderr).toBe('');
      expect((await loc('keys', 'ips', 'remove', keyId, '127.0.0.0/8')).stderr).toContain('now accepts requests from any IP address');
      expect(await loc('keys', 'ips', 'remove', keyId, '127.0.0.0/8')).toMatchObject({ code: 1, stderr: `error: The IP range 127.0.0.0/8 is not on the API key ${keyId}; it has none.\n` });
    });

    it('shows one key by its id, as a log line names it, with its account; never its secret', async () => {
      const shown = await loc('keys', 'show', keyId);
      expect(shown).toMatchObject({ code: 0, stderr: '' });
      expect(shown.stdout).toMatch(new RegExp(`^API key ${keyId} \\(active\\) origins: https://shop\\.example, http://localhost:5173; .*; label: prod; created \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\.\\nAccount: acme \\(acct_[\\w-]+\\), partner: (yes|no)\\.\\n$`));
      const json = await loc('keys', 'show', keyId, '--json');
      expect(JSON.parse(json.stdout)).toEqual(JSON.parse((await loc('keys', 'list', '--account', 'acme', '--json')).stdout)[0]);
      expect(shown.stdout + json.stdout).not.toContain(secret);
      expect(await loc('keys', 'show', 'key_missing')).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('No API key has the id "key_missing"') });
    });

    it('prints the changed key as JSON with --json, for scripts, from every command that changes a key', async () => {
      const steps: [string[], Record<string, unknown>][] = [
        [['keys', 'disable', keyId], { status: 'disabled' }],
        [['keys', 'enable', keyId], { status: 'active' }],
        [['keys', 'set-limit', keyId, '700'], { hourlyLimit: 700 }],
        [['keys', 'set-limit', keyId, '500'], { hourlyLimit: 500 }],
        [['keys', 'origins', 'add', keyId, 'https://json.example'], { origins: ['https://shop.example', 'http://localhost:5173', 'https://json.example'] }],
        [['keys', 'origins', 'remove', keyId, 'https://json.example'], { origins: ['https://shop.example', 'http://localhost:5173'] }],
        [['keys', 'ips', 'add', keyId, '192.0.2.0/24'], { ipRanges: ['192.0.2.0/24'] }],
        [['keys', 'ips', 'remove', keyId, '192.0.2.0/24'], { ipRanges: [] }],
      ];
      let last: unknown;
      for (const [args, expected] of steps) {
        const result = await loc(...args, '--json');
        expect({ args, code: result.code }).toEqual({ args, code: 0 });
        last = JSON.parse(result.stdout);
        expect(last).toMatchObject({ id: keyId, ...expected });
      }
      // The same shape as a key of `loc keys list --json`.
      expect(last).toEqual(JSON.parse((await loc('keys', 'list', '--account', 'acme', '--json')).stdout)[0]);
      const account = await loc('accounts', 'set-partner', 'acme', '--on', '--json');
      expect(JSON.parse(account.stdout)).toEqual(JSON.parse((await loc('accounts', 'list', '--json')).stdout).find((a: { name: string }) => a.name === 'acme'));
    });

    it('answers unknown accounts and keys, and bad options, with one line and a non-zero exit', async () => {
      const cases = await Promise.all([
        loc('keys', 'create', '--account', 'nobody'),
        loc('keys', 'list', '--account', 'nobody'),
        loc('keys', 'disable', 'key_missing'),
        loc('keys', 'origins', 'add', 'key_missing', 'https://a.example'),
        loc('keys', 'create', '--account', 'acme', '--hourly-limit', '0'),
        loc('keys', 'create', '--account', 'acme', '--origin', 'http://shop.example'),
        loc('keys', 'ips', 'add', keyId),
        loc('keys', 'frobnicate'),
      ]);
      for (const result of cases) {
        expect(result.code).toBeGreaterThan(0);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
      }
      expect(cases.map((c) => c.code)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    });
  });

  describe('loc keys create --test and loc test-data wipe', () => {
    const generate = async (key: string, label: string): Promise<number> =>
      (await app.inject({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': key }, payload: { latitude: 48.8584, longitude: 2.2945, label } })).statusCode;
    const labelSeen = async (key: string): Promise<string | null> =>
      json<{ location: { label: string | null } }>(await app.inject({ url: '/v1/loc/lookup/FR-0RMB-CLY0', headers: { 'x-api-key': key } })).location.label;

    it('makes a test key that works like a live one, whose saves live keys never see, and wipes them in one command', async () => {
      const test = JSON.parse((await loc('keys', 'create', '--account', 'acme', '--test', '--json')).stdout) as { key: { id: string; mode: string }; api_key: string };
      expect(test.api_key).toMatch(/^loc_test_[\w-]{43}$/);
      expect(test.key.mode).toBe('test');
      const live = (JSON.parse((await loc('keys', 'create', '--account', 'acme', '--json')).stdout) as { api_key: string }).api_key;
      expect((await loc('keys', 'list', '--account', 'acme')).stdout).toMatch(new RegExp(`${escapeRegExp(test.key.id)}\\s+test\\s+active`));
      expect((await loc('keys', 'show', test.key.id)).stdout).toContain('(test, active)');

      expect(await generate(test.api_key, 'from CI')).toBe(200);
      expect(await labelSeen(test.api_key)).toBe('from CI');
      expect(await labelSeen(live)).toBeNull();
      expect(await generate(live, 'the shop')).toBe(200);
      expect(await labelSeen(live)).toBe('the shop');

      expect(await loc('test-data', 'wipe', '--account', 'acme')).toMatchObject({ code: 0, stdout: 'Wiped 1 test location of acme; live data is untouched.\n' });
      settle();
      expect(await labelSeen(test.api_key)).toBeNull();
      expect(await labelSeen(live)).toBe('the shop');
      expect(JSON.parse((await loc('test-data', 'wipe', '--account', 'acme', '--json')).stdout)).toEqual({ account: 'acme', wiped_locations: 0 });
      expect(await loc('test-data', 'wipe', '--account', 'nobody')).toMatchObject({ code: 1, stderr: 'error: No account is named "nobody"; see loc accounts list.\n' });
    });
  });

  describe('loc keys rotate and finish-rotation', () => {
    const create = async (): Promise<{ key: { id: string }; api_key: string }> =>
      JSON.parse((await loc('keys', 'create', '--account', 'acme', '--origin', 'https://shop.example', '--json')).stdout);

    it('replaces a key without downtime: both work until the rotation is finished, once the replacement was used or with --force', async () => {
      const old = await create();
      const rotated = await loc('keys', 'rotate', old.key.id);
      expect(rotated).toMatchObject({ code: 0, stderr: '' });
      expect(rotated.stdout).toMatch(new RegExp(`^Rotating API key ${old.key.id}: its replacement is key_\\S+ \\(active\\) origins: https://shop\\.example;`));
      expect(rotated.stdout).toContain(`finish with: loc keys finish-rotation ${old.key.id}\n`);
      const replacement = /\n(loc_[\w-]{43})\n/.exec(rotated.stdout)![1];
      expect(await holds(replacement)).toBe(false);
      expect([await lookup(old.api_key), await lookup(replacement)]).toEqual([200, 200]);
      const early = await create();
      await loc('keys', 'rotate', early.key.id);
      expect(await loc('keys', 'finish-rotation', early.key.id)).toEqual({
        code: 1, stdout: '', stderr: `error: The replacement of ${early.key.id} has not been used yet; pass --force to disable ${early.key.id} anyway.\n`,
      });
      expect(JSON.parse((await loc('keys', 'finish-rotation', early.key.id, '--force', '--json')).stdout)).toMatchObject({ id: early.key.id, status: 'disabled' });

      await app.keyUses.flush();
      expect(JSON.parse((await loc('keys', 'finish-rotation', old.key.id, '--json')).stdout)).toMatchObject({ id: old.key.id, status: 'disabled' });
      settle();
      expect([await lookup(old.api_key), await lookup(replacement)]).toEqual([401, 200]);
    });

    it('refuses to rotate a key that is not active or not there, and to finish a rotation never started (exit 1)', async () => {
      const disabled = await create();
      await loc('keys', 'disable', disabled.key.id);
      const never = await create();
      expect(await Promise.all([loc('keys', 'rotate', disabled.key.id), loc('keys', 'rotate', 'key_missing'), loc('keys', 'finish-rotation', never.key.id)])).toEqual([
        { code: 1, stdout: '', stderr: 'error: Only an active key is rotated; enable it first, or create a new key.\n' },
        { code: 1, stdout: '', stderr: 'error: No API key has the id "key_missing"; see loc keys list --account NAME.\n' },
        { code: 1, stdout: '', stderr: `error: API key ${never.key.id} is not being rotated; start with: loc keys rotate ${never.key.id}\n` },
      ]);
    });
  });

    if (engine === 'postgres') {
      it('leaves LOC_DATA_DIR alone: nothing of SQLite is made there', () => {
        expect(readdirSync(untouched)).toEqual([]);
      });
    }
  });
}

describe('values stored before today\'s rules', () => {
  it('a label with control characters is listed escaped, on its own line', async () => {
    const dir = scratch();
    await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'acme');
    const { key } = JSON.parse((await runCli({ LOC_DATA_DIR: dir }, 'keys', 'create', '--account', 'acme', '--json')).stdout);
    // Not the server's database: a second connection in this process cannot disturb its locks.
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare('UPDATE api_keys SET label = ? WHERE id = ?').run('a\nb\u001b[31m\u202e', key.id);
    db.close();
    const table = (await runCli({ LOC_DATA_DIR: dir }, 'keys', 'list', '--account', 'acme')).stdout.split('\n');
    expect(table).toHaveLength(3);
    expect(table[1]).toContain(`${key.id}  live  active  a\\u000ab\\u001b[31m\\u202e  -`);
    expect(table[2]).toBe('');
    const shown = (await runCli({ LOC_DATA_DIR: dir }, 'keys', 'show', key.id)).stdout.split('\n');
    expect(shown).toHaveLength(3);
    expect(shown[0]).toContain('label: a\\u000ab\\u001b[31m\\u202e;');
  });


  it('an origin browsers cannot match is refused when added, flagged by list and show, and removed as written', async () => {
    const dir = scratch();
    await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'acme');
    const added = await runCli({ LOC_DATA_DIR: dir }, 'keys', 'create', '--account', 'acme', '--origin', 'https://a_b.example');
    expect(added).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^error: origin must not have "_" in its host name, received "https:\/\/a_b.example"; browsers cannot match it/) });
    const { key } = JSON.parse((await runCli({ LOC_DATA_DIR: dir }, 'keys', 'create', '--account', 'acme', '--origin', 'https://shop.example', '--json')).stdout);
    // As the key commands stored such origins before the rule.
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare('UPDATE api_keys SET origins = ? WHERE id = ?').run(JSON.stringify(['https://shop.example', 'https://a_b.example']), key.id);
    db.close();
    const warning =
      `warning: API key ${key.id} has the origin https://a_b.example, for which sessions are refused: an origin must not have "_" in its host name; ` +
      'browsers cannot match it in the map frame\'s frame-ancestors, so no page there could show the map. Serve the page under a host name without "_". ' +
      `Remove it with: loc keys origins remove ${key.id} https://a_b.example\n`;
    for (const args of [['list', '--account', 'acme'], ['show', key.id], ['show', key.id, '--json']]) {
      const listed = await runCli({ LOC_DATA_DIR: dir }, 'keys', ...args);
      expect(listed, args.join(' ')).toMatchObject({ code: 0, stdout: expect.stringContaining('https://a_b.example'), stderr: warning });
    }
    expect(await runCli({ LOC_DATA_DIR: dir }, 'keys', 'origins', 'remove', key.id, 'https://a_b.example')).toEqual({
      code: 0, stdout: `API key ${key.id} (active) origins: https://shop.example; IP ranges: any; ${DEFAULT_LIMITS}.\n`, stderr: '',
    });
  });

  it('an origin with a wildcard is removed as it was written, though it would not pass the check any more', async () => {
    const dir = scratch();
    await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'acme');
    const { key } = JSON.parse((await runCli({ LOC_DATA_DIR: dir }, 'keys', 'create', '--account', 'acme', '--origin', 'https://shop.example', '--json')).stdout);
    // Not the server's database: a second connection in this process cannot disturb its locks.
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare('UPDATE api_keys SET origins = ? WHERE id = ?').run(JSON.stringify(['https://shop.example', 'https://*.example']), key.id);
    db.close();
    expect(await runCli({ LOC_DATA_DIR: dir }, 'keys', 'origins', 'remove', key.id, 'https://*.example')).toEqual({
      code: 0,
      stdout: `API key ${key.id} (active) origins: https://shop.example; IP ranges: any; ${DEFAULT_LIMITS}.\n`,
      stderr: '',
    });
  });
});

describe('loc backup', () => {
  it('copies the database consistently while the server uses it, and never over an existing file', async () => {
    const copy = join(dataDir, 'backup.db');
    expect(await loc('backup', copy)).toMatchObject({ code: 0, stdout: `Backed up the database to ${copy}.\n` });
    expect((await loc('backup', copy)).code).toBe(2);
    // Another file than loc.db: opening it here leaves the app's locks on loc.db alone.
    const db = new Database(copy, { readonly: true });
    expect(db.prepare('SELECT name FROM accounts ORDER BY name').pluck().all()).toEqual(['acme', 'globex']);
    db.close();
  });

  it('writes the copy readable by its owner only (0600): it holds key hashes and saved labels', async () => {
    const copy = join(scratch(), 'private.db');
    expect((await loc('backup', copy)).code).toBe(0);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
  });

  it('answers a place the copy cannot go with one line and exit 2', async () => {
    const file = join(scratch(), 'a-file');
    writeFileSync(file, '');
    for (const [target, message] of [
      ['/no/such/dir/x.db', 'cannot create /no/such/dir/x.db: the directory /no/such/dir does not exist'],
      [join(file, 'x.db'), `cannot create ${join(file, 'x.db')}: ${file} is not a directory`],
      [`${join(scratch(), 'x.db')} `, 'ends in white space; give another file name'],
    ]) {
      expect(await loc('backup', target)).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(new RegExp(`^error: .*${escapeRegExp(message)} \\(see --help\\)\\n$`)) });
    }
  });
});

describe('a data directory without a database (LOC_DATA_DIR wrong or unset)', () => {
  const hint = "set LOC_DATA_DIR to the server's data directory (loc accounts create starts a new database).";
  const commands = [
    ['accounts', 'list'], ['accounts', 'set-partner', 'acme', '--on'], ['keys', 'list', '--account', 'acme'],
    ['keys', 'create', '--account', 'acme'], ['keys', 'disable', 'key_x'], ['keys', 'origins', 'add', 'key_x', 'https://a.example'],
  ];

  it('is refused by every command but accounts create, in one line, exit 1, creating nothing', async () => {
    const missing = join(scratch(), 'typo');
    const empty = scratch();
    const runs = [[missing, 'the directory does not exist'], [empty, 'the directory has no loc.db']].flatMap(([dir, why]) =>
      [...commands, ['backup', join(scratch(), 'copy.db')]].map(async (args) => ({ dir, why, args, ...(await runCli({ LOC_DATA_DIR: dir }, ...args)) })));
    for (const { dir, why, ...result } of await Promise.all(runs)) {
      expect(result).toMatchObject({ args: result.args, code: 1, stdout: '', stderr: `error: there is no loc database in ${dir} (${why}); ${hint}\n` });
    }
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(empty)).toEqual([]);
  });

  it('gets one from accounts create, which says so on stderr; the other commands then work', async () => {
    const dir = join(scratch(), 'new');
    expect(await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'acme')).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Created account acme /),
      stderr: `note: created a new database in ${dir}. If the server already has one, set LOC_DATA_DIR to its data directory instead.\n`,
    });
    expect(await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'globex')).toMatchObject({ code: 0, stderr: '' });
    expect(await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'list')).toMatchObject({ code: 0, stdout: expect.stringContaining('globex'), stderr: '' });
  });

  it('is not created by accounts create with a bad name', async () => {
    const dir = join(scratch(), 'new');
    expect((await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'has space')).code).toBe(2);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('a data directory that cannot hold a database', () => {
  it('is a file: every operator command says so in one line and exits 1', async () => {
    const file = join(scratch(), 'not-a-directory');
    writeFileSync(file, '');
    const line = `error: cannot open the database in ${file}: ${file} is not a directory\n`;
    for (const args of [['accounts', 'list'], ['accounts', 'create', '--name', 'acme'], ['keys', 'list', '--account', 'acme'], ['backup', join(scratch(), 'copy.db')]]) {
      expect({ args, ...(await runCli({ LOC_DATA_DIR: file }, ...args)) }).toMatchObject({ args, code: 1, stdout: '', stderr: line });
    }
  });

  it('holds a database SQLite cannot open: every operator command says so as loc serve does, exit 1', async () => {
    // A directory where loc.db should be: SQLite answers SQLITE_CANTOPEN, as it does for a data
    // directory of another user, and this works for root too.
    const dir = scratch();
    mkdirSync(join(dir, DATABASE_FILE));
    const line = `error: cannot open the database in ${dir}: unable to open database file (SQLITE_CANTOPEN)\n`;
    for (const args of [['accounts', 'list'], ['accounts', 'set-partner', 'acme', '--on'], ['keys', 'disable', 'key_x'], ['keys', 'ips', 'remove', 'key_x', '10.0.0.0/8'], ['backup', join(scratch(), 'copy.db')]]) {
      expect({ args, ...(await runCli({ LOC_DATA_DIR: dir }, ...args)) }).toMatchObject({ args, code: 1, stdout: '', stderr: line });
    }
  });

  it('was written by a newer loc: every operator command says so in one line, exit 1, and leaves it as it is', async () => {
    const dir = scratch();
    expect((await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'acme')).code).toBe(0);
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma('user_version = 99');
    db.close();
    const line = `error: cannot open the database in ${dir}: the database has schema version 99, newer than this loc knows (${MIGRATIONS.length}): it was written by a newer loc; run that version, or restore a backup made by this one\n`;
    for (const args of [['accounts', 'list'], ['accounts', 'create', '--name', 'globex'], ['keys', 'disable', 'key_x'], ['backup', join(scratch(), 'copy.db')]]) {
      expect({ args, ...(await runCli({ LOC_DATA_DIR: dir }, ...args)) }).toMatchObject({ args, code: 1, stdout: '', stderr: line });
    }
    const after = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(99);
    expect(after.prepare('SELECT name FROM accounts').pluck().all()).toEqual(['acme']);
    after.close();
  });
});

describe('--help', () => {
  const commands = [
    ['serve'], ['accounts'], ['accounts', 'create'], ['accounts', 'list'], ['accounts', 'set-partner'],
    ['keys'], ['keys', 'create'], ['keys', 'list'], ['keys', 'show'], ['keys', 'disable'], ['keys', 'enable'], ['keys', 'set-limit'],
    ['keys', 'origins'], ['keys', 'origins', 'add'], ['keys', 'origins', 'remove'],
    ['keys', 'ips'], ['keys', 'ips', 'add'], ['keys', 'ips', 'remove'], ['keys', 'rotate'], ['keys', 'finish-rotation'], ['keys', 'usage'], ['audit'], ['test-data'], ['test-data', 'wipe'], ['backup'],
  ];
  it('works on every operator subcommand', async () => {
    const results = await Promise.all(commands.map((words) => loc(...words, '--help')));
    results.forEach((result, i) => {
      expect({ command: commands[i].join(' '), code: result.code }).toEqual({ command: commands[i].join(' '), code: 0 });
      expect(result.stdout).toContain(`Usage: loc ${commands[i].join(' ')}`);
    });
  });

  it('says when a running server follows a change: within a second (its key cache), not from the next request', async () => {
    for (const words of [['keys', 'disable'], ['keys', 'enable'], ['keys', 'set-limit']]) {
      const { stdout } = await loc(...words, '--help');
      expect(stdout.replace(/\s+/g, ' ')).toContain('a running server');
      expect(stdout.replace(/\s+/g, ' ')).toMatch(/within a second/);
    }
  });
});
