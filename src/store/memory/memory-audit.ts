/**
 * The in-memory adapter of the audit store (audit-store.ts), on the MemoryDatabase the MemoryStore that
 * holds it uses, as memory-panel.ts is. Append-only as the port is: nothing here changes or removes an
 * entry. Details are kept as JSON text, so an entry reads back as the SQL engines give it back, and no
 * caller's object is ever shared.
 */
import { auditPage, detailsText, noAccount, type AuditEntry, type AuditQuery, type AuditStore, type NewAuditEntry } from '../audit-store.ts';
import { put, type MemoryDatabase } from './memory-database.ts';

/** The MemoryStore's unit of work: refused once the store is closed. */
type Run = <T>(work: (db: MemoryDatabase) => T) => Promise<T>;

type StoredEntry = MemoryDatabase['audit'] extends Map<string, infer T> ? T : never;

const entryOf = (stored: StoredEntry): AuditEntry => ({ ...stored, details: JSON.parse(stored.details) });

export class MemoryAuditStore implements AuditStore {
  constructor(private readonly run: Run) {}

  appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    return this.run((db) => {
      if (!db.accounts.has(entry.accountId)) throw noAccount(entry.accountId);
      const stored: StoredEntry = {
        seq: db.auditSeq + 1, at: entry.at, accountId: entry.accountId, via: entry.via, actor: entry.actor, source: entry.source,
        action: entry.action, target: entry.target, details: detailsText(entry.details),
      };
      put(db, db.audit, String(stored.seq), stored);
      // Taken once the entry is kept (put may refuse it, the store full).
      db.auditSeq = stored.seq;
      return entryOf(stored);
    });
  }

  listAudit(query: AuditQuery): Promise<AuditEntry[]> {
    const { before, limit } = auditPage(query);
    return this.run((db) => {
      const found: AuditEntry[] = [];
      // Kept in seq order (appended, never removed): newest first is the map read backwards.
      const entries = [...db.audit.values()];
      for (let i = entries.length - 1; i >= 0 && found.length < limit; i--) {
        const entry = entries[i];
        if (entry.seq < before && (query.accountId === null || entry.accountId === query.accountId)) found.push(entryOf(entry));
      }
      return found;
    });
  }
}
