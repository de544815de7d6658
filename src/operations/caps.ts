/**
 * The caps on what an account gathers: active keys and pending invitations per account, origins and
 * IP ranges per key, each the operator's setting (LOC_MAX_…). They bound what one partner can make
 * the service hold and show, and what a stolen panel session can pile up. The store checks each count
 * in the write that would pass it (CapReached), so two changes at once cannot both take the last
 * place; this module says its refusal as a 422 that names the cap and who raises it.
 */
import { LocError } from '../errors.ts';
import { CapReached } from '../store/store.ts';

export type CapName = 'keys' | 'invitations' | 'origins' | 'ipRanges';

/** One cap: the most there may be, and the setting that raises it. */
export interface Cap {
  most: number;
  setting: string;
}

export type Caps = Readonly<Record<CapName, Cap>>;

/** A change refused for a cap (`validation_error`); the CLI adds how its operator goes past it. */
export class OverCap extends LocError {}

const REFUSALS: Record<CapName, (most: number) => string> = {
  keys: (most) => `This account has ${most} active keys, as many as an account may have: disable a key it no longer uses`,
  invitations: (most) => `This account has ${most} pending invitations, as many as an account may have: remove one that was not taken up`,
  origins: (most) => `A key may have at most ${most} origins`,
  ipRanges: (most) => `A key may have at most ${most} IP ranges`,
};

/** The refusal of a change past the cap `name`; `field` names the input at fault, when there is one. */
export function overCap(caps: Caps, name: CapName, field?: string): OverCap {
  const { most, setting } = caps[name];
  return new OverCap('validation_error', `${REFUSALS[name](most)}; an operator raises the cap (${setting}).`, field);
}

/**
 * Runs `write` with the most the cap `name` allows (undefined: no caps bind the change), saying the
 * store's CapReached as that cap's refusal.
 */
export async function capped<T>(caps: Caps | undefined, name: CapName, field: string | undefined, write: (most: number | undefined) => Promise<T>): Promise<T> {
  try {
    return await write(caps?.[name].most);
  } catch (error) {
    if (error instanceof CapReached && caps !== undefined) throw overCap(caps, name, field);
    throw error;
  }
}

/** Refuses `values` (a new key's list, none stored yet) when there are more than the cap `name` allows. */
export function checkCount(caps: Caps | undefined, name: CapName, values: readonly string[], field?: string): void {
  if (caps !== undefined && new Set(values).size > caps[name].most) throw overCap(caps, name, field);
}
