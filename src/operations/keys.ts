/**
 * What operators and partners change of an API key: its creation, its allowed origins and IP ranges,
 * its limits and its status. The CLI and the panel call these, so a key changed in one is changed by
 * the same rules as in the other; each records its audit entry when the write changed the key.
 */
import { keyDetails } from '../audit/audit-log.ts';
import { checkIpRange } from '../auth/ip-range.ts';
import { KEY_LIMITS, checkLimits, issueKey, type KeyRequest } from '../auth/keys.ts';
import { checkOrigin } from '../auth/origin.ts';
import { LocError } from '../errors.ts';
import type { ApiKey, KeyLimits, KeyList, KeyStatus, Updated } from '../store/store.ts';
import { withinCeiling } from './account-limits.ts';
import { capped, checkCount } from './caps.ts';
import { audit, changed, type ChangeContext } from './change-context.ts';

/** A new key and its secret, shown this once. */
export interface IssuedKey {
  key: ApiKey;
  secret: string;
}

/** Issues a key (auth/keys.ts checks what restricts it); the secret is returned once, never stored. */
export async function createKey(context: ChangeContext, request: Omit<KeyRequest, 'createdAt'>): Promise<IssuedKey> {
  const given = { hourlyLimit: request.hourlyLimit ?? null, embedHourlyLimit: request.embedHourlyLimit ?? null, sessionLimit: request.sessionLimit ?? null };
  const limits = await withinCeiling(context, request.accountId, checkLimits(given));
  if (context.caps !== undefined) {
    // In the form the key keeps them, so that one origin typed twice counts once.
    checkCount(context.caps, 'origins', (request.origins ?? []).map((origin) => checkOrigin(origin)), 'origins');
    checkCount(context.caps, 'ipRanges', (request.ipRanges ?? []).map((range) => checkIpRange(range)), 'ip_ranges');
  }
  const issued = await capped(context.caps, 'keys', undefined, (most) => issueKey(context.store, { ...request, ...limits, createdAt: context.now }, most));
  await audit(context, { accountId: issued.key.accountId, action: 'key.create', target: issued.key.id, details: keyDetails(issued.key) });
  return issued;
}

/** Disables or enables a key (within the cap of the account's active keys); null when there is no such key. */
export async function setKeyStatus(context: ChangeContext, keyId: string, status: KeyStatus): Promise<Updated<ApiKey> | null> {
  const updated = await capped(context.caps, 'keys', undefined, (most) => context.store.setKeyStatus(keyId, status, most));
  if (updated !== null && changed(updated)) {
    await audit(context, { accountId: updated.after.accountId, action: status === 'disabled' ? 'key.disable' : 'key.enable', target: keyId });
  }
  return updated;
}

/** Sets the limits given (null: the service's default again), keeps the others; null when there is no such key. */
export async function setKeyLimits(context: ChangeContext, keyId: string, limits: Partial<KeyLimits>): Promise<Updated<ApiKey> | null> {
  // Only a change bound by a ceiling needs the key's account first.
  const owner = context.limitDefaults === undefined ? null : await context.store.getKey(keyId);
  const checked = owner === null ? checkLimits(limits) : await withinCeiling(context, owner.accountId, checkLimits(limits));
  const updated = await context.store.setKeyLimits(keyId, checked);
  if (updated !== null && changed(updated)) {
    // Each limit given, as set: a number, or null for the service's default.
    const given = Object.entries(checked).filter(([, value]) => value !== undefined);
    const details = Object.fromEntries(given.map(([name, value]) => [KEY_LIMITS[name as keyof KeyLimits].field, value ?? null]));
    await audit(context, { accountId: updated.after.accountId, action: 'key.set_limits', target: keyId, details });
  }
  return updated;
}

/** A list of a key: how its values are checked, and how the audit log names a change to it. */
const LISTS = {
  origins: { check: checkOrigin, action: 'origin', detail: 'origin' },
  ipRanges: { check: checkIpRange, action: 'ip', detail: 'range' },
} as const satisfies Record<KeyList, { check: (input: unknown, field?: string) => string; action: string; detail: string }>;

/** A change to one list of a key: which list, the value as typed, and the field that names it in errors. */
export interface ListChange {
  keyId: string;
  list: KeyList;
  value: string;
  /** The value's name in a validation error: the CLI's argument or the panel's form field. */
  field?: string;
}

/** A list change made: the key before and after, and the value in the form the list holds it. */
export interface ListChanged extends Updated<ApiKey> {
  value: string;
}

/**
 * Adds a value to the list, in its canonical form (a bad one is `validation_error`); a value already
 * there changes nothing. Null when there is no such key.
 */
export async function addToKeyList(context: ChangeContext, change: ListChange): Promise<ListChanged | null> {
  const { check, action, detail } = LISTS[change.list];
  const value = check(change.value, change.field);
  const updated = await capped(context.caps, change.list, change.field, (most) => context.store.updateKeyList(change.keyId, change.list, { add: value, cap: most }));
  if (updated === null) return null;
  if (changed(updated)) await audit(context, { accountId: updated.after.accountId, action: `key.${action}_add`, target: change.keyId, details: { [detail]: value } });
  return { ...updated, value };
}

/**
 * Removes a value from the list: as typed when the list holds it so (also one stored under older
 * rules, which would no longer pass the check), else in the canonical form the check gives. A value
 * the list does not hold, valid or not, changes nothing, which the caller sees as `before` equal to
 * `after`. Null when there is no such key.
 */
export async function removeFromKeyList(context: ChangeContext, change: ListChange): Promise<ListChanged | null> {
  const { action, detail } = LISTS[change.list];
  let value = change.value;
  let updated = await context.store.updateKeyList(change.keyId, change.list, { remove: value });
  const canonical = updated === null || changed(updated) ? null : canonicalForm(change.list, value);
  if (canonical !== null && canonical !== value) {
    value = canonical;
    updated = await context.store.updateKeyList(change.keyId, change.list, { remove: value });
  }
  if (updated === null) return null;
  if (changed(updated)) await audit(context, { accountId: updated.after.accountId, action: `key.${action}_remove`, target: change.keyId, details: { [detail]: value } });
  return { ...updated, value };
}

/** The value as the list's check writes it, or null when it does not pass. */
function canonicalForm(list: KeyList, value: string): string | null {
  try {
    return LISTS[list].check(value);
  } catch (error) {
    if (error instanceof LocError) return null;
    throw error;
  }
}
