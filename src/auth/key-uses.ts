/**
 * When and from where each key was last used — what a partner rotating a key watches for — without a
 * database write per request: accepted requests note their key's use in memory, and the latest use of
 * each key is written in one batch every LAST_USE_WRITE_EVERY_MS, and when the server closes. A busy key costs
 * one write per interval however many requests it makes.
 */
import type { KeyUse } from '../store/panel-store.ts';
import type { Store } from '../store/store.ts';

/** How often noted uses are written: a new key's first request shows in the panel within this. */
export const LAST_USE_WRITE_EVERY_MS = 2_000;

export interface KeyUses {
  note(use: KeyUse): void;
  /** Writes what is noted now; resolves when written (or the write failed and was reported). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

export function keyUses(store: Store, onError: (error: unknown) => void): KeyUses {
  let pending = new Map<string, KeyUse>();
  const flush = async (): Promise<void> => {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    // A failed write loses only these last-use times, which the next requests note again.
    await store.panel.recordKeyUses(batch).catch(onError);
  };
  const timer = setInterval(() => void flush(), LAST_USE_WRITE_EVERY_MS).unref();
  return {
    note(use) {
      const previous = pending.get(use.keyId);
      if (previous === undefined || use.at >= previous.at) pending.set(use.keyId, use);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
