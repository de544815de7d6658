/**
 * `loc accounts invite` and `loc users …`, run in-process (test/support/cli.ts), on SQLite and once on
 * PostgreSQL: the one-time links they print lead to the link page at the service's public URL, work
 * as the panel will use them and are stored as hashes only; the refusals are one line each. Commands
 * that do not depend on each other run at once.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CommandResult } from '../../test/support/cli.ts';
import { createTestDatabase, stopPostgres } from '../../test/support/postgres.ts';
import { hashSecret } from '../auth/secrets.ts';
import { LINK_PATH } from '../auth/panel-links.ts';
import { openPostgresStore } from '../store/postgres/postgres.ts';
import { openSqliteStore } from '../store/sqlite/sqlite.ts';
import type { Store } from '../store/store.ts';

const PUBLIC_URL = 'https://loc.example';
const TOKEN = /\?token=([\w-]{43})$/;
const tokenOf = (url: string): string => TOKEN.exec(url)![1];

/** What the panel will ask of a link the CLI printed: whose it is, and for what. */
async function linkIn(store: Store, url: string) {
  return store.panel.findLink(hashSecret(tokenOf(url)), Date.now());
}

let dataDir: string;
/** `loc …` on the SQLite database of `dataDir`, with the public URL set. */
const loc = (...args: string[]): Promise<CommandResult> => runCli({ LOC_DATA_DIR: dataDir, LOC_PUBLIC_URL: PUBLIC_URL }, ...args);
/** The database of `dataDir`, opened for the length of `work` only: the CLI's runs write it between. */
async function inSqlite<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const store = openSqliteStore(dataDir, { create: false });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-users-'));
  const store = openSqliteStore(dataDir);
  await store.createAccount({ name: 'acme', partner: true, createdAt: 1 });
  await store.createAccount({ name: 'globex', partner: false, createdAt: 2 });
  await store.close();
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await stopPostgres();
});

describe('on sqlite', () => {
  let adaLink: string;

  it('invites: a user of the account, and a one-time link at the public URL, stored as its hash only', async () => {
    const before = Date.now();
    const [json, text, local] = await Promise.all([
      loc('accounts', 'invite', '--account', 'acme', '--email', ' Ada@Example.COM ', '--json'),
      loc('accounts', 'invite', '--account', 'globex', '--email', 'bob@globex.example', '--operator'),
      runCli({ LOC_DATA_DIR: dataDir, PORT: '9000' }, 'accounts', 'invite', '--account', 'acme', '--email', 'carol@example.com'),
    ]);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const invited = JSON.parse(json.stdout) as { user: Record<string, unknown>; link: { url: string; expires_at: string } };
    expect(invited.user).toEqual({
      id: expect.stringMatching(/^usr_/), email: 'ada@example.com', account: 'acme', accountId: expect.stringMatching(/^acct_/), operator: false,
      status: 'invited', createdAt: expect.any(Number), activatedAt: null,
    });
    expect(invited.link.url).toMatch(new RegExp(`^${PUBLIC_URL}${LINK_PATH}\\?token=[\\w-]{43}$`));
    const week = Date.parse(invited.link.expires_at) - before;
    expect(week).toBeGreaterThanOrEqual(7 * 24 * 3_600_000);
    expect(week).toBeLessThan(7 * 24 * 3_600_000 + 60_000);
    adaLink = invited.link.url;

    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(new RegExp(
      '^Invited bob@globex\\.example \\(usr_[\\w-]+\\) of globex, operator: yes, invited\\.\\n' +
        'One-time link, until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC \\(shown this once; only its hash is stored\\):\\n' +
        `${PUBLIC_URL}${LINK_PATH}\\?token=[\\w-]{43}\\n$`,
    ));
    // Without LOC_PUBLIC_URL, the URL loc serve would use, and a warning that it names this machine.
    expect(local).toMatchObject({
      code: 0, stdout: expect.stringMatching(/\nhttp:\/\/localhost:9000\/panel\/link\?token=[\w-]{43}\n$/),
      stderr: 'warning: LOC_PUBLIC_URL is not set, so the link names http://localhost:9000, as loc serve would; set it to the URL the service is reached at\n',
    });

    await inSqlite(async (store) => {
      expect(await linkIn(store, adaLink)).toEqual({ user: expect.objectContaining({ email: 'ada@example.com', passwordHash: null }), purpose: 'invite' });
      expect(await linkIn(store, text.stdout.trim().split('\n').at(-1)!)).toMatchObject({ user: { email: 'bob@globex.example', operator: true } });
    });
    const files = readdirSync(dataDir).map((name) => readFileSync(join(dataDir, name)));
    expect(files.some((content) => content.includes(tokenOf(adaLink)))).toBe(false);
  });

  it('refuses in one line: an unknown account or an address taken (exit 1), a malformed address or public URL (exit 2)', async () => {
    const results = await Promise.all([
      loc('accounts', 'invite', '--account', 'nobody', '--email', 'dave@example.com'),
      loc('accounts', 'invite', '--account', 'globex', '--email', 'ADA@example.com'),
      loc('accounts', 'invite', '--account', 'acme', '--email', 'dave at example.com'),
      runCli({ LOC_DATA_DIR: dataDir, LOC_PUBLIC_URL: 'ftp://loc.example' }, 'accounts', 'invite', '--account', 'acme', '--email', 'dave@example.com'),
      loc('users', 'recover', '--email', 'dave@example.com'),
      loc('users', 'list', '--account', 'nobody'),
      // The warning that LOC_PUBLIC_URL is not set comes with a link only.
      runCli({ LOC_DATA_DIR: dataDir }, 'accounts', 'invite', '--account', 'nobody', '--email', 'dave@example.com'),
    ]);
    expect(results).toEqual([
      { code: 1, stdout: '', stderr: 'error: No account is named "nobody"; see loc accounts list.\n' },
      { code: 1, stdout: '', stderr: 'error: ada@example.com already has a user; for a new link, use recovery.\n' },
      {
        code: 2, stdout: '',
        stderr: "error: option '--email <address>' argument 'dave at example.com' is invalid. email must be an e-mail address such as ada@example.com (received \"dave at example.com\") (see --help)\n",
      },
      { code: 2, stdout: '', stderr: 'error: LOC_PUBLIC_URL must be an http or https URL, received "ftp://loc.example". (see --help)\n' },
      { code: 1, stdout: '', stderr: 'error: No user has the e-mail address "dave@example.com"; see loc users list.\n' },
      { code: 1, stdout: '', stderr: 'error: No account is named "nobody"; see loc accounts list.\n' },
      { code: 1, stdout: '', stderr: 'error: No account is named "nobody"; see loc accounts list.\n' },
    ]);
  });

  it('lists users, of every account or of one, invited or active, never a password hash; the refusals added none', async () => {
    await inSqlite(async (store) => {
      const ada = (await store.panel.findUserByEmail('ada@example.com'))!;
      await store.panel.setPassword(ada.id, '$argon2id$secret-hash', Date.now());
    });
    const [table, one] = await Promise.all([loc('users', 'list'), loc('users', 'list', '--account', 'globex', '--json')]);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+ACCOUNT\s+OPERATOR\s+STATUS\s+CREATED \(UTC\)$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 4)).sort()).toEqual([
      ['ada@example.com', 'acme', 'no', 'active'], ['bob@globex.example', 'globex', 'yes', 'invited'], ['carol@example.com', 'acme', 'no', 'invited'],
    ]);
    expect(JSON.parse(one.stdout)).toEqual([expect.objectContaining({ email: 'bob@globex.example', account: 'globex', status: 'invited' })]);
    expect(table.stdout + one.stdout + (await loc('users', 'list', '--json')).stdout).not.toContain('secret-hash');
  });

  it('recovers: a recovery link that replaces the open one; and grants and takes operator status', async () => {
    const recovered = await loc('users', 'recover', '--email', 'Ada@example.com', '--json');
    expect(recovered).toMatchObject({ code: 0, stderr: '' });
    const { user, link } = JSON.parse(recovered.stdout) as { user: { email: string; status: string }; link: { url: string } };
    expect(user).toMatchObject({ email: 'ada@example.com', status: 'active' });
    await inSqlite(async (store) => {
      expect(await linkIn(store, link.url)).toMatchObject({ user: { email: 'ada@example.com' }, purpose: 'recovery' });
      expect(await linkIn(store, adaLink)).toBeNull();
    });

    const [on, json, neither, nobody] = await Promise.all([
      loc('users', 'set-operator', 'ADA@example.com', '--on'),
      loc('users', 'set-operator', 'bob@globex.example', '--off', '--json'),
      loc('users', 'set-operator', 'carol@example.com'),
      loc('users', 'set-operator', 'dave@example.com', '--on'),
    ]);
    expect(on).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^User ada@example\.com \(usr_[\w-]+\) of acme, operator: yes, active\.\n$/) });
    expect(JSON.parse(json.stdout)).toMatchObject({ email: 'bob@globex.example', operator: false });
    expect(neither).toEqual({ code: 2, stdout: '', stderr: 'error: give exactly one of --on or --off (see --help)\n' });
    expect(nobody).toEqual({ code: 1, stdout: '', stderr: 'error: No user has the e-mail address "dave@example.com"; see loc users list.\n' });
    await inSqlite(async (store) => {
      expect((await store.panel.findUserByEmail('ada@example.com'))?.operator).toBe(true);
      expect((await store.panel.findUserByEmail('bob@globex.example'))?.operator).toBe(false);
    });
  });

  it('removes a user: gone with their sessions, the address free for a new invitation; an unknown one exit 1', async () => {
    const invited = await loc('accounts', 'invite', '--account', 'acme', '--email', 'erin@example.com', '--json');
    expect(invited.code).toBe(0);
    const [removed, unknown] = await Promise.all([loc('users', 'remove', '--email', 'ERIN@example.com'), loc('users', 'remove', '--email', 'nobody@example.com')]);
    expect(removed).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Removed user erin@example\.com \(usr_[\w-]+\) of acme, operator: no, invited\.\n$/) });
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    await inSqlite(async (store) => {
      expect(await store.panel.findUserByEmail('erin@example.com')).toBeNull();
      expect(await linkIn(store, (JSON.parse(invited.stdout) as { link: { url: string } }).link.url)).toBeNull();
    });
    expect((await loc('accounts', 'invite', '--account', 'acme', '--email', 'erin@example.com')).code).toBe(0);
  });

  it('refuses an address with a control or invisible character wherever one is given (exit 2), and prints a stored one escaped', async () => {
    const [zeroWidth, nul, remove, operator] = await Promise.all([
      loc('accounts', 'invite', '--account', 'acme', '--email', 'ada\u200b@example.com'),
      loc('accounts', 'invite', '--account', 'acme', '--email', 'ada\u0000@example.com'),
      loc('users', 'remove', '--email', 'ada@exam\u202eple.com'),
      loc('users', 'set-operator', 'ada@example.com\u001b[2J', '--on'),
    ]);
    expect(zeroWidth).toEqual({
      code: 2, stdout: '',
      stderr: "error: option '--email <address>' argument 'ada\\u200b@example.com' is invalid. email must be one line of visible text; found U+200B at position 3, an invisible format character. (see --help)\n",
    });
    expect(nul).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('found U+0000 at position 3, a control character') });
    expect(remove).toMatchObject({ code: 2, stderr: expect.stringContaining('found U+202E at position 8, a bidirectional embedding') });
    expect(operator).toMatchObject({ code: 2, stderr: expect.stringContaining('found U+001B at position 15, a control character') });
    expect(zeroWidth.stderr + nul.stderr + remove.stderr + operator.stderr).not.toMatch(/[\u0000\u001b\u200b\u202e]/);

    // A row written before addresses were checked is shown, not obeyed.
    await inSqlite(async (store) => {
      const acme = (await store.findAccount('acme'))!;
      await store.panel.createUser({ accountId: acme.id, email: 'eve\u202egro.elpmaxe@example.com', operator: false, createdAt: Date.now() });
    });
    const listed = await loc('users', 'list', '--account', 'acme');
    expect(listed.stdout).toContain('eve\\u202egro.elpmaxe@example.com');
    expect(listed.stdout).not.toContain('\u202e');
    await inSqlite(async (store) => {
      await store.panel.removeUser((await store.panel.findUserByEmail('eve\u202egro.elpmaxe@example.com'))!.id);
    });
  });

  it('has --help, which names every users command', async () => {
    const [invite, users] = await Promise.all([loc('accounts', 'invite', '--help'), loc('users', '--help')]);
    expect(invite).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: loc accounts invite [options]') });
    expect(users).toMatchObject({ code: 0, stdout: expect.stringMatching(/Usage: loc users[^]*\n {2}list [^]*\n {2}recover [^]*\n {2}remove [^]*\n {2}set-operator /) });
  });
});

describe('on postgres', () => {
  it('invites and lists, on the database of LOC_DATABASE_URL', async () => {
    const database = await createTestDatabase();
    try {
      const seeded = await openPostgresStore(database.url);
      await seeded.createAccount({ name: 'acme', partner: true, createdAt: 1 });
      await seeded.close();
      const env = { LOC_DATA_DIR: join(dataDir, 'unused'), LOC_DATABASE_URL: database.url, LOC_PUBLIC_URL: PUBLIC_URL };
      const invited = await runCli(env, 'accounts', 'invite', '--account', 'acme', '--email', 'Ada@Example.com', '--operator', '--json');
      expect(invited).toMatchObject({ code: 0, stderr: '' });
      const { link } = JSON.parse(invited.stdout) as { link: { url: string } };
      const listed = await runCli(env, 'users', 'list', '--json');
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ email: 'ada@example.com', account: 'acme', operator: true, status: 'invited' })]);
      const store = await openPostgresStore(database.url, { create: false });
      try {
        expect(await linkIn(store, link.url)).toMatchObject({ user: { email: 'ada@example.com' }, purpose: 'invite' });
      } finally {
        await store.close();
      }
    } finally {
      await database.dispose();
    }
  });
});
