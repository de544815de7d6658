/**
 * What every operation is given: the store it changes, who makes the change (the panel's signed-in
 * user, or the operator at the CLI) and when. The fronts make it; the operations write, decide from
 * the write whether anything changed, and append the audit entry.
 */
import { recordChange, type Actor, type Change } from '../audit/audit-log.ts';
import type { KeyLimits, Store, Updated } from '../store/store.ts';
import type { Caps } from './caps.ts';

/** The service's default of each limit of a key, which a key without its own follows (LOC_DEFAULT_…). */
export type LimitDefaults = { readonly [K in keyof KeyLimits]: number };

export interface ChangeContext {
  store: Store;
  actor: Actor;
  now: number;
  /**
   * The service's default limits, which with the account's ceiling bound the limits a change may
   * give a key (account-limits.ts): the panel's. Absent for the operator at the CLI, whom no ceiling binds.
   */
  limitDefaults?: LimitDefaults;
  /** The caps on what an account gathers (caps.ts); absent: none bind the change (the operator's `--over-cap`). */
  caps?: Caps;
}

/** Appends to the audit log a change `context`'s actor just made. */
export async function audit(context: ChangeContext, change: Change): Promise<void> {
  await recordChange(context.store, context.actor, change, context.now);
}

/** Whether a write changed its row: the row as the write found it against the row as it left it. */
export const changed = <T>(updated: Updated<T>): boolean => JSON.stringify(updated.before) !== JSON.stringify(updated.after);
