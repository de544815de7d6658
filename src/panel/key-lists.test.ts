/**
 * A key's origins and IP ranges in the partner panel, against the real server and SQLite: what the
 * page says after a removal — removed, or not on the key (nothing changed, nothing audited).
 */
import { describe, expect, it } from 'vitest';
import { newUser } from '../../test/support/panel-client.ts';
import { fileService } from '../../test/support/service.ts';
import { issueKey } from '../auth/keys.ts';

const service = fileService();

describe('removing from a key\'s lists', () => {
  it('says "was not on the key" for an origin or a range the key does not hold, and "removed" for one it does', async () => {
    const { client, account } = await newUser(service, 'ada');
    const { key } = await issueKey(service.app.store, { accountId: account.id, origins: ['https://shop.example'], ipRanges: ['203.0.113.0/24'], createdAt: service.clock.now() });
    const path = `/panel/accounts/${account.id}/keys/${key.id}`;
    const remove = async (list: 'origins' | 'ip-ranges', fields: Record<string, string>) => {
      await client.get(path);
      const answer = await client.submit(`${path}/${list}/remove`, fields);
      expect(answer.statusCode).toBe(303);
      return { location: answer.headers.location, page: (await client.get(answer.headers.location as string)).body };
    };

    const origin = await remove('origins', { origin: 'https://other.example' });
    expect(origin.location).toBe(`${path}?done=origin_not_there#origins`);
    expect(origin.page).toContain('That origin was not on the key; nothing changed.');
    const range = await remove('ip-ranges', { ip_range: '198.51.100.0/24' });
    expect(range.location).toBe(`${path}?done=range_not_there#ip-ranges`);
    expect(range.page).toContain('That IP range was not on the key; nothing changed.');
    const auditedBefore = (await service.app.store.audit.listAudit({ accountId: account.id, limit: 100 })).length;

    expect((await remove('origins', { origin: 'https://shop.example' })).location).toBe(`${path}?done=origin_removed#origins`);
    expect((await remove('ip-ranges', { ip_range: '203.0.113.0/24' })).page).toContain('The IP range is removed.');
    expect(await service.app.store.audit.listAudit({ accountId: account.id, limit: 100 })).toHaveLength(auditedBefore + 2);
  });
});

describe('adding to a key\'s lists', () => {
  it('says "was already on the key" for an origin or a range the key holds, and records nothing', async () => {
    const { client, account } = await newUser(service, 'ada');
    const { key } = await issueKey(service.app.store, { accountId: account.id, origins: ['https://shop.example'], ipRanges: ['203.0.113.0/24'], createdAt: service.clock.now() });
    const path = `/panel/accounts/${account.id}/keys/${key.id}`;
    const add = async (list: 'origins' | 'ip-ranges', fields: Record<string, string>) => {
      await client.get(path);
      const answer = await client.submit(`${path}/${list}`, fields);
      expect(answer.statusCode).toBe(303);
      return { location: answer.headers.location, page: (await client.get(answer.headers.location as string)).body };
    };
    const audited = async () => (await service.app.store.audit.listAudit({ accountId: account.id, limit: 100 })).length;
    const before = await audited();

    const origin = await add('origins', { origin: 'https://shop.example' });
    expect(origin.location).toBe(`${path}?done=origin_already_there#origins`);
    expect(origin.page).toContain('That origin was already on the key; nothing changed.');
    const range = await add('ip-ranges', { ip_range: '203.0.113.0/24' });
    expect(range.location).toBe(`${path}?done=range_already_there#ip-ranges`);
    expect(range.page).toContain('That IP range was already on the key; nothing changed.');
    expect(await audited()).toBe(before);

    expect((await add('origins', { origin: 'https://other.example' })).location).toBe(`${path}?done=origin_added#origins`);
    expect(await audited()).toBe(before + 1);
  });
});

describe('a key\'s last use in the list', () => {
  it('shows a stored address that could hide or reorder text through its printable form', async () => {
    const { client, account } = await newUser(service, 'ada');
    const { key } = await issueKey(service.app.store, { accountId: account.id, createdAt: service.clock.now() });
    await service.app.store.panel.recordKeyUses([{ keyId: key.id, at: service.clock.now(), origin: null, ip: '10.0.0.1\u202e1.0.0.01' }]);
    const list = (await client.get(`/panel/accounts/${account.id}/keys`)).body;
    expect(list).not.toContain('\u202e');
    expect(list).toContain('from 10.0.0.1\\u202e1.0.0.01');
  });
});
