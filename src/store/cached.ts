/**
 * A caching decorator for any store: what every request reads — the key behind an API key, an embed
 * session, an account's saved location — is kept in memory, so a request seldom reaches the database.
 *
 * Consistency: writes made through this store update or drop the cached entries at once. Writes made
 * through another store on the same database — the operator CLI disabling a key or adding an origin,
 * another server saving a location — are seen when the entry expires, `ttlMs` after it was read (one
 * second by default: well inside the five seconds the operator is promised). That holds for every
 * entry, "not saved" and "no such key" included. A repeated save of a cell known here is answered
 * from memory unless it would fill in an address or label the location lacks: a save never changes
 * what is stored, so otherwise there is nothing to write.
 */
import { BoundedCache } from '../bounded-cache.ts';
import type { Account, ApiKey, EmbedSession, KeyLimits, KeyList, KeyMode, KeyStatus, NewKey, NewSession, SavedLocation, Store } from './store.ts';

export interface CacheOptions {
  now: () => number;
  /** How long a read may be reused. */
  ttlMs?: number;
  /** Most entries per cache; the oldest are dropped first. */
  maxEntries?: number;
}

export function cachedStore(store: Store, options: CacheOptions): Store {
  const { now, ttlMs = 1000, maxEntries = 100_000 } = options;
  const keys = new BoundedCache<{ key: ApiKey; account: Account } | null>(maxEntries);
  const sessions = new BoundedCache<EmbedSession | null>(maxEntries);
  const keysById = new BoundedCache<ApiKey | null>(maxEntries);
  const locations = new BoundedCache<SavedLocation | null>(maxEntries);
  const locationKey = (accountId: string, mode: KeyMode, code: string): string => `${accountId}\n${mode}\n${code}`;
  /** `cachedRead` on this store's clock and time to live. */
  const cached = <T>(cache: BoundedCache<T>, key: string, read: () => Promise<T>): Promise<T> => cachedRead(cache, key, read, now, ttlMs);
  // Changes to keys and accounts are rare and touch several cached views: drop them all.
  const forgetKeys = <T>(result: T): T => {
    keys.clear();
    keysById.clear();
    sessions.clear();
    return result;
  };

  return {
    // Uncached: a session signed out, a link used or a passkey removed must count at once, in every process.
    panel: store.panel,
    // Uncached too: usage is written in batches and read for reports, the audit log appended and read
    // by people who expect to see the change they just made.
    usage: store.usage,
    audit: store.audit,

    createAccount: (input) => store.createAccount(input),
    listAccounts: () => store.listAccounts(),
    findAccount: (name) => store.findAccount(name),
    getAccount: (id) => store.getAccount(id),
    setPartner: async (name, partner) => forgetKeys(await store.setPartner(name, partner)),

    createKey: async (input: NewKey) => forgetKeys(await store.createKey(input)),
    getKey: (id) => cached(keysById, id, () => store.getKey(id)),
    listKeys: (accountId) => store.listKeys(accountId),
    findKeyByHash: (hash) => cached(keys, hash, () => store.findKeyByHash(hash)),
    setKeyStatus: async (id: string, status: KeyStatus) => forgetKeys(await store.setKeyStatus(id, status)),
    setKeyLimits: async (id: string, limits: Partial<KeyLimits>) => forgetKeys(await store.setKeyLimits(id, limits)),
    updateKeyList: async (id: string, list: KeyList, change) => forgetKeys(await store.updateKeyList(id, list, change)),

    createSession: (input: NewSession) => store.createSession(input),
    getSession: (sid) => cached(sessions, sid, () => store.getSession(sid)),
    deleteSessionsExpiredBefore: async (time) => {
      sessions.clear();
      return store.deleteSessionsExpiredBefore(time);
    },

    saveLocation: async (input) => {
      const key = locationKey(input.accountId, input.mode, input.code);
      // A save only adds what the stored location lacks: a repeat that adds nothing needs no write.
      const known = locations.get(key, now());
      if (known && !((input.address !== null && known.address === null) || (input.label !== null && known.label === null))) {
        return { location: known, created: false };
      }
      const saved = await store.saveLocation(input);
      locations.set(key, saved.location, now() + ttlMs);
      return saved;
    },
    findLocation: (accountId, mode, code) => cached(locations, locationKey(accountId, mode, code), () => store.findLocation(accountId, mode, code)),
    deleteTestLocations: async (accountId) => {
      // What the cache holds of the wiped locations must go too; only test ones are named, so all go.
      locations.clear();
      return store.deleteTestLocations(accountId);
    },

    ping: () => store.ping(),
    close: () => store.close(),
  };
}

/**
 * What `read` finds for `key`, answered from `cache` while the entry is younger than `ttlMs`: a
 * "none" as well as a value.
 */
async function cachedRead<T>(cache: BoundedCache<T>, key: string, read: () => Promise<T>, now: () => number, ttlMs: number): Promise<T> {
  const cached = cache.get(key, now());
  if (cached !== undefined) return cached;
  const value = await read();
  cache.set(key, value, now() + ttlMs);
  return value;
}
