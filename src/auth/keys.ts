/**
 * Issuing API keys: validate what restricts the key, make the secret, store only its hash. The CLI,
 * the development seed and the tests all issue keys here, so every key obeys the same rules.
 */
import { LocError, describeValue } from '../errors.ts';
import { cleanText } from '../text-rules.ts';
import type { ApiKey, Store } from '../store/store.ts';
import { checkIpRange } from './ip-range.ts';
import { checkOrigin } from './origin.ts';
import { hashSecret, newApiKey } from './secrets.ts';

/** Longest key label, characters. */
export const KEY_LABEL_MAX = 100;

export interface KeyRequest {
  accountId: string;
  origins?: readonly string[];
  ipRanges?: readonly string[];
  hourlyLimit?: number | null;
  label?: string | null;
  createdAt: number;
}

/** Creates a key; the secret is returned once and never stored. Throws `validation_error` on bad input. */
export async function issueKey(store: Store, request: KeyRequest): Promise<{ key: ApiKey; secret: string }> {
  const origins = [...new Set((request.origins ?? []).map((origin) => checkOrigin(origin)))];
  const ipRanges = [...new Set((request.ipRanges ?? []).map((range) => checkIpRange(range)))];
  const hourlyLimit = request.hourlyLimit ?? null;
  if (hourlyLimit !== null && (!Number.isInteger(hourlyLimit) || hourlyLimit < 1)) {
    throw new LocError('validation_error', `hourly limit must be a positive integer, received ${describeValue(hourlyLimit)}.`, 'hourly_limit');
  }
  // The rule of location labels: one line, no control or bidi characters. A newline or an escape
  // sequence in a label would break or repaint `loc keys list`.
  const label = cleanText('label', request.label ?? undefined, KEY_LABEL_MAX);
  const secret = newApiKey();
  const key = await store.createKey({
    accountId: request.accountId, hash: hashSecret(secret), label, origins, ipRanges, hourlyLimit, createdAt: request.createdAt,
  });
  return { key, secret };
}
