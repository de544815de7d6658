/**
 * The audit log in the partner panel against the real server and a real SQLite database: changes made
 * in the panel appear newest first, with who made them and from where; 50 a page; one account never
 * sees another's entries; operators see every account's; and the log has no way to change an entry.
 */
import { describe, expect, it } from 'vitest';
import { newUser } from '../../test/support/panel-client.ts';
import { fileService } from '../../test/support/service.ts';
import type { AuditEntry } from '../store/audit-store.ts';

/** One service for the file: each test's accounts are its own (newUser), and none moves the clock. */
const service = fileService();

/** The log's rows on a page, as (action, who, where, what). */
function rows(html: string): { seq: number; action: string; actor: string; where: string; what: string }[] {
  return [...html.matchAll(/<tr data-audit-seq="(\d+)" data-action="([^"]+)">([\s\S]*?)<\/tr>/g)].map(([, seq, action, cells]) => {
    const cell = (hook: string) => (new RegExp(`<td ${hook}>([\\s\\S]*?)</td>`).exec(cells)?.[1] ?? '').replace(/<[^>]+>/g, '');
    return { seq: Number(seq), action, actor: cell('data-audit-actor'), where: cell('data-audit-where'), what: cell('data-audit-what') };
  });
}

const entry = (accountId: string, n: number): Omit<AuditEntry, 'seq'> => ({
  at: service.clock.now() + n, accountId, via: 'cli', actor: 'ops', source: 'db-host', action: 'key.set_limits', target: `key_${n}`, details: { hourlyLimit: n },
});

describe('the audit log', () => {
  it('shows the changes made in the panel, newest first, with who and from where', async () => {
    const { client: ada, email, account: acme } = await newUser(service, 'ada');
    const keys = `/panel/accounts/${acme.id}/keys`;
    await ada.get(`${keys}/new`);
    expect((await ada.submit(keys, { label: '<b>shop</b>', mode: 'live', origins: 'https://shop.example' })).statusCode).toBe(201);
    const [key] = await service.app.store.listKeys(acme.id);
    await ada.get(`${keys}/${key.id}`);
    await ada.submit(`${keys}/${key.id}/origins`, { origin: 'https://www.shop.example' });
    await ada.get(`${keys}/${key.id}`);
    await ada.submit(`${keys}/${key.id}/disable`);

    const page = await ada.get(`/panel/accounts/${acme.id}/audit`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('aria-current="page">Audit log</a>');
    const shown = rows(page.body);
    const changes = shown.filter((row) => row.action.startsWith('key.'));
    expect(changes.map((row) => row.action)).toEqual(['key.disable', 'key.origin_add', 'key.create']);
    for (const row of changes) expect(row).toMatchObject({ actor: email, where: 'Panel, from 127.0.0.1' });
    expect(changes[0].what).toContain(key.id);
    expect(changes[1].what).toContain('https://www.shop.example');
    expect(shown.map((row) => row.seq)).toEqual([...shown.map((row) => row.seq)].sort((a, b) => b - a));
    // What a user typed is shown as text, never as markup.
    expect(page.body).not.toContain('<b>shop</b>');
    expect(page.body).toMatch(/<time datetime="2030-01-01T00:10:00.000Z">/);
  });

  it('pages 50 at a time with ?before=, and refuses a malformed one', async () => {
    const { client: ada, account: acme } = await newUser(service, 'ada');
    const before = (await service.app.store.audit.listAudit({ accountId: acme.id, limit: 1000 })).length;
    for (let n = 0; n < 120; n++) await service.app.store.audit.appendAudit(entry(acme.id, n));
    const path = `/panel/accounts/${acme.id}/audit`;

    const seen: number[] = [];
    let next: string | undefined = path;
    while (next !== undefined) {
      const page = await ada.get(next);
      expect(page.statusCode, next).toBe(200);
      const shown = rows(page.body);
      expect(shown.length).toBeLessThanOrEqual(50);
      seen.push(...shown.map((row) => row.seq));
      next = /<a href="([^"]+)" rel="next">Older entries<\/a>/.exec(page.body)?.[1];
      if (next !== undefined) expect(shown).toHaveLength(50);
    }
    expect(seen).toHaveLength(120 + before);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(rows((await ada.get(path)).body)[0]).toMatchObject({ actor: 'ops', where: 'CLI, on db-host', what: 'changed the limits of the key key_119 (hourlyLimit: 119)' });

    for (const bad of ['abc', '-1', '1.5', '1e3', '99999999999999999999']) {
      const response = await ada.get(`${path}?before=${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
    expect((await ada.get(`${path}?before=1&before=2`)).statusCode).toBe(400);
    expect((await ada.get(`${path}?before=0`)).body).toContain('No older entries.');
  });

  it('one account never sees another’s entries; an operator sees every account’s', async () => {
    const { account: acme } = await newUser(service, 'acme');
    await service.app.store.audit.appendAudit({ ...entry(acme.id, 1), target: 'key_acme_secret_thing' });
    const { client: bo, account: bolt } = await newUser(service, 'bolt');
    await service.app.store.audit.appendAudit({ ...entry(bolt.id, 2), target: 'key_bolt_thing' });

    for (const path of [`/panel/accounts/${acme.id}/audit`, `/panel/accounts/${acme.id}/audit?before=999`, '/panel/audit']) {
      const response = await bo.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain('key_acme_secret_thing');
    }
    const own = (await bo.get(`/panel/accounts/${bolt.id}/audit`)).body;
    expect(own).toContain('key_bolt_thing');
    expect(own).not.toContain('key_acme_secret_thing');

    const { client: ops } = await newUser(service, 'ops', { operator: true });
    expect((await ops.get(`/panel/accounts/${acme.id}/audit`)).body).toContain('key_acme_secret_thing');
    const all = await ops.get('/panel/audit');
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain('key_acme_secret_thing');
    expect(all.body).toContain('key_bolt_thing');
    expect(all.body).toContain(`<a href="/panel/accounts/${acme.id}/audit">${acme.name}</a>`);
    expect(all.body).toContain(`<a href="/panel/accounts/${bolt.id}/audit">${bolt.name}</a>`);
  });

  it('has no way to change or remove an entry: the port appends and lists, nothing else', async () => {
    const audit = service.app.store.audit as unknown as Record<string, unknown>;
    const functions = new Set<string>();
    for (let o: object | null = audit; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      for (const name of Object.getOwnPropertyNames(o)) if (name !== 'constructor' && typeof audit[name] === 'function') functions.add(name);
    }
    expect(functions).toContain('appendAudit');
    expect(functions).toContain('listAudit');
    // The engine's own helpers aside (a transaction runner), nothing that could edit, delete or clear.
    expect([...functions].filter((name) => /update|delete|remove|edit|change|clear|set|truncate|replace|sweep/i.test(name))).toEqual([]);
    // No panel route writes to it either: a POST to the log is the panel's 404.
    const { client: ada, account: acme } = await newUser(service, 'ada');
    await ada.get(`/panel/accounts/${acme.id}/audit`);
    expect((await ada.submit(`/panel/accounts/${acme.id}/audit`, { seq: '1', action: 'key.create' })).statusCode).toBe(404);
  });
});
