/**
 * A caching decorator for any store: what every request reads — the key behind an API key, an embed
 * session, an account's saved location — is kept in memory, so a request seldom reaches the database.
 *
 * Consistency: writes made through this store update or drop the cached entries at once. Writes made
 * through another store on the same database — the operator CLI disabling a key or adding an origin,
 * another server saving a location — are seen when the entry expires, `ttlMs` after it was read (one
 * second by default: well inside the five seconds the operator is promised). That holds for every
 * entry, "not saved" and "no such key" included, and for "this account has saved no location",
 * which answers every code of such an account without a read. A repeated save of a cell known here
 * is answered from memory unless it would fill in an address or label the location lacks: a save
 * never changes what is stored, so otherwise there is nothing to write. Reads of one entry that
 * miss at the same moment share one read of the store.
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
  /** Whether an account has saved any location of a mode, by `account\nmode`. */
  const holders = new BoundedCache<boolean>(maxEntries);
  const locationKey = (accountId: string, mode: KeyMode, code: string): string => `${accountId}\n${mode}\n${code}`;
  const { cached, forget, put } = cacheBook(now, ttlMs);
  const hasLocations = (accountId: string, mode: KeyMode) => cached(holders, `${accountId}\n${mode}`, () => store.hasLocations(accountId, mode));
  // Changes to keys and accounts are rare and touch several cached views: drop them all.
  const forgetKeys = <T>(result: T): T => {
    forget(keys, keysById, sessions);
    return result;
  };

  return {
    engine: store.engine,
    // The pool's figures are read as they are now.
    ...(store.poolStats && { poolStats: () => store.poolStats!() }),
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
    // Uncached: read only by the panel's changes to keys, which must hold to the ceiling as last set.
    accountLimits: (accountId) => store.accountLimits(accountId),
    setAccountLimits: (accountId, limits) => store.setAccountLimits(accountId, limits),

    createKey: async (input: NewKey, cap?: number) => forgetKeys(await store.createKey(input, cap)),
    getKey: (id) => cached(keysById, id, () => store.getKey(id)),
    // Uncached: the keys as stored, for the panel's list and for what an operation decides on (a rotation).
    listKeys: (accountId) => store.listKeys(accountId),
    findKeyByHash: (hash) => cached(keys, hash, () => store.findKeyByHash(hash)),
    setKeyStatus: async (id: string, status: KeyStatus, cap?: number) => forgetKeys(await store.setKeyStatus(id, status, cap)),
    setKeyLimits: async (id: string, limits: Partial<KeyLimits>) => forgetKeys(await store.setKeyLimits(id, limits)),
    updateKeyList: async (id: string, list: KeyList, change) => forgetKeys(await store.updateKeyList(id, list, change)),

    createSession: (input: NewSession) => store.createSession(input),
    getSession: (sid) => cached(sessions, sid, () => store.getSession(sid)),
    deleteSessionsExpiredBefore: async (time) => {
      forget(sessions);
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
      put(locations, key, saved.location);
      put(holders, `${input.accountId}\n${input.mode}`, true);
      return saved;
    },
    findLocation: (accountId, mode, code) =>
      cached(locations, locationKey(accountId, mode, code), async () => ((await hasLocations(accountId, mode)) ? store.findLocation(accountId, mode, code) : null)),
    hasLocations,
    deleteTestLocations: async (accountId) => {
      // What the cache holds of the wiped locations must go too; only test ones are named, so all go.
      forget(locations, holders);
      return store.deleteTestLocations(accountId);
    },

    ping: () => store.ping(),
    close: () => store.close(),
  };
}

/** Reads and writes of caches on one clock and time to live, with the reads under way shared. */
function cacheBook(now: () => number, ttlMs: number) {
  const inFlight = new Map<BoundedCache<unknown>, Map<string, Promise<unknown>>>();
  const readsOf = <T>(cache: BoundedCache<T>): Map<string, Promise<T>> => {
    if (!inFlight.has(cache)) inFlight.set(cache, new Map());
    return inFlight.get(cache) as Map<string, Promise<T>>;
  };
  return {
    /** `cachedRead` on this clock and time to live. */
    cached: <T>(cache: BoundedCache<T>, key: string, read: () => Promise<T>): Promise<T> => cachedRead(cache, readsOf(cache), key, read, now, ttlMs),
    /** Empties caches; a read of one under way when it is emptied answers its callers, and caches nothing. */
    forget(...caches: BoundedCache<unknown>[]): void {
      for (const cache of caches) {
        cache.clear();
        inFlight.get(cache)?.clear();
      }
    },
    /** Caches what a write made; a read of the entry under way caches nothing. */
    put<T>(cache: BoundedCache<T>, key: string, value: T): void {
      inFlight.get(cache)?.delete(key);
      cache.set(key, value, now() + ttlMs);
    },
  };
}

/**
 * What `read` finds for `key`, answered from `cache` while the entry is younger than `ttlMs`: a
 * "none" as well as a value. A read of `key` already under way (in `reads`) is shared, not repeated.
 */
function cachedRead<T>(cache: BoundedCache<T>, reads: Map<string, Promise<T>>, key: string, read: () => Promise<T>, now: () => number, ttlMs: number): Promise<T> {
  const cached = cache.get(key, now());
  if (cached !== undefined) return Promise.resolve(cached);
  let reading = reads.get(key);
  if (reading === undefined) {
    // Through a promise of its own: a read that throws at once fails its callers as a rejection.
    const started: Promise<T> = new Promise<T>((resolve) => resolve(read())).then((value) => {
      // Not when the cache was emptied meanwhile: the value may be from before the write that emptied it.
      if (reads.get(key) === started) cache.set(key, value, now() + ttlMs);
      return value;
    }).finally(() => {
      if (reads.get(key) === started) reads.delete(key);
    });
    reading = started;
    reads.set(key, reading);
  }
  return reading;
}
