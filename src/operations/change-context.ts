/**
 * What every operation is given: the store it changes, who makes the change (the panel's signed-in
 * user, or the operator at the CLI) and when. The fronts make it; the operations write, decide from
 * the write whether anything changed, and append the audit entry.
 */
import { recordChange, type Actor, type Change } from '../audit/audit-log.ts';
import type { Store, Updated } from '../store/store.ts';

export interface ChangeContext {
  store: Store;
  actor: Actor;
  now: number;
}

/** Appends to the audit log a change `context`'s actor just made. */
export async function audit(context: ChangeContext, change: Change): Promise<void> {
  await recordChange(context.store, context.actor, change, context.now);
}

/** Whether a write changed its row: the row as the write found it against the row as it left it. */
export const changed = <T>(updated: Updated<T>): boolean => JSON.stringify(updated.before) !== JSON.stringify(updated.after);
