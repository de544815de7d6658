/**
 * The SQLite adapter of the audit store (audit-store.ts), on the connection of the SqliteStore that
 * holds it. Each append is one INSERT … RETURNING: AUTOINCREMENT gives the seq, increasing and never
 * reused, whichever process appends. The table's triggers (migration 6) refuse UPDATE and DELETE.
 */
import type Database from 'better-sqlite3';
import { auditPage, detailsText, noAccount, type AuditEntry, type AuditQuery, type AuditStore, type NewAuditEntry } from '../audit-store.ts';
import { auditEntry, type AuditRow } from './sqlite-rows.ts';

/** The SqliteStore's unit of work: SQLite's errors of a machine at fault leave as StoreUnavailable. */
type Run = <T>(work: () => T) => Promise<T>;

export class SqliteAuditStore implements AuditStore {
  private readonly q;

  constructor(db: Database.Database, private readonly run: Run) {
    this.q = {
      append: db.prepare<unknown[], AuditRow>(
        'INSERT INTO audit_log (at, account_id, via, actor, source, action, target, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *',
      ),
      // Two statements rather than `account_id = ? OR ? IS NULL`, so that one account's page reads its index.
      all: db.prepare<[number, number], AuditRow>('SELECT * FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?'),
      of: db.prepare<[string, number, number], AuditRow>('SELECT * FROM audit_log WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?'),
    };
  }

  appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    return this.run(() => {
      try {
        const row = this.q.append.get(entry.at, entry.accountId, entry.via, entry.actor, entry.source, entry.action, entry.target, detailsText(entry.details));
        return auditEntry(row!);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw noAccount(entry.accountId, error);
        throw error;
      }
    });
  }

  listAudit(query: AuditQuery): Promise<AuditEntry[]> {
    const { before, limit } = auditPage(query);
    return this.run(() =>
      (query.accountId === null ? this.q.all.all(before, limit) : this.q.of.all(query.accountId, before, limit)).map(auditEntry),
    );
  }
}
