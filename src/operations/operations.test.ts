/**
 * Each operation from both of its fronts: the CLI (in-process, on the server's own SQLite file) and
 * the panel (a signed-in browser over the server). Made on two like targets, one per front, the same
 * operation must leave the same rows and the same audit entry, apart from who made it and where.
 * Operations with one front — the CLI's account creation, limits, operator status, recovery and
 * test-data wipe, each the operator's alone — are checked from it with the audit entry it leaves.
 */
import { userInfo } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.ts';
import { newUser, type PanelClient } from '../../test/support/panel-client.ts';
import { fileService } from '../../test/support/service.ts';
import type { AuditEntry } from '../store/audit-store.ts';
import type { Account, ApiKey } from '../store/store.ts';

const service = fileService();
const loc = (...args: string[]) => runCli({ LOC_DATA_DIR: service.dataDir, LOC_PUBLIC_URL: service.config.publicUrl }, ...args);

/** Runs `loc args…`, which must succeed. */
async function cli(...args: string[]): Promise<void> {
  const result = await loc(...args);
  expect(result.code, result.stderr).toBe(0);
}

/** Submits a panel form from the page at `page`, which must answer with `status`. */
async function panel(client: PanelClient, page: string, path: string, fields: Record<string, string> = {}, status = 303): Promise<void> {
  await client.get(page);
  const answer = await client.submit(path, fields);
  expect(answer.statusCode, answer.body.slice(0, 300)).toBe(status);
}

/** The newest audit entry of the account about `target`, as both fronts must write it: without who, where, when and its seq. */
async function lastEntry(accountId: string, target: string | null): Promise<Pick<AuditEntry, 'accountId' | 'action' | 'details'> & { via: string }> {
  const entries = await service.app.store.audit.listAudit({ accountId, limit: 50 });
  const entry = entries.find((candidate) => candidate.target === target);
  if (entry === undefined) throw new Error(`no audit entry about ${target}`);
  return { accountId: entry.accountId, action: entry.action, details: entry.details, via: entry.via };
}

/** A key as both fronts must leave it: everything but its id and creation. */
const settings = ({ id, createdAt, ...rest }: ApiKey) => rest;

let ada: { client: PanelClient; email: string; account: Account };
beforeAll(async () => {
  ada = await newUser(service, 'ada');
});

const keyPage = (key: ApiKey, rest = '') => `/panel/accounts/${key.accountId}/keys/${key.id}${rest}`;

/** Two like keys of ada's account, one for each front, and what each front's operation left on its own. */
async function onBothFronts(
  options: { origins?: readonly string[]; ipRanges?: readonly string[] },
  viaCli: (key: ApiKey) => Promise<void>,
  viaPanel: (key: ApiKey) => Promise<void>,
): Promise<{ cli: ApiKey; panel: ApiKey }> {
  const [one, two] = [(await service.key(ada.account.name, options)).key, (await service.key(ada.account.name, options)).key];
  await viaCli(one);
  await viaPanel(two);
  const [cliKey, panelKey] = [(await service.app.store.getKey(one.id))!, (await service.app.store.getKey(two.id))!];
  expect(settings(cliKey)).toEqual(settings(panelKey));
  expect(await lastEntry(ada.account.id, one.id)).toEqual({ ...(await lastEntry(ada.account.id, two.id)), via: 'cli' });
  return { cli: cliKey, panel: panelKey };
}

describe('a key, from the CLI and from the panel alike', () => {
  it('is created with the same settings and the same key.create entry', async () => {
    await cli('keys', 'create', '--account', ada.account.name, '--origin', 'https://shop.example', '--ip', '203.0.113.0/24', '--label', 'twins', '--hourly-limit', '70');
    const newKey = `/panel/accounts/${ada.account.id}/keys/new`;
    await panel(ada.client, newKey, `/panel/accounts/${ada.account.id}/keys`, { label: 'twins', mode: 'live', origins: 'https://shop.example', ip_ranges: '203.0.113.0/24', hourly_limit: '70' }, 201);
    const twins = (await service.app.store.listKeys(ada.account.id)).filter((key) => key.label === 'twins');
    expect(twins).toHaveLength(2);
    expect(settings(twins[0])).toEqual(settings(twins[1]));
    expect(await lastEntry(ada.account.id, twins[0].id)).toEqual({ ...(await lastEntry(ada.account.id, twins[1].id)), via: 'cli' });
    expect((await lastEntry(ada.account.id, twins[1].id)).action).toBe('key.create');
  });

  it('is disabled, and enabled again', async () => {
    const disabled = await onBothFronts({}, (key) => cli('keys', 'disable', key.id), (key) => panel(ada.client, keyPage(key), keyPage(key, '/disable')));
    expect(disabled.cli.status).toBe('disabled');
    expect((await lastEntry(ada.account.id, disabled.cli.id)).action).toBe('key.disable');
    await cli('keys', 'enable', disabled.cli.id);
    await panel(ada.client, keyPage(disabled.panel), keyPage(disabled.panel, '/enable'));
    expect((await service.app.store.getKey(disabled.panel.id))?.status).toBe('active');
    expect(await lastEntry(ada.account.id, disabled.cli.id)).toEqual({ ...(await lastEntry(ada.account.id, disabled.panel.id)), via: 'cli' });
  });

  // Each list change: the key's settings, the value typed (an IP range in a form to make canonical), the
  // list it leaves and the entry's detail.
  it.each([
    ['gains an origin', {}, ['origins', 'add'], '/origins', 'origin', 'https://twin.example', ['https://shop.example', 'https://twin.example'], 'key.origin_add', { origin: 'https://twin.example' }],
    ['loses an origin', { origins: ['https://shop.example', 'https://old.example'] }, ['origins', 'remove'], '/origins/remove', 'origin', 'https://old.example', ['https://shop.example'], 'key.origin_remove', { origin: 'https://old.example' }],
    ['gains an IP range, in its canonical form', {}, ['ips', 'add'], '/ip-ranges', 'ip_range', '198.51.100.7/24', ['198.51.100.0/24'], 'key.ip_add', { range: '198.51.100.0/24' }],
    ['loses an IP range', { ipRanges: ['198.51.100.0/24', '203.0.113.0/24'] }, ['ips', 'remove'], '/ip-ranges/remove', 'ip_range', '203.0.113.0/24', ['198.51.100.0/24'], 'key.ip_remove', { range: '203.0.113.0/24' }],
  ] as const)('%s', async (_, options: { origins?: readonly string[]; ipRanges?: readonly string[] }, command, path, field, value, list, action, details) => {
    const changed = await onBothFronts(
      options,
      (key) => cli('keys', ...command, key.id, value),
      (key) => panel(ada.client, keyPage(key), keyPage(key, path), { [field]: value }),
    );
    expect(changed.cli[command[0] === 'origins' ? 'origins' : 'ipRanges']).toEqual(list);
    expect(await lastEntry(ada.account.id, changed.cli.id)).toMatchObject({ action, details });
  });
});

describe('a rotation, from the CLI and from the panel alike', () => {
  it('replaces a key with one of its settings, then disables it, with the same entries', async () => {
    const [one, two] = [(await service.key(ada.account.name, { label: 'rotated' })).key, (await service.key(ada.account.name, { label: 'rotated' })).key];
    await cli('keys', 'rotate', one.id);
    await panel(ada.client, keyPage(two), keyPage(two, '/rotate'), {}, 201);
    const rotations = await service.app.store.panel.listRotations(ada.account.id);
    const replacementOf = async (key: ApiKey) => (await service.app.store.getKey(rotations.find((rotation) => rotation.oldKeyId === key.id)!.newKeyId))!;
    expect(settings(await replacementOf(one))).toEqual(settings(one));
    expect(settings(await replacementOf(two))).toEqual(settings(two));
    // The entries name each its own replacement.
    const entry = async (key: ApiKey) => {
      const { details, ...rest } = await lastEntry(ada.account.id, key.id);
      expect(details.replacement).toBe((await replacementOf(key)).id);
      return { ...rest, details: { ...details, replacement: 'its replacement' } };
    };
    expect(await entry(one)).toEqual({ ...(await entry(two)), via: 'cli' });
    expect((await entry(one)).action).toBe('key.rotate');

    await cli('keys', 'finish-rotation', one.id, '--force');
    await panel(ada.client, keyPage(two, '/rotation'), keyPage(two, '/rotation/finish'), { confirm: 'yes' });
    expect(settings((await service.app.store.getKey(one.id))!)).toEqual(settings((await service.app.store.getKey(two.id))!));
    expect((await service.app.store.getKey(one.id))?.status).toBe('disabled');
    expect(await entry(one)).toEqual({ ...(await entry(two)), via: 'cli' });
    expect(await entry(one)).toMatchObject({ action: 'key.disable', details: { rotation: 'finished' } });
  });

  it('refuses a second rotation while one is under way, pointing at it; once its replacement is disabled, another may start', async () => {
    const { key } = await service.key(ada.account.name, { label: 'twice' });
    await cli('keys', 'rotate', key.id);
    const first = (await service.app.store.panel.listRotations(ada.account.id)).find((rotation) => rotation.oldKeyId === key.id)!;
    const keys = (await service.app.store.listKeys(ada.account.id)).length;
    const underWay = `A rotation of this key to ${first.newKeyId} is under way since ${new Date(first.startedAt).toISOString()}: finish it once ${first.newKeyId} is in use, or disable ${first.newKeyId} to start another.`;
    expect(await loc('keys', 'rotate', key.id)).toEqual({ code: 1, stdout: '', stderr: `error: ${underWay}\n` });
    await ada.client.get(keyPage(key));
    const again = await ada.client.submit(keyPage(key, '/rotate'));
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain(underWay);
    expect((await service.app.store.panel.listRotations(ada.account.id)).filter((rotation) => rotation.oldKeyId === key.id)).toHaveLength(1);
    expect(await service.app.store.listKeys(ada.account.id)).toHaveLength(keys);

    const replacement = (await service.app.store.getKey(first.newKeyId))!;
    await panel(ada.client, keyPage(replacement), keyPage(replacement, '/disable'));
    await panel(ada.client, keyPage(key), keyPage(key, '/rotate'), {}, 201);
    const [latest] = (await service.app.store.panel.listRotations(ada.account.id)).filter((rotation) => rotation.oldKeyId === key.id);
    expect(latest.newKeyId).not.toBe(first.newKeyId);
    expect((await ada.client.get(keyPage(key, '/rotation'))).body).toContain(latest.newKeyId);
  });
});

describe('the people of an account, from the CLI and from the panel alike', () => {
  it('are invited as the same kind of user, with the same user.invite entry', async () => {
    await cli('accounts', 'invite', '--account', ada.account.name, '--email', 'cli-invited@example.com');
    await panel(ada.client, `/panel/accounts/${ada.account.id}/team`, `/panel/accounts/${ada.account.id}/team`, { email: 'panel-invited@example.com' }, 201);
    const [viaCli, viaPanel] = await Promise.all(['cli-invited@example.com', 'panel-invited@example.com'].map((email) => service.app.store.panel.findUserByEmail(email)));
    const kind = (user: typeof viaCli) => ({ accountId: user?.accountId, operator: user?.operator, activatedAt: user?.activatedAt, passwordHash: user?.passwordHash });
    expect(kind(viaCli)).toEqual(kind(viaPanel));
    expect(await lastEntry(ada.account.id, 'cli-invited@example.com')).toEqual({ ...(await lastEntry(ada.account.id, 'panel-invited@example.com')), via: 'cli' });
    expect((await lastEntry(ada.account.id, 'cli-invited@example.com')).action).toBe('user.invite');
  });

  it('are removed, with the same user.remove entry', async () => {
    await cli('accounts', 'invite', '--account', ada.account.name, '--email', 'cli-leaver@example.com');
    await cli('accounts', 'invite', '--account', ada.account.name, '--email', 'panel-leaver@example.com');
    const leaver = (await service.app.store.panel.findUserByEmail('panel-leaver@example.com'))!;
    await cli('users', 'remove', '--email', 'cli-leaver@example.com');
    await panel(ada.client, `/panel/accounts/${ada.account.id}/team`, `/panel/accounts/${ada.account.id}/team/remove`, { user: leaver.id });
    const gone = await Promise.all(['cli-leaver@example.com', 'panel-leaver@example.com'].map((email) => service.app.store.panel.findUserByEmail(email)));
    expect(gone).toEqual([null, null]);
    expect(await lastEntry(ada.account.id, 'cli-leaver@example.com')).toEqual({ ...(await lastEntry(ada.account.id, 'panel-leaver@example.com')), via: 'cli' });
    expect((await lastEntry(ada.account.id, 'cli-leaver@example.com')).action).toBe('user.remove');
  });
});

describe('an account, from the CLI and from an operator in the panel alike', () => {
  it('loses and regains partner status, with the same entries', async () => {
    const operator = await newUser(service, 'operator', { operator: true });
    const [one, two] = [await service.account('partner-one'), await service.account('partner-two')];
    await cli('accounts', 'set-partner', one.name, '--off');
    await panel(operator.client, '/panel/accounts', '/panel/accounts/partner', { account: two.id });
    expect([(await service.app.store.getAccount(one.id))?.partner, (await service.app.store.getAccount(two.id))?.partner]).toEqual([false, false]);
    const entry = async (account: Account) => ({ ...(await lastEntry(account.id, account.name)), accountId: 'the account' });
    expect(await entry(one)).toEqual({ ...(await entry(two)), via: 'cli' });
    expect((await entry(one)).action).toBe('account.partner_off');
  });
});

describe('operations of one front', () => {
  it('the CLI creates an account, sets limits and operator status, makes a recovery link and wipes test data, each with its entry', async () => {
    await cli('accounts', 'create', '--name', 'solo');
    const solo = (await service.app.store.findAccount('solo'))!;
    expect(await lastEntry(solo.id, 'solo')).toEqual({ accountId: solo.id, action: 'account.create', details: { partner: false }, via: 'cli' });
    const { key } = await service.key('solo');
    await cli('keys', 'set-limit', key.id, '90', '--session-limit', '4');
    expect(await lastEntry(solo.id, key.id)).toMatchObject({ action: 'key.set_limits', details: { hourly_limit: 90, session_limit: 4 } });
    await cli('accounts', 'invite', '--account', 'solo', '--email', 'solo@example.com');
    await cli('users', 'set-operator', 'solo@example.com', '--on');
    expect(await lastEntry(solo.id, 'solo@example.com')).toMatchObject({ action: 'user.operator_on' });
    await cli('users', 'recover', '--email', 'solo@example.com');
    expect(await lastEntry(solo.id, 'solo@example.com')).toMatchObject({ action: 'user.recover' });
    const { secret } = await service.key('solo', { mode: 'test' });
    const saved = await service.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': secret }, payload: { latitude: 48.8584, longitude: 2.2945 } });
    expect(saved.statusCode, saved.body).toBe(200);
    await cli('test-data', 'wipe', '--account', 'solo');
    expect(await lastEntry(solo.id, 'solo')).toMatchObject({ action: 'account.test_data_wipe', details: { locations: 1 } });
  });
});

describe('whether a change changed anything is the write’s to say', () => {
  it('records nothing for a change that found the key already so, from either front', async () => {
    const { key } = await service.key(ada.account.name);
    await cli('keys', 'disable', key.id);
    await cli('keys', 'disable', key.id);
    await panel(ada.client, keyPage(key), keyPage(key, '/disable'));
    await cli('keys', 'set-limit', key.id, '--default');
    const entries = (await service.app.store.audit.listAudit({ accountId: ada.account.id, limit: 50 })).filter((entry) => entry.target === key.id);
    expect(entries.map((entry) => [entry.action, entry.via])).toEqual([['key.disable', 'cli']]);
  });

  it('records a panel change made after the CLI changed the same key, though the server still holds the key as it was', async () => {
    const { key } = await service.key(ada.account.name);
    // The panel's page reads the key through the server's cache, which keeps it while the test's clock stands still.
    await ada.client.get(keyPage(key));
    await cli('keys', 'disable', key.id);
    await panel(ada.client, keyPage(key), keyPage(key, '/enable'));
    expect((await service.app.store.getKey(key.id))?.status).toBe('active');
    const entries = (await service.app.store.audit.listAudit({ accountId: ada.account.id, limit: 50 })).filter((entry) => entry.target === key.id);
    expect(entries.map((entry) => [entry.action, entry.via, entry.actor])).toEqual([['key.enable', 'panel', ada.email], ['key.disable', 'cli', userInfo().username]]);
  });
});
