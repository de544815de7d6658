/**
 * The in-memory adapter of the store port: everything in maps of one process, gone when it ends. It is
 * the store of `loc mock` and of anything else that must start with nothing to set up and leave
 * nothing behind; it passes the same conformance suite as SQLite.
 *
 * Several stores may share one MemoryDatabase, as several connections share a database file, and each
 * answers from it directly: what one writes, the others read at once. Records are copied in and out,
 * so a caller that changes an object it was given changes nothing stored. The database holds at most
 * `capacity` bytes (estimated from each record's JSON): a mock that integrators' CI feeds for hours
 * must not grow without bound, and when full it refuses writes as a full disk does (StoreUnavailable
 * 'full'), still answering reads.
 */
import type { AuditStore } from '../audit-store.ts';
import { newId } from '../ids.ts';
import { MemoryAuditStore } from './memory-audit.ts';
import { MemoryDatabase, put, sizeOf } from './memory-database.ts';
import { MemoryPanelStore } from './memory-panel.ts';
import { MemoryUsageStore } from './memory-usage.ts';
import type { PanelStore } from '../panel-store.ts';
import {
  CapReached, StoreConflict, StoreUnavailable, type Account, type ApiKey, type EmbedSession, type KeyLimits, type KeyList, type KeyListChange, type KeyMode, type KeyStatus, type NewKey,
  type NewSession, type SavedLocation, type Store, type Updated,
} from '../store.ts';
import type { UsageStore } from '../usage-store.ts';

export { MemoryDatabase } from './memory-database.ts';

const locationKey = (accountId: string, mode: KeyMode, code: string): string => `${accountId} ${mode} ${code}`;
/** The ceiling of an account whose operator set none: every limit the service's default. */
const NO_LIMITS: KeyLimits = { hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null };
/** CapReached when the account has `cap` active keys already. */
function holdToCap(db: MemoryDatabase, accountId: string, cap: number | undefined): void {
  if (cap === undefined) return;
  let active = 0;
  for (const { key } of db.keys.values()) if (key.accountId === accountId && key.status === 'active') active += 1;
  if (active >= cap) throw new CapReached(`the account has ${cap} active keys`);
}
const copyKey = (key: ApiKey): ApiKey => ({ ...key, origins: [...key.origins], ipRanges: [...key.ipRanges] });

export class MemoryStore implements Store {
  private closed = false;
  readonly engine = 'memory';
  readonly panel: PanelStore = new MemoryPanelStore((work) => this.run(work));
  readonly usage: UsageStore = new MemoryUsageStore((work) => this.run(work));
  readonly audit: AuditStore = new MemoryAuditStore((work) => this.run(work));

  constructor(private readonly db = new MemoryDatabase()) {}

  /** One unit of work; a closed store serves nothing, as a closed database connection does not. */
  private async run<T>(work: (db: MemoryDatabase) => T): Promise<T> {
    if (this.closed) throw new StoreUnavailable('cannot-open', 'the in-memory store is closed');
    return work(this.db);
  }

  createAccount(input: { name: string; partner: boolean; createdAt: number }): Promise<Account> {
    return this.run((db) => {
      if (db.accountIds.has(input.name)) throw new StoreConflict(`An account named ${JSON.stringify(input.name)} already exists.`);
      const account: Account = { id: newId('acct'), name: input.name, partner: input.partner, createdAt: input.createdAt };
      db.take(sizeOf(account));
      db.accounts.set(account.id, account);
      db.accountIds.set(account.name, account.id);
      return { ...account };
    });
  }

  listAccounts(): Promise<Account[]> {
    return this.run((db) =>
      [...db.accounts.values()].sort((a, b) => a.createdAt - b.createdAt || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((a) => ({ ...a })),
    );
  }

  findAccount(name: string): Promise<Account | null> {
    return this.run((db) => {
      const id = db.accountIds.get(name);
      return id === undefined ? null : { ...db.accounts.get(id)! };
    });
  }

  getAccount(id: string): Promise<Account | null> {
    return this.run((db) => {
      const account = db.accounts.get(id);
      return account ? { ...account } : null;
    });
  }

  setPartner(name: string, partner: boolean): Promise<Updated<Account> | null> {
    return this.run((db) => {
      const id = db.accountIds.get(name);
      if (id === undefined) return null;
      const account = db.accounts.get(id)!;
      const before = { ...account };
      account.partner = partner;
      return { before, after: { ...account } };
    });
  }

  accountLimits(accountId: string): Promise<KeyLimits | null> {
    return this.run((db) => (db.accounts.has(accountId) ? { ...(db.accountLimits.get(accountId) ?? NO_LIMITS) } : null));
  }

  setAccountLimits(accountId: string, limits: Partial<KeyLimits>): Promise<Updated<KeyLimits> | null> {
    return this.run((db) => {
      if (!db.accounts.has(accountId)) return null;
      const before = { ...(db.accountLimits.get(accountId) ?? NO_LIMITS) };
      const after = { ...before, ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) };
      put(db, db.accountLimits, accountId, after);
      return { before, after: { ...after } };
    });
  }

  createKey(input: NewKey, cap?: number): Promise<ApiKey> {
    return this.run((db) => {
      if (!db.accounts.has(input.accountId)) throw new Error(`no account ${input.accountId} to hold the key`);
      holdToCap(db, input.accountId, cap);
      const { hash, ...fields } = input;
      const key: ApiKey = { ...fields, id: newId('key'), status: 'active', origins: [...input.origins], ipRanges: [...input.ipRanges] };
      db.take(sizeOf(key) + hash.length);
      db.keys.set(key.id, { key, hash });
      db.keyIds.set(hash, key.id);
      return copyKey(key);
    });
  }

  getKey(id: string): Promise<ApiKey | null> {
    return this.run((db) => {
      const stored = db.keys.get(id);
      return stored ? copyKey(stored.key) : null;
    });
  }

  listKeys(accountId: string): Promise<ApiKey[]> {
    return this.run((db) =>
      [...db.keys.values()]
        .map(({ key }) => key)
        .filter((key) => key.accountId === accountId)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(copyKey),
    );
  }

  findKeyByHash(hash: string): Promise<{ key: ApiKey; account: Account } | null> {
    return this.run((db) => {
      const id = db.keyIds.get(hash);
      if (id === undefined) return null;
      const { key } = db.keys.get(id)!;
      return { key: copyKey(key), account: { ...db.accounts.get(key.accountId)! } };
    });
  }

  setKeyStatus(id: string, status: KeyStatus, cap?: number): Promise<Updated<ApiKey> | null> {
    return this.changeKey(id, (key, db) => {
      if (status === 'active' && key.status !== 'active') holdToCap(db, key.accountId, cap);
      key.status = status;
    });
  }

  setKeyLimits(id: string, limits: Partial<KeyLimits>): Promise<Updated<ApiKey> | null> {
    return this.changeKey(id, (key) => {
      for (const name of ['hourlyLimit', 'embedHourlyLimit', 'sessionLimit'] as const) if (limits[name] !== undefined) key[name] = limits[name];
    });
  }

  updateKeyList(id: string, list: KeyList, change: KeyListChange): Promise<Updated<ApiKey> | null> {
    return this.changeKey(id, (key, db) => {
      if ('add' in change) {
        if (key[list].includes(change.add)) return;
        if (change.cap !== undefined && key[list].length >= change.cap) throw new CapReached(`the key has ${change.cap} values in its list`);
        db.take(change.add.length + 3);
        key[list] = [...key[list], change.add];
      } else {
        key[list] = key[list].filter((value) => value !== change.remove);
      }
    });
  }

  private changeKey(id: string, change: (key: ApiKey, db: MemoryDatabase) => void): Promise<Updated<ApiKey> | null> {
    return this.run((db) => {
      const stored = db.keys.get(id);
      if (!stored) return null;
      const before = copyKey(stored.key);
      change(stored.key, db);
      return { before, after: copyKey(stored.key) };
    });
  }

  createSession(input: NewSession): Promise<void> {
    return this.run((db) => {
      if (!db.keys.has(input.keyId)) throw new Error(`no key ${input.keyId} to hold the session`);
      const session = { ...input, countries: input.countries ? [...input.countries] : null, bounds: input.bounds ? { ...input.bounds } : null };
      db.take(sizeOf(session));
      db.sessions.set(input.sid, session);
    });
  }

  getSession(sid: string): Promise<EmbedSession | null> {
    return this.run((db) => {
      const session = db.sessions.get(sid);
      if (!session) return null;
      const { key } = db.keys.get(session.keyId)!;
      const account = db.accounts.get(key.accountId)!;
      return {
        ...session, countries: session.countries && [...session.countries], bounds: session.bounds && { ...session.bounds },
        accountId: key.accountId, keyActive: key.status === 'active', accountPartner: account.partner,
      };
    });
  }

  deleteSessionsExpiredBefore(time: number): Promise<number> {
    return this.run((db) => {
      let deleted = 0;
      for (const [sid, session] of db.sessions) {
        if (session.expiresAt >= time) continue;
        db.sessions.delete(sid);
        db.used -= sizeOf(session);
        deleted++;
      }
      return deleted;
    });
  }

  saveLocation(input: SavedLocation): Promise<{ location: SavedLocation; created: boolean }> {
    return this.run((db) => {
      const at = locationKey(input.accountId, input.mode, input.code);
      const stored = db.locations.get(at);
      if (stored === undefined) {
        const location = { ...input };
        db.take(sizeOf(location));
        db.locations.set(at, location);
        return { location: { ...location }, created: true };
      }
      // The first save stays; a later one only fills in what it lacked (Store.saveLocation).
      const address = stored.address ?? input.address;
      const label = stored.label ?? input.label;
      if (address !== stored.address || label !== stored.label) {
        db.take((address?.length ?? 0) - (stored.address?.length ?? 0) + (label?.length ?? 0) - (stored.label?.length ?? 0));
        Object.assign(stored, { address, label });
      }
      return { location: { ...stored }, created: false };
    });
  }

  findLocation(accountId: string, mode: KeyMode, code: string): Promise<SavedLocation | null> {
    return this.run((db) => {
      const location = db.locations.get(locationKey(accountId, mode, code));
      return location ? { ...location } : null;
    });
  }

  hasLocations(accountId: string, mode: KeyMode): Promise<boolean> {
    return this.run((db) => [...db.locations.values()].some((location) => location.accountId === accountId && location.mode === mode));
  }

  deleteTestLocations(accountId: string): Promise<number> {
    return this.run((db) => {
      let deleted = 0;
      for (const [at, location] of db.locations) {
        if (location.accountId !== accountId || location.mode !== 'test') continue;
        db.locations.delete(at);
        db.used -= sizeOf(location);
        deleted++;
      }
      return deleted;
    });
  }

  ping(): Promise<void> {
    return this.run(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
