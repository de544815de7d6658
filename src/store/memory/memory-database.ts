/**
 * The records of the in-memory store (memory.ts), which several MemoryStores share as connections
 * share a database file, and the bytes they hold: at most `capacity`, estimated from each record's
 * JSON, beyond which writes are refused as a full disk refuses them.
 */
import type { HeldInvitation } from '../held-invitations.ts';
import type { NewAuditEntry } from '../audit-store.ts';
import type { Challenge, KeyUse, NewLink, PanelSession, Passkey, Rotation, User } from '../panel-store.ts';
import { StoreUnavailable, type Account, type ApiKey, type KeyLimits, type NewSession, type SavedLocation } from '../store.ts';
import type { UsageHour } from '../usage-store.ts';

/** What a MemoryDatabase holds unless told otherwise: 64 MB, some 200 000 saved locations. */
export const DEFAULT_MEMORY_CAPACITY = 64 * 1024 * 1024;

interface StoredKey {
  key: ApiKey;
  hash: string;
}

/** The records several MemoryStores share. */
export class MemoryDatabase {
  readonly accounts = new Map<string, Account>();
  readonly accountIds = new Map<string, string>();
  /** The ceiling of each account's keys' limits, by account id; an account without an entry follows the defaults. */
  readonly accountLimits = new Map<string, KeyLimits>();
  readonly keys = new Map<string, StoredKey>();
  readonly keyIds = new Map<string, string>();
  readonly sessions = new Map<string, Required<NewSession>>();
  readonly locations = new Map<string, SavedLocation>();
  readonly users = new Map<string, User>();
  /** User ids by e-mail address. */
  readonly userIds = new Map<string, string>();
  readonly links = new Map<string, NewLink & { usedAt: number | null }>();
  readonly passkeys = new Map<string, Passkey>();
  readonly panelSessions = new Map<string, PanelSession>();
  readonly challenges = new Map<string, Challenge>();
  /** By `oldKeyId newKeyId`. */
  readonly rotations = new Map<string, Rotation>();
  /** By key id. */
  readonly keyUses = new Map<string, KeyUse>();
  /** By id (held-invitations.ts). */
  readonly heldInvitations = new Map<string, HeldInvitation>();
  /** By `keyId kind hour` (usage-store.ts). */
  readonly usage = new Map<string, UsageHour>();
  /** By seq; details as JSON text, as the SQL engines keep them. */
  readonly audit = new Map<string, Omit<NewAuditEntry, 'details'> & { seq: number; details: string }>();
  /** The last seq given: never reused, as SQLite's AUTOINCREMENT and PostgreSQL's identity. */
  auditSeq = 0;
  /** Bytes the records hold, as estimated by `sizeOf`. */
  used = 0;

  constructor(public capacity = DEFAULT_MEMORY_CAPACITY) {}

  /** Counts `bytes` more held, refusing as a full disk does when they do not fit. */
  take(bytes: number): void {
    if (this.used + bytes > this.capacity) {
      throw new StoreUnavailable('full', `the in-memory store holds its limit of ${this.capacity} bytes`);
    }
    this.used += bytes;
  }
}

/** An estimate of the memory a record holds: its JSON's length, plus the maps' own keeping. */
export const sizeOf = (record: object): number => JSON.stringify(record).length + 64;

/** Stores `record` at `id`, counting the bytes it holds beyond what it replaces. */
export function put<T extends object>(db: MemoryDatabase, map: Map<string, T>, id: string, record: T): void {
  const old = map.get(id);
  db.take(sizeOf(record) - (old === undefined ? 0 : sizeOf(old)));
  map.set(id, record);
}

/** Forgets the record at `id` and the bytes it held; false when there was none. */
export function drop<T extends object>(db: MemoryDatabase, map: Map<string, T>, id: string): boolean {
  const old = map.get(id);
  if (old === undefined) return false;
  map.delete(id);
  db.used -= sizeOf(old);
  return true;
}
