/**
 * What the audit log records (store/audit-store.ts): the catalogue of actions, each with the words the
 * panel and `loc audit` describe it in, and the one way changes are appended. Every change the panel
 * or the operator CLI makes to an account — its keys, its team, its partner status, its test data —
 * and to a user's own credentials goes through `recordChange` right after the change succeeds: a
 * refused change changed nothing and is not recorded.
 *
 * Who and from where: in the panel, the signed-in user's e-mail address and the client's IP address
 * (as the server sees it, behind a trusted proxy the client's); in the CLI, the system user who ran it
 * and the machine's host name, since the CLI needs the database's credentials, not a panel sign-in.
 */
import type { AuditEntry, AuditValue, NewAuditEntry } from '../store/audit-store.ts';
import type { ApiKey, Store } from '../store/store.ts';

/** The actions, with what each says after "who", before its target. */
export const AUDIT_ACTIONS = {
  'account.create': 'created the account',
  'account.partner_on': 'made the account a partner',
  'account.partner_off': 'took partner status from the account',
  'account.test_data_wipe': "wiped the account's test locations",
  'account.set_limits': "changed the ceiling of the account's keys' limits",
  'key.create': 'created the key',
  'key.disable': 'disabled the key',
  'key.enable': 'enabled the key',
  'key.rotate': 'started rotating the key',
  'key.rotation_finish': 'finished rotating the key',
  'key.set_limits': 'changed the limits of the key',
  'key.origin_add': 'added an origin to the key',
  'key.origin_remove': 'removed an origin from the key',
  'key.ip_add': 'added an IP range to the key',
  'key.ip_remove': 'removed an IP range from the key',
  'user.invite': 'invited',
  'user.recover': 'made a recovery link for',
  'user.remove': 'removed from the team',
  'user.operator_on': 'made an operator:',
  'user.operator_off': 'took operator status from',
  'user.activate': 'accepted the invitation',
  'user.recovered': 'chose new credentials with a recovery link',
  'user.password_change': 'changed their password',
  'user.passkey_add': 'added a passkey',
  'user.passkey_remove': 'removed a passkey',
  'user.sessions_end': 'signed out their other sessions',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** Who is making changes, and from where: the panel's signed-in user, or the CLI's operator. */
export interface Actor {
  via: AuditEntry['via'];
  actor: string;
  source: string;
}

/** One change to record: what, on which account, to what, with which particulars. */
export interface Change {
  accountId: string;
  action: AuditAction;
  target: string | null;
  details?: Record<string, AuditValue>;
}

/** Appends `change` made by `actor` at `at`. */
export function recordChange(store: Store, actor: Actor, change: Change, at: number): Promise<AuditEntry> {
  const entry: NewAuditEntry = { at, ...actor, accountId: change.accountId, action: change.action, target: change.target, details: change.details ?? {} };
  return store.audit.appendAudit(entry);
}

/** A new key's settings, as its `key.create` entry keeps them: everything but its secret. */
export function keyDetails(key: ApiKey): Record<string, AuditValue> {
  return {
    mode: key.mode, label: key.label, origins: key.origins, ip_ranges: key.ipRanges,
    hourly_limit: key.hourlyLimit, embed_hourly_limit: key.embedHourlyLimit, session_limit: key.sessionLimit,
  };
}

/** A detail as words: a limit of null follows the service's default; another null or an empty list is none. */
function detailInWords(name: string, value: AuditValue): string {
  if (value === null) return name.endsWith('_limit') ? 'default' : 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return Array.isArray(value) ? value.join(', ') || 'none' : String(value);
}

/**
 * The entry as a sentence without its actor and time: "created the key key_… (mode: live)". An action
 * this version does not know (written by a newer loc) is shown by its name.
 */
export function describeChange(entry: Pick<AuditEntry, 'action' | 'target' | 'details'>): string {
  const words = (AUDIT_ACTIONS as Record<string, string>)[entry.action] ?? entry.action;
  const details = Object.entries(entry.details).map(([name, value]) => `${name.replace(/_/g, ' ')}: ${detailInWords(name, value)}`);
  return [words, entry.target ?? '', details.length > 0 ? `(${details.join('; ')})` : ''].filter((part) => part !== '').join(' ');
}
