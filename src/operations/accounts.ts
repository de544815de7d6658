/**
 * What operators change of an account: its creation, its partner status, and the locations its test
 * keys saved. The CLI and the panel call these; each records its audit entry when it changed anything.
 */
import { LocError, describeValue } from '../errors.ts';
import type { Account, Updated } from '../store/store.ts';
import { audit, changed, type ChangeContext } from './change-context.ts';

/** Account names are typed on command lines: letters, digits, `.`, `_`, `-`, 1 to 64 characters. */
const ACCOUNT_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,63}$/u;

/** The name, when it is one an account may have; else `validation_error`. */
export function checkAccountName(name: string): string {
  if (!ACCOUNT_NAME.test(name)) {
    throw new LocError(
      'validation_error',
      `account name must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (received ${describeValue(name)}).`,
      'name',
    );
  }
  return name;
}

/** A new account; a name already taken is a StoreConflict. */
export async function createAccount(context: ChangeContext, input: { name: string; partner: boolean }): Promise<Account> {
  const account = await context.store.createAccount({ name: checkAccountName(input.name), partner: input.partner, createdAt: context.now });
  await audit(context, { accountId: account.id, action: 'account.create', target: account.name, details: { partner: account.partner } });
  return account;
}

/** Turns partner status on or off; null when no account has the name. */
export async function setPartner(context: ChangeContext, name: string, partner: boolean): Promise<Updated<Account> | null> {
  const updated = await context.store.setPartner(name, partner);
  if (updated !== null && changed(updated)) {
    const { after } = updated;
    await audit(context, { accountId: after.id, action: after.partner ? 'account.partner_on' : 'account.partner_off', target: after.name });
  }
  return updated;
}

/** Forgets every location the account's test keys saved; live ones stay. Returns how many went. */
export async function wipeTestData(context: ChangeContext, account: Account): Promise<number> {
  const wiped = await context.store.deleteTestLocations(account.id);
  if (wiped > 0) await audit(context, { accountId: account.id, action: 'account.test_data_wipe', target: account.name, details: { locations: wiped } });
  return wiped;
}
