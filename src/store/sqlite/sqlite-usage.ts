/**
 * The SQLite adapter of the usage store (usage-store.ts), on the connection of the SqliteStore that
 * holds it, with its errors translated as that store's are. A batch is one IMMEDIATE transaction of
 * upserts that add to the stored counts: the server's meter and another process on the same file
 * (a second server, the CLI) take the write lock in turn, and neither's counts are lost.
 */
import type Database from 'better-sqlite3';
import { mergedUsage, type UsageHour, type UsageStore } from '../usage-store.ts';
import { usageHour, type UsageRow } from './sqlite-rows.ts';

/** The SqliteStore's unit of work: SQLite's errors of a machine at fault leave as StoreUnavailable. */
type Run = <T>(work: () => T) => Promise<T>;

export class SqliteUsageStore implements UsageStore {
  private readonly q;
  private readonly addAll;

  constructor(db: Database.Database, private readonly run: Run) {
    this.q = {
      add: db.prepare(
        'INSERT INTO key_usage (key_id, kind, hour, used, refused_limit, refused_origin, refused_ip, refused_inactive) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (key_id, kind, hour) DO UPDATE SET used = used + excluded.used, refused_limit = refused_limit + excluded.refused_limit, ' +
          'refused_origin = refused_origin + excluded.refused_origin, refused_ip = refused_ip + excluded.refused_ip, ' +
          'refused_inactive = refused_inactive + excluded.refused_inactive',
      ),
      // Server before embed within an hour: the port's order, not the kinds' alphabetical one.
      usageOf: db.prepare<[string, number], UsageRow>(
        "SELECT * FROM key_usage WHERE key_id = ? AND hour >= ? ORDER BY hour, CASE kind WHEN 'server' THEN 0 ELSE 1 END",
      ),
      usageOfKeys: db.prepare<[string, number], UsageRow>(
        'SELECT * FROM key_usage WHERE key_id IN (SELECT value FROM json_each(?)) AND hour >= ? ' +
          "ORDER BY key_id, hour, CASE kind WHEN 'server' THEN 0 ELSE 1 END",
      ),
      deleteBefore: db.prepare('DELETE FROM key_usage WHERE hour < ?'),
    };
    this.addAll = db.transaction((rows: UsageHour[]) => {
      for (const row of rows) {
        const { limit, origin, ip, inactive } = row.refused;
        this.q.add.run(row.keyId, row.kind, row.hour, row.used, limit, origin, ip, inactive);
      }
    });
  }

  async addUsage(hours: readonly UsageHour[]): Promise<void> {
    const rows = mergedUsage(hours);
    if (rows.length > 0) await this.run(() => this.addAll.immediate(rows));
  }

  usageOf(keyId: string, since: number): Promise<UsageHour[]> {
    return this.run(() => this.q.usageOf.all(keyId, since).map(usageHour));
  }

  usageOfKeys(keyIds: readonly string[], since: number): Promise<UsageHour[]> {
    return this.run(() => this.q.usageOfKeys.all(JSON.stringify(keyIds), since).map(usageHour));
  }

  deleteUsageBefore(before: number): Promise<number> {
    return this.run(() => this.q.deleteBefore.run(before).changes);
  }
}
