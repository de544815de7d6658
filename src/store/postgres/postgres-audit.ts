/**
 * The PostgreSQL adapter of the audit store (audit-store.ts), through the queries of the PostgresStore
 * that holds it. Each append is one INSERT … RETURNING: the identity column gives the seq, increasing
 * across every process and machine, never reused (a rolled-back append leaves a gap, which the port
 * allows). Details are jsonb; the table's triggers (migration 4) refuse UPDATE, DELETE and TRUNCATE.
 */
import type pg from 'pg';
import { auditPage, detailsText, noAccount, type AuditEntry, type AuditQuery, type AuditStore, type NewAuditEntry } from '../audit-store.ts';
import { auditEntry, unstorable, type AuditRow } from './postgres-rows.ts';

/** The PostgresStore's statement: named ones are prepared once per connection; errors of a machine at fault leave as StoreUnavailable. */
type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string) => Promise<pg.QueryResult<R>>;

export class PostgresAuditStore implements AuditStore {
  constructor(private readonly query: Query) {}

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    // No account's id holds U+0000 (see postgres.ts): refused as any unknown account, not as PostgreSQL's 22021.
    if (unstorable(entry.accountId)) throw noAccount(entry.accountId);
    try {
      const { rows: [row] } = await this.query<AuditRow>(
        'INSERT INTO audit_log (at, account_id, via, actor, source, action, target, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) RETURNING *',
        [entry.at, entry.accountId, entry.via, entry.actor, entry.source, entry.action, entry.target, detailsText(entry.details)],
        'audit-append',
      );
      return auditEntry(row);
    } catch (error) {
      // 23503: foreign_key_violation, the one foreign key here being the account's.
      if ((error as { code?: string }).code === '23503') throw noAccount(entry.accountId, error);
      throw error;
    }
  }

  async listAudit(query: AuditQuery): Promise<AuditEntry[]> {
    const { before, limit } = auditPage(query);
    if (query.accountId === null) {
      const { rows } = await this.query<AuditRow>('SELECT * FROM audit_log WHERE seq < $1 ORDER BY seq DESC LIMIT $2', [before, limit], 'audit-all');
      return rows.map(auditEntry);
    }
    if (unstorable(query.accountId)) return [];
    // A statement of its own rather than `account_id = $1 OR $1 IS NULL`, so that one account's page reads its index.
    const { rows } = await this.query<AuditRow>(
      'SELECT * FROM audit_log WHERE account_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3', [query.accountId, before, limit], 'audit-of',
    );
    return rows.map(auditEntry);
  }
}
