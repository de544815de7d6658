/**
 * The operator's ceiling of an account's keys' limits: how far the panel's partner users may set a
 * key's limits. Without one it is the service's default limits; the operator sets it with `loc
 * accounts limits`, and the operator alone, at the CLI, may set a key's limits past it.
 */
import { KEY_LIMITS, checkLimits } from '../auth/keys.ts';
import { LocError } from '../errors.ts';
import type { Account, KeyLimits, Updated } from '../store/store.ts';
import { audit, changed, type ChangeContext, type LimitDefaults } from './change-context.ts';

const LIMIT_NAMES = Object.keys(KEY_LIMITS) as (keyof KeyLimits)[];

/** Sets the ceilings given (null: the service's default again), keeps the others; audited when it changed. */
export async function setAccountLimits(context: ChangeContext, account: Account, limits: Partial<KeyLimits>): Promise<Updated<KeyLimits>> {
  const checked = checkLimits(limits);
  const updated = await context.store.setAccountLimits(account.id, checked);
  if (updated === null) throw new LocError('not_found', `No account has the id ${account.id}.`);
  if (changed(updated)) {
    // Each ceiling given, as set: a number, or null for the service's default.
    const given = LIMIT_NAMES.filter((name) => checked[name] !== undefined);
    const details = Object.fromEntries(given.map((name) => [KEY_LIMITS[name].field, checked[name] ?? null]));
    await audit(context, { accountId: account.id, action: 'account.set_limits', target: account.name, details });
  }
  return updated;
}

/** The account's ceiling, each limit a number: the operator's, else the service's default. */
export async function ceilingOf(context: ChangeContext, accountId: string, defaults: LimitDefaults): Promise<LimitDefaults> {
  const set = await context.store.accountLimits(accountId);
  if (set === null) throw new LocError('not_found', `No account has the id ${accountId}.`);
  return Object.fromEntries(LIMIT_NAMES.map((name) => [name, set[name] ?? defaults[name]])) as unknown as LimitDefaults;
}

/**
 * The limits given, held to the account's ceiling when the change is bound by one (the panel's):
 * a number past it is `validation_error` naming its field and who raises it; null, the service's
 * default, is the ceiling instead when the operator set the ceiling below the default.
 */
export async function withinCeiling(context: ChangeContext, accountId: string, limits: Partial<KeyLimits>): Promise<Partial<KeyLimits>> {
  const defaults = context.limitDefaults;
  if (defaults === undefined) return limits;
  const ceiling = await ceilingOf(context, accountId, defaults);
  const held: Partial<KeyLimits> = { ...limits };
  for (const name of LIMIT_NAMES) {
    const value = limits[name];
    if (value === undefined) continue;
    if (value === null) {
      if (ceiling[name] < defaults[name]) held[name] = ceiling[name];
    } else if (value > ceiling[name]) {
      const { words, field } = KEY_LIMITS[name];
      throw new LocError(
        'validation_error',
        `${words} may be at most ${ceiling[name].toLocaleString('en')} for this account, received ${value}: an operator raises the ceiling (loc accounts limits).`,
        field,
      );
    }
  }
  return held;
}
