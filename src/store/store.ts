/**
 * The store port: everything loc keeps — accounts, API keys, embed sessions and saved locations —
 * behind one small interface. SQLite (`sqlite.ts`) is the embedded adapter, PostgreSQL (`postgres.ts`)
 * the one several processes can share; every adapter passes the same conformance suite
 * (`test/conformance/store.ts`). Methods are async so that a networked engine fits the same port.
 *
 * Times are milliseconds since the epoch, supplied by the caller (the service's injected clock), so
 * the store never reads a clock of its own.
 */
import type { AuditStore } from './audit-store.ts';
import type { PanelStore } from './panel-store.ts';
import type { UsageStore } from './usage-store.ts';
import type { Updated } from './updated.ts';

export type { Updated };

export interface Account {
  /** Public id, `acct_…`. */
  id: string;
  /** Unique name, used by the operator CLI. */
  name: string;
  /** Partners may create embed sessions. */
  partner: boolean;
  createdAt: number;
}

export type KeyStatus = 'active' | 'disabled';

/**
 * Live keys do the partner's real work. Test keys (`loc_test_…`) answer the same API and embed with the
 * same errors, but what they save is kept apart from live data, can be wiped, and their traffic spends
 * only their own limits — what integrators' CI and QA need.
 */
export type KeyMode = 'live' | 'test';

/**
 * What a key may spend, each null to follow the service's default. Server calls and embed traffic
 * are counted apart, so that visitors holding session tokens can never use up the budget of the
 * partner's own server.
 */
export interface KeyLimits {
  /** Calls made with the key itself (its server's), per clock hour. */
  hourlyLimit: number | null;
  /** Calls made with the key's embed sessions, all of them together, per clock hour. */
  embedHourlyLimit: number | null;
  /** Calls one embed session of the key may make over its whole lifetime. */
  sessionLimit: number | null;
}

export interface ApiKey extends KeyLimits {
  /** Public id, `key_…`; the secret itself is never stored. */
  id: string;
  accountId: string;
  label: string | null;
  status: KeyStatus;
  /** Origins allowed to host embed sessions of this key, canonical (see auth/origin.ts). */
  origins: string[];
  /** CIDR ranges the key may be used from; empty: any address. */
  ipRanges: string[];
  mode: KeyMode;
  createdAt: number;
}

export interface NewKey extends KeyLimits {
  accountId: string;
  mode: KeyMode;
  /** SHA-256 of the secret (auth/secrets.ts). */
  hash: string;
  label: string | null;
  origins: string[];
  ipRanges: string[];
  createdAt: number;
}

/**
 * A box of degrees, WGS 84. West greater than east is a box that crosses the antimeridian (as a
 * GeoJSON bbox writes it): from `west` eastwards over 180° to `east`.
 */
export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** An embed session with what the frame and the auth need to know about its key. */
export interface EmbedSession {
  /** Public session id, the first part of the token; it names the frame URL. */
  sid: string;
  /** SHA-256 of the secret part of the token. */
  secretHash: string;
  keyId: string;
  accountId: string;
  /** The one origin allowed to embed the frame. */
  origin: string;
  createdAt: number;
  expiresAt: number;
  /** False once the session's key is disabled: the session stops working with it. */
  keyActive: boolean;
  /** False once the session's account is no longer a partner: the session stops working too. */
  accountPartner: boolean;
  /** The countries (ISO 3166-1 alpha-2) its visitors may choose points in; null: any. */
  countries: string[] | null;
  /** The box its visitors may choose points in; null: anywhere. */
  bounds: Bounds | null;
}

/** A session to keep; without an area it allows any point, as sessions made before areas do. */
export type NewSession = Omit<EmbedSession, 'accountId' | 'keyActive' | 'accountPartner' | 'countries' | 'bounds'> &
  Partial<Pick<EmbedSession, 'countries' | 'bounds'>>;

/**
 * A location an account saved: its label and address are visible to calls made with that account's
 * keys only — never to another account, nor to the account's own embed sessions, whose tokens every
 * visitor of the partner's page holds.
 */
export interface SavedLocation {
  accountId: string;
  /** The mode of the key that saved it: test saves live apart from live ones, and are never seen by live keys. */
  mode: KeyMode;
  code: string;
  latitude: number;
  longitude: number;
  address: string | null;
  label: string | null;
  createdAt: number;
}

/** Which list of a key to change. */
export type KeyList = 'origins' | 'ipRanges';

/** A change to a list of a key: a value added, with the most values the list may then hold, or removed. */
export type KeyListChange = { add: string; cap?: number } | { remove: string };

/** The engines a store is kept in (open-store.ts chooses one). */
export type StoreEngine = 'sqlite' | 'postgres' | 'memory';

/** A pool's connections now, for an operator's view of a networked engine. */
export interface PoolStats {
  /** Connections open, in use or idle. */
  total: number;
  idle: number;
  /** Callers waiting for a connection, none being free. */
  waiting: number;
}

export interface Store {
  /** Which engine holds it: what metrics and messages name it by. */
  readonly engine: StoreEngine;
  /** The partner panel's users, sign-ins, rotations and keys' last uses (panel-store.ts). */
  readonly panel: PanelStore;
  /** Each key's traffic per hour, refusals by reason (usage-store.ts). */
  readonly usage: UsageStore;
  /** Every change made in the panel or the CLI, append-only (audit-store.ts). */
  readonly audit: AuditStore;

  /** Throws `StoreConflict` when the name is taken. */
  createAccount(input: { name: string; partner: boolean; createdAt: number }): Promise<Account>;
  listAccounts(): Promise<Account[]>;
  findAccount(name: string): Promise<Account | null>;
  getAccount(id: string): Promise<Account | null>;
  /** Null when no account has that name. */
  setPartner(name: string, partner: boolean): Promise<Updated<Account> | null>;
  /**
   * The account's ceiling of its keys' limits, as the operator set it (operations/account-limits.ts):
   * each null follows the service's default. Null when there is no such account.
   */
  accountLimits(accountId: string): Promise<KeyLimits | null>;
  /** Sets the ceilings given (a number, or null for the service's default), keeps the others; null when there is no such account. */
  setAccountLimits(accountId: string, limits: Partial<KeyLimits>): Promise<Updated<KeyLimits> | null>;

  /**
   * With `cap`, the most active keys the account may have once this one is made: a key past it is
   * CapReached, and nothing is written. The count and the insert are one write, also across processes.
   */
  createKey(input: NewKey, cap?: number): Promise<ApiKey>;
  getKey(id: string): Promise<ApiKey | null>;
  listKeys(accountId: string): Promise<ApiKey[]>;
  /** The key with this secret hash and its account, whatever the key's status. */
  findKeyByHash(hash: string): Promise<{ key: ApiKey; account: Account } | null>;
  /**
   * Null when no such key. With `cap`, enabling a disabled key that would take its account's active
   * keys past `cap` is CapReached, and nothing is written; counted in the same write.
   */
  setKeyStatus(id: string, status: KeyStatus, cap?: number): Promise<Updated<ApiKey> | null>;
  /** Sets the limits given (a number, or null to follow the service's default), keeps the others; null when no such key. */
  setKeyLimits(id: string, limits: Partial<KeyLimits>): Promise<Updated<ApiKey> | null>;
  /**
   * Adds a value to a list of the key (no duplicates) or removes it; null when no such key. An add
   * with `cap`, of a value not there, to a list that holds `cap` values already is CapReached.
   */
  updateKeyList(id: string, list: KeyList, change: KeyListChange): Promise<Updated<ApiKey> | null>;

  createSession(input: NewSession): Promise<void>;
  getSession(sid: string): Promise<EmbedSession | null>;
  /** Forgets sessions that expired before `time`; returns how many. */
  deleteSessionsExpiredBefore(time: number): Promise<number>;

  /**
   * Saves a location for an account. The first save of a code creates it (`created: true`); a later
   * save of the same code fills in an address or a label the stored location lacks and never changes
   * one it has, so a save without them (an embed session's) takes nothing from the partner's later
   * ones. Atomic, also across processes: of concurrent first saves exactly one gets `created: true`,
   * and all get the stored row as it is after their own save.
   */
  saveLocation(input: SavedLocation): Promise<{ location: SavedLocation; created: boolean }>;
  findLocation(accountId: string, mode: KeyMode, code: string): Promise<SavedLocation | null>;
  /**
   * Whether the account's keys of `mode` have saved any location: an account that saved none needs
   * no read per code (cached.ts), and most accounts that look codes up never save one.
   */
  hasLocations(accountId: string, mode: KeyMode): Promise<boolean>;
  /** Forgets every location the account's test keys saved; returns how many. Live ones stay. */
  deleteTestLocations(accountId: string): Promise<number>;

  /** Cheap liveness probe for /healthz. */
  ping(): Promise<void>;
  /** The connections of an engine that keeps a pool of them (PostgreSQL); absent where there is none. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

/**
 * What some engines can do besides the port: write a consistent copy of the whole database to a file,
 * also while a server uses it (`loc backup`). An engine on another machine leaves backups to its own tools.
 */
export interface BackupCapable {
  backup(file: string): Promise<void>;
}

export function canBackUp(store: Store): store is Store & BackupCapable {
  return typeof (store as Partial<BackupCapable>).backup === 'function';
}

export interface OpenStoreOptions {
  /**
   * Create the database when there is none (the server's start, the first `loc accounts create`).
   * With false only an existing loc database is opened: anything else is NoDatabase, so that a
   * mistyped setting cannot leave an empty database behind. Default true.
   */
  create?: boolean;
}

/**
 * The place the configuration names holds no loc database, and the caller asked not to create one:
 * most likely the setting names the wrong place. `why` says what was found instead.
 */
export class NoDatabase extends Error {
  override readonly name = 'NoDatabase';

  constructor(readonly where: string, readonly why: string) {
    super(`there is no loc database in ${where} (${why})`);
  }
}

/** A write would take a count past the cap its caller gave (operations/caps.ts); nothing was written. */
export class CapReached extends Error {
  override readonly name = 'CapReached';
}

/** A unique value (account name) is already taken. */
export class StoreConflict extends Error {
  override readonly name = 'StoreConflict';
}

/**
 * Why the database cannot serve a request right now, in any engine's terms: its storage is full or
 * read-only, reading or writing failed, another holder keeps it busy, it cannot be opened, or (a
 * database on another machine) it cannot be reached.
 */
export type UnavailableReason = 'full' | 'read-only' | 'io-error' | 'busy' | 'cannot-open' | 'unreachable';

/**
 * The database cannot serve the request right now — a condition of where it runs, not of the request,
 * that can pass without a restart. Adapters throw it for their engine's errors of that kind, with the
 * engine's own words as the message; the server answers 503 with the reason.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';

  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
