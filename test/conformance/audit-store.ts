/**
 * The audit store's conformance suite: what every adapter of `Store.audit` (src/store/audit-store.ts)
 * must do, written once, run as the store suite is (`auditStoreConformance('name', open)`, with the
 * same `open`). Entries a test only needs to exist are appended through the second store, so that the
 * store under test reads them from the database. With `sql` (the SQL engines), the suite also checks
 * that the database itself refuses to change or remove an entry, whoever asks.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../src/store/audit-store.ts';
import type { Account } from '../../src/store/store.ts';
import { openedPerTest, type OpenedStore } from './opened.ts';

const T0 = Date.UTC(2030, 0, 1);

export function auditStoreConformance(adapter: string, open: () => Promise<OpenedStore>, { sql = true }: { sql?: boolean } = {}): void {
  describe(`audit store conformance: ${adapter}`, () => {
    const opened = openedPerTest(open);

    const account = (name = 'acme'): Promise<Account> => opened.second.createAccount({ name, partner: true, createdAt: T0 });
    const entryOf = (accountId: string, extra: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
      at: T0, accountId, via: 'panel', actor: 'ada@example.com', source: '203.0.113.7', action: 'key.origin_add', target: 'key_1',
      details: { origin: 'https://shop.example' }, ...extra,
    });

    it('appends an entry and gives it back with its seq, as either store then reads it, details and all', async () => {
      const acme = await account();
      const details = { origin: 'https://shop.example', limit: 500, ratio: 0.25, partner: false, was: null, origins: ['https://a.example', 'https://b.example'], none: [] };
      const entry = await opened.store.audit.appendAudit(entryOf(acme.id, { via: 'cli', actor: 'root', source: 'ops-1', target: null, details, at: T0 + 5 }));
      expect(entry).toEqual({ seq: expect.any(Number), at: T0 + 5, accountId: acme.id, via: 'cli', actor: 'root', source: 'ops-1', action: 'key.origin_add', target: null, details });
      expect(Number.isSafeInteger(entry.seq) && entry.seq > 0).toBe(true);
      expect(await opened.second.audit.listAudit({ accountId: acme.id, limit: 10 })).toEqual([entry]);
      expect(await opened.store.audit.listAudit({ accountId: null, limit: 10 })).toEqual([entry]);
      const plain = await opened.second.audit.appendAudit(entryOf(acme.id, { details: {} }));
      expect((await opened.store.audit.listAudit({ accountId: acme.id, limit: 1 }))[0]).toEqual(plain);
    });

    it('gives every append a higher seq than the ones before, from both stores at once', async () => {
      const acme = await account();
      const appended: AuditEntry[] = [];
      for (let i = 0; i < 3; i++) appended.push(await (i % 2 === 0 ? opened.store : opened.second).audit.appendAudit(entryOf(acme.id, { at: T0 + i })));
      expect(appended[1].seq).toBeGreaterThan(appended[0].seq);
      expect(appended[2].seq).toBeGreaterThan(appended[1].seq);
      const together = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? opened.store : opened.second).audit.appendAudit(entryOf(acme.id, { target: `key_${i}` }))));
      const seqs = together.map((entry) => entry.seq);
      expect(new Set(seqs).size).toBe(10);
      expect(Math.min(...seqs)).toBeGreaterThan(appended[2].seq);
      const listed = await opened.store.audit.listAudit({ accountId: acme.id, limit: 100 });
      expect(listed.map((entry) => entry.seq)).toEqual([...seqs, ...appended.map((entry) => entry.seq)].sort((a, b) => b - a));
    });

    it("lists newest first, one account's or every account's", async () => {
      const acme = await account();
      const beta = await account('beta');
      const a1 = await opened.second.audit.appendAudit(entryOf(acme.id, { action: 'key.create' }));
      const b1 = await opened.second.audit.appendAudit(entryOf(beta.id, { action: 'user.invite', target: 'bob@beta.example' }));
      const a2 = await opened.second.audit.appendAudit(entryOf(acme.id, { action: 'key.disable', at: T0 - 1 }));
      expect(await opened.store.audit.listAudit({ accountId: acme.id, limit: 10 })).toEqual([a2, a1]);
      expect(await opened.store.audit.listAudit({ accountId: beta.id, limit: 10 })).toEqual([b1]);
      expect(await opened.store.audit.listAudit({ accountId: null, limit: 10 })).toEqual([a2, b1, a1]);
      expect(await opened.store.audit.listAudit({ accountId: 'acct_missing', limit: 10 })).toEqual([]);
    });

    it('pages with before (exclusive) and limit', async () => {
      const acme = await account();
      const beta = await account('beta');
      const entries: AuditEntry[] = [];
      for (let i = 0; i < 7; i++) entries.push(await opened.second.audit.appendAudit(entryOf(i === 3 ? beta.id : acme.id, { target: `key_${i}` })));
      const acmes = entries.filter((entry) => entry.accountId === acme.id).reverse();
      const first = await opened.store.audit.listAudit({ accountId: acme.id, limit: 2 });
      expect(first).toEqual(acmes.slice(0, 2));
      const next = await opened.store.audit.listAudit({ accountId: acme.id, before: first[1].seq, limit: 2 });
      expect(next).toEqual(acmes.slice(2, 4));
      const last = await opened.store.audit.listAudit({ accountId: acme.id, before: next[1].seq, limit: 2 });
      expect(last).toEqual(acmes.slice(4, 6));
      expect(await opened.store.audit.listAudit({ accountId: acme.id, before: last[1].seq, limit: 2 })).toEqual([]);
      expect(await opened.store.audit.listAudit({ accountId: null, before: entries[4].seq, limit: 3 })).toEqual([entries[3], entries[2], entries[1]]);
      expect(await opened.store.audit.listAudit({ accountId: null, before: entries[0].seq, limit: 3 })).toEqual([]);
      expect(await opened.store.audit.listAudit({ accountId: null, limit: 0 })).toEqual([]);
    });

    it('refuses an entry for an account that does not exist, the same way in every engine', async () => {
      await expect(opened.store.audit.appendAudit(entryOf('acct_missing'))).rejects.toThrow(new Error('no account acct_missing to hold the audit entry'));
      expect(await opened.second.audit.listAudit({ accountId: null, limit: 10 })).toEqual([]);
    });

    it('gives copies: changing what it returned or was given changes nothing stored', async () => {
      const acme = await account();
      const origins = ['https://a.example'];
      const entry = await opened.store.audit.appendAudit(entryOf(acme.id, { details: { origins } }));
      origins.push('https://evil.example');
      (entry.details.origins as string[]).push('https://evil.example');
      const [read] = await opened.store.audit.listAudit({ accountId: acme.id, limit: 1 });
      (read as { actor: string }).actor = 'mallory';
      expect(await opened.second.audit.listAudit({ accountId: acme.id, limit: 1 })).toEqual([{ ...entry, details: { origins: ['https://a.example'] } }]);
    });

    // Only the SQL engines have a database to ask: the memory store's only way in is the port, which has no such operation.
    if (sql) it('refuses, in the database itself, an UPDATE or DELETE of an entry, which stays as it was', async () => {
      expect(opened.sql).toBeDefined();
      const acme = await account();
      const entry = await opened.store.audit.appendAudit(entryOf(acme.id));
      await expect(opened.sql!(`UPDATE audit_log SET actor = 'mallory' WHERE seq = ${entry.seq}`)).rejects.toThrow(/the audit log is append-only/);
      await expect(opened.sql!(`DELETE FROM audit_log WHERE seq = ${entry.seq}`)).rejects.toThrow(/the audit log is append-only/);
      await expect(opened.sql!('DELETE FROM audit_log')).rejects.toThrow(/the audit log is append-only/);
      expect(await opened.second.audit.listAudit({ accountId: null, limit: 10 })).toEqual([entry]);
    });
  });
}
