/**
 * Every change leaves exactly one audit entry, and a change that changed nothing leaves none, however
 * stale the server's key cache: two servers on one PostgreSQL database, each with its own cache (held
 * while the test's clock stands still, so each server goes on seeing a key as it first read it), and
 * the operator CLI changing the same rows beside them. Whether a change changed anything is decided by
 * the write itself, on the row as the database held it.
 */
import { expect, it } from 'vitest';
import { runCli, type CommandResult } from '../../test/support/cli.ts';
import { PASSWORD, panelClient, type PanelClient } from '../../test/support/panel-client.ts';
import { panelFleets, type PanelFleet } from '../../test/support/panel-fleet.ts';
import type { TestService } from '../../test/support/service.ts';
import type { Account, ApiKey } from '../store/store.ts';

const panelFleet = panelFleets();

interface Fleet extends PanelFleet {
  /** `loc args…` on the fleet's database. */
  cli: (...args: string[]) => Promise<CommandResult>;
  /** `loc args…` on the fleet's database, which must exit with `code`. */
  loc: (code: number, ...args: string[]) => Promise<void>;
}

/** The fleet, its user an operator of acme, and the CLI on its database. */
async function fleet(): Promise<Fleet> {
  const made = await panelFleet({ operator: true });
  const cliEnv = { LOC_DATABASE_URL: made.databaseUrl, LOC_PUBLIC_URL: made.one.config.publicUrl };
  const cli = (...args: string[]) => runCli(cliEnv, ...args);
  const loc = async (code: number, ...args: string[]) => {
    const result = await cli(...args);
    expect(result.code, `loc ${args.join(' ')}: ${result.stderr}`).toBe(code);
  };
  return { ...made, cli, loc };
}

/** The account's audit entries as `action target`, oldest first. */
async function entries(server: TestService, account: Account): Promise<string[]> {
  const log = await server.app.store.audit.listAudit({ accountId: account.id, limit: 500 });
  return log.reverse().map((entry) => `${entry.action} ${entry.target}`);
}

/** Runs `change`, and expects it to have appended exactly `expected` to the account's audit log. */
async function audited(f: Fleet, what: string, expected: string[], change: () => Promise<unknown>): Promise<void> {
  const before = (await entries(f.one, f.account)).length;
  await change();
  expect((await entries(f.one, f.account)).slice(before), what).toEqual(expected);
}

/** Submits a form of the key's page through `client`, which must be answered with `status`. */
async function form(client: PanelClient, key: ApiKey, path: string, fields: Record<string, string> = {}, status = 303): Promise<void> {
  const page = `/panel/accounts/${key.accountId}/keys/${key.id}`;
  expect((await client.get(page)).statusCode).toBe(200);
  const answer = await client.submit(`${page}${path}`, fields);
  expect(answer.statusCode, `${path}: ${answer.body.slice(0, 200)}`).toBe(status);
}

/** Both servers read the key into their caches, which keep it as read while the clock stands still. */
async function cacheOnBoth(f: Fleet, key: ApiKey): Promise<void> {
  for (const client of [f.onOne, f.onTwo]) expect((await client.get(`/panel/accounts/${key.accountId}/keys/${key.id}`)).statusCode).toBe(200);
}

it('records each change to a key once, whichever server or the CLI made it, however stale the server that makes the next', async () => {
  const f = await fleet();
  const { key } = await f.one.key('acme', { ipRanges: ['203.0.113.0/24'], origins: ['https://shop.example'] });
  await cacheOnBoth(f, key);

  // Server one still holds the key active when it enables it again after the CLI disabled it.
  await audited(f, 'CLI disable', [`key.disable ${key.id}`], () => f.loc(0, 'keys', 'disable', key.id));
  await audited(f, 'enable through one', [`key.enable ${key.id}`], () => form(f.onOne, key, '/enable'));
  await audited(f, 'enable through two', [], () => form(f.onTwo, key, '/enable'));
  await audited(f, 'CLI enable', [], () => f.loc(0, 'keys', 'enable', key.id));

  // A range removed through two is removed once, though server one still holds it.
  await cacheOnBoth(f, key);
  await audited(f, 'range removed through two', [`key.ip_remove ${key.id}`], () => form(f.onTwo, key, '/ip-ranges/remove', { ip_range: '203.0.113.0/24' }));
  await audited(f, 'range removed through one', [], () => form(f.onOne, key, '/ip-ranges/remove', { ip_range: '203.0.113.0/24' }));
  // A range the CLI added, which server one has not seen, is removed with an entry.
  await cacheOnBoth(f, key);
  await audited(f, 'CLI range add', [`key.ip_add ${key.id}`], () => f.loc(0, 'keys', 'ips', 'add', key.id, '198.51.100.0/24'));
  await audited(f, 'CLI range removed through one', [`key.ip_remove ${key.id}`], () => form(f.onOne, key, '/ip-ranges/remove', { ip_range: '198.51.100.0/24' }));

  // An origin the CLI removed, which both servers still hold, is added back with an entry, once.
  await cacheOnBoth(f, key);
  await audited(f, 'CLI origin remove', [`key.origin_remove ${key.id}`], () => f.loc(0, 'keys', 'origins', 'remove', key.id, 'https://shop.example'));
  await audited(f, 'origin added through one', [`key.origin_add ${key.id}`], () => form(f.onOne, key, '/origins', { origin: 'https://shop.example' }));
  await audited(f, 'origin added through two', [], () => form(f.onTwo, key, '/origins', { origin: 'https://shop.example' }));

  await audited(f, 'CLI limit', [`key.set_limits ${key.id}`], () => f.loc(0, 'keys', 'set-limit', key.id, '500'));
  await audited(f, 'CLI limit again', [], () => f.loc(0, 'keys', 'set-limit', key.id, '500'));

  // The same change sent at once through both servers and the CLI: one of them made it.
  await cacheOnBoth(f, key);
  await audited(f, 'disabled at once', [`key.disable ${key.id}`], () =>
    Promise.all([form(f.onOne, key, '/disable'), form(f.onTwo, key, '/disable'), f.loc(0, 'keys', 'disable', key.id)]));
  // The CLI says when the origin was not there: when another removed it first.
  await audited(f, 'origin removed at once', [`key.origin_remove ${key.id}`], () =>
    Promise.all([
      form(f.onOne, key, '/origins/remove', { origin: 'https://shop.example' }),
      form(f.onTwo, key, '/origins/remove', { origin: 'https://shop.example' }),
      f.cli('keys', 'origins', 'remove', key.id, 'https://shop.example'),
    ]));
});

it('rotates a key only when it is active as stored, and records the rotation\'s end once', async () => {
  const f = await fleet();
  const { key } = await f.one.key('acme');
  await cacheOnBoth(f, key);
  // Disabled by the CLI while server one still holds it active: a disabled key is not rotated.
  await audited(f, 'CLI disable', [`key.disable ${key.id}`], () => f.loc(0, 'keys', 'disable', key.id));
  await audited(f, 'rotation of a disabled key through one', [], () => form(f.onOne, key, '/rotate', {}, 422));
  expect(await f.one.app.store.panel.listRotations(f.account.id)).toEqual([]);

  await audited(f, 'CLI enable', [`key.enable ${key.id}`], () => f.loc(0, 'keys', 'enable', key.id));
  await audited(f, 'rotation through two', [`key.rotate ${key.id}`], () => form(f.onTwo, key, '/rotate', {}, 201));
  const finish = (client: PanelClient) => form(client, key, '/rotation/finish', { confirm: 'yes' });
  await audited(f, 'rotation finished through two', [`key.disable ${key.id}`], () => finish(f.onTwo));
  // Server one still holds the key active: finishing again changes nothing.
  await audited(f, 'rotation finished again through one', [], () => finish(f.onOne));

  // A rotation whose key the CLI disabled meanwhile: finishing it ends the rotation, which is recorded.
  const { key: other } = await f.one.key('acme');
  await audited(f, 'second rotation through one', [`key.rotate ${other.id}`], () => form(f.onOne, other, '/rotate', {}, 201));
  await audited(f, 'CLI disable of the rotated key', [`key.disable ${other.id}`], () => f.loc(0, 'keys', 'disable', other.id));
  await audited(f, 'rotation finished through two', [`key.rotation_finish ${other.id}`], () => form(f.onTwo, other, '/rotation/finish', { confirm: 'yes' }));
  expect((await f.one.app.store.panel.listRotations(f.account.id)).find((rotation) => rotation.oldKeyId === other.id)?.finishedAt).not.toBeNull();
  await audited(f, 'that rotation finished again through one', [], () => form(f.onOne, other, '/rotation/finish', { confirm: 'yes' }));
});

it('records each change to the team, to sessions and to partner status once, whichever server or the CLI made it', async () => {
  const f = await fleet();
  const team = `/panel/accounts/${f.account.id}/team`;
  const submit = async (client: PanelClient, page: string, path: string, fields: Record<string, string>, status: number) => {
    expect((await client.get(page)).statusCode).toBe(200);
    const answer = await client.submit(path, fields);
    expect(answer.statusCode, `${path}: ${answer.body.slice(0, 200)}`).toBe(status);
  };

  await audited(f, 'CLI invitation', ['user.invite bob@example.com'], () => f.loc(0, 'accounts', 'invite', '--account', 'acme', '--email', 'bob@example.com'));
  await audited(f, 'invitation through one', [], () => submit(f.onOne, team, team, { email: 'bob@example.com' }, 422));
  const bob = (await f.one.app.store.panel.findUserByEmail('bob@example.com'))!;
  await audited(f, 'removal through two', ['user.remove bob@example.com'], () => submit(f.onTwo, team, `${team}/remove`, { user: bob.id }, 303));
  await audited(f, 'removal through one', [], () => submit(f.onOne, team, `${team}/remove`, { user: bob.id }, 404));
  await audited(f, 'CLI removal', [], () => f.loc(1, 'users', 'remove', '--email', 'bob@example.com'));

  // Signing out the other sessions: once when there was one, and not when none is left.
  const other = panelClient(f.two);
  expect((await other.submit('/panel/sign-in', { email: 'ada@example.com', password: PASSWORD })).statusCode).toBe(303);
  const security = '/panel/security';
  await audited(f, 'other sessions signed out through one', ['user.sessions_end null'], () => submit(f.onOne, security, `${security}/sign-out-everywhere`, {}, 303));
  await audited(f, 'none left to sign out through two', [], () => submit(f.onTwo, security, `${security}/sign-out-everywhere`, {}, 303));

  const accounts = '/panel/accounts';
  const partner = (client: PanelClient, on: boolean) => submit(client, accounts, `${accounts}/partner`, { account: f.account.id, ...(on ? { partner: 'on' } : {}) }, 303);
  await audited(f, 'CLI partner off', ['account.partner_off acme'], () => f.loc(0, 'accounts', 'set-partner', 'acme', '--off'));
  await audited(f, 'partner on through one', ['account.partner_on acme'], () => partner(f.onOne, true));
  await audited(f, 'partner on through two', [], () => partner(f.onTwo, true));
  await audited(f, 'partner off at once', ['account.partner_off acme'], () =>
    Promise.all([partner(f.onOne, false), partner(f.onTwo, false), f.loc(0, 'accounts', 'set-partner', 'acme', '--off')]));
});
