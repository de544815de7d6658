/**
 * The in-memory adapter of the usage store (usage-store.ts), on the MemoryDatabase the MemoryStore that
 * holds it uses, as memory-panel.ts is: the same records, the same byte accounting, closed when that
 * store is. A batch is one unit of work, checked and measured whole before any row changes, so it
 * lands all or nothing as the SQL engines' one transaction does.
 */
import { sizeOf, type MemoryDatabase } from './memory-database.ts';
import { copyUsage, keysUsageOrder, mergedUsage, REFUSAL_REASONS, usageKey, usageOrder, type UsageHour, type UsageStore } from '../usage-store.ts';

/** The MemoryStore's unit of work: refused once the store is closed. */
type Run = <T>(work: (db: MemoryDatabase) => T) => Promise<T>;

export class MemoryUsageStore implements UsageStore {
  constructor(private readonly run: Run) {}

  async addUsage(hours: readonly UsageHour[]): Promise<void> {
    const batch = mergedUsage(hours);
    await this.run((db) => {
      const rows = batch.map((row) => {
        const at = usageKey(row);
        const known = db.usage.get(at);
        if (known === undefined) return { at, row, bytes: sizeOf(row) };
        const sum: UsageHour = { ...row, used: known.used + row.used, refused: { ...known.refused } };
        for (const reason of REFUSAL_REASONS) sum.refused[reason] += row.refused[reason];
        return { at, row: sum, bytes: sizeOf(sum) - sizeOf(known) };
      });
      // Room for the whole batch, or none of it is kept: a full store refuses as a full disk does.
      db.take(rows.reduce((total, { bytes }) => total + bytes, 0));
      for (const { at, row } of rows) db.usage.set(at, row);
    });
  }

  usageOf(keyId: string, since: number): Promise<UsageHour[]> {
    return this.run((db) =>
      [...db.usage.values()]
        .filter((row) => row.keyId === keyId && row.hour >= since)
        .sort(usageOrder)
        .map(copyUsage),
    );
  }

  usageOfKeys(keyIds: readonly string[], since: number): Promise<UsageHour[]> {
    const wanted = new Set(keyIds);
    return this.run((db) =>
      [...db.usage.values()]
        .filter((row) => wanted.has(row.keyId) && row.hour >= since)
        .sort(keysUsageOrder)
        .map(copyUsage),
    );
  }

  deleteUsageBefore(before: number): Promise<number> {
    return this.run((db) => {
      let deleted = 0;
      for (const [at, row] of db.usage) {
        if (row.hour >= before) continue;
        db.usage.delete(at);
        db.used -= sizeOf(row);
        deleted++;
      }
      return deleted;
    });
  }
}
