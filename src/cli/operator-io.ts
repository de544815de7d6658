/**
 * What the operator commands (`loc accounts …`, `loc keys …`, `loc db …`) share: the configured store
 * — PostgreSQL when LOC_DATABASE_URL names one, else SQLite in LOC_DATA_DIR, as `loc serve` chooses;
 * the server's own, safe to use while it runs — one-line errors, and output as a table or as JSON.
 *
 * Exit codes follow main.ts: a bad argument (an origin that is not one, a CIDR that does not parse)
 * is a usage mistake, exit 2; an account or key that does not exist is an error of the work, exit 1.
 */
import { hostname, userInfo } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { LocError } from '../errors.ts';
import { CAP_OPTIONS, ConfigError, OPTIONS, capsOf, loadSettings } from '../server/config.ts';
import { misspelledSettings } from '../server/misspelled-settings.ts';
import { OverCap, type Caps } from '../operations/caps.ts';
import type { ChangeContext } from '../operations/change-context.ts';
import { printable } from '../printable.ts';
import { openStore, storePlace, type StoreSettings } from '../store/open-store.ts';
import { NoDatabase, StoreConflict, StoreUnavailable, type Account, type BackupCapable, type Store } from '../store/store.ts';
import { ioOf, setExitCode, type CliIo } from './cli-io.ts';

/**
 * The context of a change the command makes (operations/): the store, and who — the system user who
 * ran it, from the machine's host name, since the CLI is trusted with the database's own credentials
 * and has no panel user to name.
 */
export function cliContext(store: Store, caps?: Caps): ChangeContext {
  let actor: string;
  try {
    actor = userInfo().username;
  } catch {
    // A uid without a passwd entry (some containers): its number is who.
    actor = `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return { store, actor: { via: 'cli', actor, source: hostname() }, now: Date.now(), caps };
}

/** The option of the commands held to the caps on what an account gathers. */
export const OVER_CAP: readonly [string, string] = ['--over-cap', 'go past the caps on what an account gathers (LOC_MAX_…): the operator’s call'];

/**
 * The caps the commands that add to an account are held to: the environment's, read as `loc serve`
 * reads them (a bad value is a usage mistake, exit 2); none with `--over-cap`.
 */
export function operatorCaps(command: Command, over: boolean | undefined): Caps | undefined {
  if (over) return undefined;
  return capsOf(configured(command, () => loadSettings(ioOf(command).env, Object.keys(CAP_OPTIONS) as (keyof typeof CAP_OPTIONS)[])));
}

/** An error of the work (not of usage): printed as one line, exit 1. */
export class OperatorError extends Error {
  override readonly name = 'OperatorError';
}

/** The error of an account name that names none, saying where to look. */
export const noSuchAccount = (name: string): OperatorError => new OperatorError(`No account is named ${JSON.stringify(name)}; see loc accounts list.`);

/** The account named `name`, or noSuchAccount. */
export async function requireAccount(store: Store, name: string): Promise<Account> {
  const account = await store.findAccount(name);
  if (account === null) throw noSuchAccount(name);
  return account;
}

interface WithStoreOptions {
  /** Create the database when there is none, and say so (`loc accounts create`, the first setup). */
  create?: boolean;
  /** Why the command does not run on these settings, said before the store is opened; undefined: it does. */
  refuse?: (settings: StoreSettings) => string | undefined;
}

/**
 * Runs `work` against the configured store and closes it; maps errors onto one-line messages.
 * A database that cannot be opened or used (a directory of another user, a full disk, a PostgreSQL
 * out of reach) is an error of the work, exit 1, said the way `loc serve` says it: where, and the
 * engine's or the system's cause.
 *
 * Only with `create` (`loc accounts create`, the first setup) is a missing database created, and
 * then said so on stderr; otherwise a data directory without one, or a PostgreSQL database where loc
 * never ran, is refused and nothing is created, because a mistyped or unset setting would else
 * answer "(none)", or back up an empty database.
 */
export async function withStore(command: Command, work: (store: Store & Partial<BackupCapable>) => Promise<void>, { create = false, refuse }: WithStoreOptions = {}): Promise<void> {
  const settings = operatorSettings(command);
  const refusal = refuse?.(settings);
  if (refusal !== undefined) return fail(command, refusal);
  let store: Store & Partial<BackupCapable>;
  try {
    store = await openOperatorStore(settings, create, ioOf(command));
  } catch (error) {
    if (reportStoreError(command, error, settings, 'open')) return;
    throw error;
  }
  try {
    await work(store);
  } catch (error) {
    // A cap is a state of the account, not a mistake in the command: exit 1, saying how to go past it.
    if (error instanceof OverCap) return fail(command, `${error.message} At the CLI, ${OVER_CAP[0]} goes past it.`);
    if (error instanceof LocError) command.error(`error: ${error.message}`, { exitCode: 2, code: 'loc.usage' });
    if (error instanceof OperatorError || error instanceof StoreConflict) return fail(command, error.message);
    if (reportStoreError(command, error, settings, 'use')) return;
    throw error;
  } finally {
    await store.close();
  }
}

/**
 * The store the environment names, read as `loc serve` reads it, after a warning for each mistyped
 * setting (LOC_DATADIR for LOC_DATA_DIR would have the command act on ./data without a word). A
 * LOC_DATABASE_URL that is no PostgreSQL URL is a usage mistake, exit 2.
 */
export function operatorSettings(command: Command): StoreSettings {
  const { env, stderr } = ioOf(command);
  for (const warning of misspelledSettings(env)) stderr(`${warning}\n`);
  return configured(command, () => loadSettings(env, ['dataDir', 'databaseUrl']));
}

/**
 * The service's public URL as `loc serve` resolves it — LOC_PUBLIC_URL, else localhost on PORT —
 * for links the operator hands to others, with a warning to print beside such a link when it is that
 * fallback, which names this machine. A bad value is a usage mistake, exit 2.
 */
export function operatorPublicUrl(command: Command): { url: string; warning: string | null } {
  const { env } = ioOf(command);
  const url = configured(command, () => loadSettings(env, ['port', 'publicUrl']).publicUrl);
  const name = OPTIONS.publicUrl.env;
  return { url, warning: env[name]?.trim() ? null : `warning: ${name} is not set, so the link names ${url}, as loc serve would; set it to the URL the service is reached at` };
}

/** What `read` makes of the environment; a bad setting is a usage mistake, said in one line, exit 2. */
function configured<T>(command: Command, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) command.error(`error: ${error.message}`, { exitCode: 2 });
    throw error;
  }
}

/**
 * Says in one line (exit 1) what is wrong with the store, for the errors that are the database's
 * or the configuration's rather than a bug; false for the others, which the caller throws.
 */
export function reportStoreError(command: Command, error: unknown, settings: StoreSettings, when: 'open' | 'use'): boolean {
  const place = storePlace(settings);
  if (error instanceof NoDatabase) fail(command, `${error.message}; ${whereToLook(settings, ioOf(command).env)}.`);
  else if (error instanceof StoreUnavailable) fail(command, `cannot ${when} the database in ${place}: ${error.message}`);
  else return false;
  return true;
}

async function openOperatorStore(settings: StoreSettings, create: boolean, io: CliIo): Promise<Store & Partial<BackupCapable>> {
  try {
    return await openStore(settings, { create: false });
  } catch (error) {
    if (!(create && error instanceof NoDatabase)) throw error;
  }
  const store = await openStore(settings);
  io.stderr(
    settings.databaseUrl
      ? `note: created loc's tables in the database ${storePlace(settings)}. If the server uses another database, set ${OPTIONS.databaseUrl.env} to it instead.\n`
      : `note: created a new database in ${settings.dataDir}. If the server already has one, set ${OPTIONS.dataDir.env} to its data directory instead.\n`,
  );
  return store;
}

/** How to point the command at the server's database, said for the engine and for LOC_DATA_DIR set or not. */
function whereToLook(settings: StoreSettings, environment: CliIo['env']): string {
  if (settings.databaseUrl) {
    return `loc never ran on it: set ${OPTIONS.databaseUrl.env} to the server's database (loc accounts create or loc db migrate starts a new one)`;
  }
  const { env, default: fallback } = OPTIONS.dataDir;
  const hint = environment[env]?.trim()
    ? `set ${env} to the server's data directory`
    : `${env} is not set, so ${fallback} was used: set it to the server's data directory`;
  return `${hint} (loc accounts create starts a new database)`;
}

/** Reports an error of the work of `command`: one line on stderr, exit code 1. */
export function fail(command: Command, message: string): void {
  ioOf(command).stderr(`error: ${message}\n`);
  setExitCode(command, 1);
}

/** Parses a positive integer option; commander reports a bad one as a usage error naming the option. */
export function positiveInteger(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new InvalidArgumentError('expected a positive integer.');
  }
  return Number(text);
}

/**
 * A limit as the operator writes it: a positive integer, or `default` to follow the service's default.
 * Not null for `default`: commander turns an option's null into ''.
 */
export function limitOrDefault(text: string): number | 'default' {
  if (text === 'default') return text;
  try {
    return positiveInteger(text);
  } catch {
    throw new InvalidArgumentError('expected a positive integer, or default.');
  }
}

/** A limitOrDefault as the store takes it: null for `default`. */
export const orNull = (value: number | 'default' | undefined): number | null | undefined => (value === 'default' ? null : value);

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Rows as aligned columns under a header; `(none)` when there are no rows. */
export function printTable(io: CliIo, header: string[], table: string[][]): void {
  if (table.length === 0) {
    io.stdout('(none)\n');
    return;
  }
  const rows = table.map((row) => row.map(printable));
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  io.stdout(`${[line(header), ...rows.map(line)].join('\n')}\n`);
}

export const isoDate = (time: number): string => new Date(time).toISOString().slice(0, 19).replace('T', ' ');
