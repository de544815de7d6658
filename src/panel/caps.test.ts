/**
 * The caps on what an account gathers in the panel — active keys and pending invitations per
 * account, origins and IP ranges per key — each a setting of the operator's (LOC_MAX_…): past one,
 * the panel answers 422 saying the cap and who raises it, and writes nothing. The operator's CLI is
 * held to them too, unless told `--over-cap`. The real server on a real SQLite file, small caps.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.ts';
import { newPerson, newUser, type PanelClient } from '../../test/support/panel-client.ts';
import { fileService } from '../../test/support/service.ts';
import type { Account } from '../store/store.ts';

const CAPS = { LOC_MAX_KEYS_PER_ACCOUNT: '3', LOC_MAX_PENDING_INVITATIONS: '2', LOC_MAX_ORIGINS_PER_KEY: '2', LOC_MAX_IP_RANGES_PER_KEY: '2' };
const service = fileService(CAPS);
const loc = (...args: string[]) => runCli({ LOC_DATA_DIR: service.dataDir, LOC_PUBLIC_URL: service.config.publicUrl, ...CAPS }, ...args);
const keysPath = (account: Account, rest = '') => `/panel/accounts/${account.id}/keys${rest}`;

/** Submits the new-key form; the answer. */
async function submitKey(client: PanelClient, account: Account, fields: Record<string, string> = {}) {
  await client.get(keysPath(account, '/new'));
  return client.submit(keysPath(account), { label: 'k', mode: 'live', origins: '', ip_ranges: '', hourly_limit: '', ...fields });
}

describe('caps in the panel', () => {
  it('refuses a key past the active keys an account may have, saying the cap and who raises it; a disabled key frees its place, and enabling it again is refused', async () => {
    const { client, account } = await newUser(service, 'ada');
    for (let i = 0; i < 3; i++) expect((await submitKey(client, account)).statusCode).toBe(201);
    const refused = await submitKey(client, account);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/3 active keys[^<]*an operator raises/);
    expect(await service.app.store.listKeys(account.id)).toHaveLength(3);

    const [first] = await service.app.store.listKeys(account.id);
    await client.get(keysPath(account, `/${first.id}`));
    await client.submit(keysPath(account, `/${first.id}/disable`));
    expect((await submitKey(client, account)).statusCode).toBe(201);
    await client.get(keysPath(account, `/${first.id}`));
    const enable = await client.submit(keysPath(account, `/${first.id}/enable`));
    expect(enable.statusCode).toBe(422);
    expect(enable.body).toMatch(/3 active keys/);
    expect((await service.app.store.getKey(first.id))?.status).toBe('disabled');
  });

  it('lets a rotation at the cap make its replacement, one past it until the old key is disabled', async () => {
    const { client, account } = await newUser(service, 'bo');
    for (let i = 0; i < 3; i++) await submitKey(client, account);
    const [old] = await service.app.store.listKeys(account.id);
    await client.get(keysPath(account, `/${old.id}`));
    expect((await client.submit(keysPath(account, `/${old.id}/rotate`))).statusCode).toBe(201);
    expect(await service.app.store.listKeys(account.id)).toHaveLength(4);
    const [, other] = await service.app.store.listKeys(account.id);
    await client.get(keysPath(account, `/${other.id}`));
    expect((await client.submit(keysPath(account, `/${other.id}/rotate`))).statusCode).toBe(422);
  });

  it('refuses origins and IP ranges past a key\'s caps, at creation and when added', async () => {
    const { client, account } = await newUser(service, 'cy');
    const many = await submitKey(client, account, { origins: 'https://a.example\nhttps://b.example\nhttps://c.example' });
    expect(many.statusCode).toBe(422);
    expect(many.body).toMatch(/at most 2 origins[^<]*an operator raises/);
    expect((await submitKey(client, account, { ip_ranges: '10.0.0.0/8\n10.1.0.0/16\n10.2.0.0/16' })).statusCode).toBe(422);
    expect(await service.app.store.listKeys(account.id)).toEqual([]);

    expect((await submitKey(client, account, { origins: 'https://a.example\nhttps://b.example', ip_ranges: '10.0.0.0/8\n10.1.0.0/16' })).statusCode).toBe(201);
    const [key] = await service.app.store.listKeys(account.id);
    const path = keysPath(account, `/${key.id}`);
    await client.get(path);
    const origin = await client.submit(`${path}/origins`, { origin: 'https://c.example' });
    expect(origin.statusCode).toBe(422);
    expect(origin.body).toMatch(/at most 2 origins/);
    // One already there is no new one: it passes, as it changes nothing.
    expect((await client.submit(`${path}/origins`, { origin: 'https://a.example' })).statusCode).toBe(303);
    await client.get(path);
    expect((await client.submit(`${path}/ip-ranges`, { ip_range: '10.3.0.0/16' })).statusCode).toBe(422);
    expect(await service.app.store.getKey(key.id)).toMatchObject({ origins: ['https://a.example', 'https://b.example'], ipRanges: ['10.0.0.0/8', '10.1.0.0/16'] });
  });

  it('refuses an invitation past the pending ones an account may have', async () => {
    const { client, account } = await newUser(service, 'di');
    const team = `/panel/accounts/${account.id}/team`;
    for (let i = 0; i < 2; i++) {
      await client.get(team);
      expect((await client.submit(team, { email: newPerson('guest').email })).statusCode).toBe(201);
    }
    await client.get(team);
    const refused = await client.submit(team, { email: newPerson('guest').email });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/2 pending invitations[^<]*an operator raises/);
    expect(await service.app.store.panel.listUsers(account.id)).toHaveLength(3);
  });

  it('counts invitations held back (of another account’s users) as pending ones, so the cap answers alike either way', async () => {
    const others = await Promise.all([0, 1, 2].map(async () => (await newUser(service, 'elsewhere')).email));
    const invite = async (client: PanelClient, team: string, email: string) => {
      await client.get(team);
      return client.submit(team, { email });
    };
    // One held and one made: the cap of 2 is reached either way round.
    const a = await newUser(service, 'ea');
    const teamA = `/panel/accounts/${a.account.id}/team`;
    expect((await invite(a.client, teamA, others[0])).statusCode).toBe(201);
    expect((await invite(a.client, teamA, newPerson('guest').email)).statusCode).toBe(201);
    const b = await newUser(service, 'eb');
    const teamB = `/panel/accounts/${b.account.id}/team`;
    expect((await invite(b.client, teamB, newPerson('guest').email)).statusCode).toBe(201);
    expect((await invite(b.client, teamB, others[1])).statusCode).toBe(201);
    for (const [client, team] of [[a.client, teamA], [b.client, teamB]] as const) {
      for (const email of [others[2], newPerson('guest').email]) {
        const refused = await invite(client, team, email);
        expect(refused.statusCode, `${team} ${email}`).toBe(422);
        expect(refused.body).toMatch(/2 pending invitations[^<]*an operator raises/);
      }
    }
    expect(await service.app.store.panel.held.list(a.account.id)).toHaveLength(1);
    expect(await service.app.store.panel.held.list(b.account.id)).toHaveLength(1);
  });
});

describe('caps at the CLI', () => {
  it('holds the operator to the caps of the environment, unless --over-cap', async () => {
    const { account } = await newUser(service, 'ed');
    for (let i = 0; i < 3; i++) expect((await loc('keys', 'create', '--account', account.name)).code).toBe(0);
    const refused = await loc('keys', 'create', '--account', account.name);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/3 active keys.*--over-cap/);
    const past = await loc('keys', 'create', '--account', account.name, '--over-cap', '--origin', 'https://a.example', '--origin', 'https://b.example', '--origin', 'https://c.example');
    expect(past.code, past.stderr).toBe(0);
    expect(await service.app.store.listKeys(account.id)).toHaveLength(4);
  });
});
