/**
 * What every adapter of the panel store (panel-store.ts) does the same way to what it is given,
 * before its engine sees it: so that the engines cannot differ on it.
 */
import type { KeyUse } from './panel-store.ts';

/** An e-mail address as it is stored and compared: the port promises lower case, whoever calls. */
export const storedEmail = (email: string): string => email.trim().toLowerCase();

/**
 * The latest use of each key in `uses` (the first given, of two at the same time): one write per key,
 * as one statement may not change a row twice (PostgreSQL's ON CONFLICT refuses it).
 */
export function latestUses(uses: readonly KeyUse[]): KeyUse[] {
  const latest = new Map<string, KeyUse>();
  for (const use of uses) {
    const known = latest.get(use.keyId);
    if (known === undefined || use.at > known.at) latest.set(use.keyId, use);
  }
  return [...latest.values()];
}
