/**
 * Issuing API keys: validate what restricts the key, make the secret, store only its hash. The CLI,
 * the development seed and the tests all issue keys here, so every key obeys the same rules.
 */
import { LocError, describeValue } from '../errors.ts';
import { MAX_LIMIT } from '../limits/budgets.ts';
import { cleanText } from '../text-rules.ts';
import type { ApiKey, KeyLimits, KeyMode, Store } from '../store/store.ts';
import { checkIpRange } from './ip-range.ts';
import { checkOrigin } from './origin.ts';
import { hashSecret, newApiKey } from './secrets.ts';

/** Longest key label, characters. */
export const KEY_LABEL_MAX = 100;

export interface KeyRequest extends Partial<KeyLimits> {
  accountId: string;
  /** Default live. */
  mode?: KeyMode;
  origins?: readonly string[];
  ipRanges?: readonly string[];
  label?: string | null;
  createdAt: number;
}

/** Each limit of a key: its name in messages and as a field, and the setting whose default it follows. */
export const KEY_LIMITS: Readonly<Record<keyof KeyLimits, { words: string; field: string; setting: 'defaultHourlyLimit' | 'defaultEmbedHourlyLimit' | 'defaultSessionLimit' }>> = {
  hourlyLimit: { words: 'hourly limit', field: 'hourly_limit', setting: 'defaultHourlyLimit' },
  embedHourlyLimit: { words: 'embed hourly limit', field: 'embed_hourly_limit', setting: 'defaultEmbedHourlyLimit' },
  sessionLimit: { words: 'session limit', field: 'session_limit', setting: 'defaultSessionLimit' },
};

/** The limits given, checked (a positive integer, or null for the service's default); absent ones are left out. */
export function checkLimits(limits: Partial<KeyLimits>): Partial<KeyLimits> {
  const checked: Partial<KeyLimits> = {};
  for (const name of Object.keys(KEY_LIMITS) as (keyof KeyLimits)[]) {
    const value = limits[name];
    if (value === undefined) continue;
    if (value !== null && (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT)) {
      const { words, field } = KEY_LIMITS[name];
      throw new LocError('validation_error', `${words} must be an integer from 1 to ${MAX_LIMIT}, received ${describeValue(value)}.`, field);
    }
    checked[name] = value;
  }
  return checked;
}

/**
 * Creates a key; the secret is returned once and never stored. Throws `validation_error` on bad input,
 * and the store's CapReached when `cap` is given and the account has as many active keys already.
 */
export async function issueKey(store: Store, request: KeyRequest, cap?: number): Promise<{ key: ApiKey; secret: string }> {
  const origins = [...new Set((request.origins ?? []).map((origin) => checkOrigin(origin)))];
  const ipRanges = [...new Set((request.ipRanges ?? []).map((range) => checkIpRange(range)))];
  const { hourlyLimit = null, embedHourlyLimit = null, sessionLimit = null } = checkLimits(request);
  // The rule of location labels: one line, no control or bidi characters. A newline or an escape
  // sequence in a label would break or repaint `loc keys list`.
  const label = cleanText('label', request.label ?? undefined, KEY_LABEL_MAX);
  const mode = request.mode ?? 'live';
  const secret = newApiKey(mode);
  const key = await store.createKey({
    accountId: request.accountId, hash: hashSecret(secret), label, origins, ipRanges, hourlyLimit, embedHourlyLimit, sessionLimit, mode,
    createdAt: request.createdAt,
  }, cap);
  return { key, secret };
}
