/**
 * A key's limits in the panel are the partner's only up to the operator's ceiling for the account:
 * the service's default limits, unless the operator set a ceiling with `loc accounts limits`. The
 * panel refuses past it (422, naming the field and who raises it); the operator's CLI may go past it.
 * The real server on a real SQLite file, the CLI in-process on the same file.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.ts';
import { newUser, type PanelClient } from '../../test/support/panel-client.ts';
import { fileService } from '../../test/support/service.ts';
import type { Account } from '../store/store.ts';

const service = fileService();
const loc = (...args: string[]) => runCli({ LOC_DATA_DIR: service.dataDir, LOC_PUBLIC_URL: service.config.publicUrl }, ...args);
const keysPath = (account: Account, rest = '') => `/panel/accounts/${account.id}/keys${rest}`;

/** Submits the new-key form with `hourly_limit`; the answer. */
async function submitKey(client: PanelClient, account: Account, hourlyLimit: string) {
  await client.get(keysPath(account, '/new'));
  return client.submit(keysPath(account), { label: 'checkout', mode: 'live', origins: '', ip_ranges: '', hourly_limit: hourlyLimit });
}

describe("a key's limits in the panel", () => {
  it('refuses an hourly limit past the default ceiling, naming the field and the operator, and creates nothing', async () => {
    const { client, account } = await newUser(service, 'ada');
    const refused = await submitKey(client, account, '1000000000');
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('id="field-hourly_limit-error"');
    expect(refused.body).toMatch(/at most 1,000 for this account[^<]*operator raises/);
    expect(await service.app.store.listKeys(account.id)).toEqual([]);
    expect((await submitKey(client, account, String(service.config.defaultHourlyLimit))).statusCode).toBe(201);
  });

  it('follows the ceiling the operator sets, shows it on the form, and the default again once cleared', async () => {
    const { client, account } = await newUser(service, 'bo');
    const set = await loc('accounts', 'limits', account.name, '--hourly-limit', '5000', '--session-limit', '50');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('hourly limit: 5000');
    expect((await client.get(keysPath(account, '/new'))).body).toMatch(/at most 5,?000/);
    expect((await submitKey(client, account, '5001')).statusCode).toBe(422);
    expect((await submitKey(client, account, '5000')).statusCode).toBe(201);
    // The panel never sets the session limit: a key made there gets the ceiling, lower than the default.
    const [key] = await service.app.store.listKeys(account.id);
    expect(key).toMatchObject({ hourlyLimit: 5000, sessionLimit: 50, embedHourlyLimit: null });

    const shown = await loc('accounts', 'limits', account.name, '--json');
    expect(JSON.parse(shown.stdout)).toEqual({ hourlyLimit: 5000, embedHourlyLimit: null, sessionLimit: 50 });
    const entries = await service.app.store.audit.listAudit({ accountId: account.id, limit: 10 });
    expect(entries.find((entry) => entry.action === 'account.set_limits')).toMatchObject({ via: 'cli', target: account.name, details: { hourly_limit: 5000, session_limit: 50 } });

    expect((await loc('accounts', 'limits', account.name, '--default')).code).toBe(0);
    expect((await submitKey(client, account, '5000')).statusCode).toBe(422);
  });

  it('lets the operator at the CLI set a key past the ceiling', async () => {
    const { account } = await newUser(service, 'cy');
    const created = await loc('keys', 'create', '--account', account.name, '--hourly-limit', '1000000', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout).key.hourlyLimit).toBe(1_000_000);
  });
});
