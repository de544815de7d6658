/**
 * What the operator commands (`loc accounts …`, `loc keys …`) share: the store of `LOC_DATA_DIR`
 * (the server's own, safe to use while it runs), one-line errors, and output as a table or as JSON.
 *
 * Exit codes follow main.ts: a bad argument (an origin that is not one, a CIDR that does not parse)
 * is a usage mistake, exit 2; an account or key that does not exist is an error of the work, exit 1.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { LocError } from '../errors.ts';
import { OPTIONS, misspelledSettings } from '../server/config.ts';
import { printable } from '../printable.ts';
import { openStore } from '../store/open-store.ts';
import { NoDatabase, StoreConflict, StoreUnavailable, type Account, type BackupCapable, type Store } from '../store/store.ts';

/** An error of the work (not of usage): printed as one line, exit 1. */
export class OperatorError extends Error {
  override readonly name = 'OperatorError';
}

/** The account named `name`, or an OperatorError that says none is and where to look. */
export async function requireAccount(store: Store, name: string): Promise<Account> {
  const account = await store.findAccount(name);
  if (account === null) throw new OperatorError(`No account is named ${JSON.stringify(name)}; see loc accounts list.`);
  return account;
}

/**
 * Runs `work` against the store of LOC_DATA_DIR and closes it; maps errors onto one-line messages.
 * A database that cannot be opened or used (a directory of another user, a full disk) is an error of
 * the work, exit 1, said the way `loc serve` says it: where, and SQLite's or the system's cause.
 *
 * Only with `create` (`loc accounts create`, the first setup) is a missing database created, and
 * then said so on stderr; otherwise a data directory without one is refused and nothing is created,
 * because a mistyped or unset LOC_DATA_DIR would else answer "(none)", or back up an empty database.
 */
export async function withStore(command: Command, work: (store: Store & Partial<BackupCapable>) => Promise<void>, { create = false } = {}): Promise<void> {
  // LOC_DATADIR for LOC_DATA_DIR would have the command act on ./data without a word.
  for (const warning of misspelledSettings(process.env)) process.stderr.write(`${warning}\n`);
  // The operator commands work on SQLite only for now (#19): on a server's PostgreSQL they would
  // else act on ./data without a word, and the operator believe a key made or disabled.
  if (process.env[OPTIONS.databaseUrl.env]?.trim()) {
    return fail(`${OPTIONS.databaseUrl.env} is set: the operator commands do not work on PostgreSQL yet, only on the SQLite database of ${OPTIONS.dataDir.env}; unset ${OPTIONS.databaseUrl.env} to use that one.`);
  }
  const dataDir = operatorDataDir();
  let store: Store & Partial<BackupCapable>;
  try {
    store = await openOperatorStore(dataDir, create);
  } catch (error) {
    if (error instanceof NoDatabase) return fail(`${error.message}; ${whereToLook()} (loc accounts create starts a new database).`);
    if (error instanceof StoreUnavailable) return fail(`cannot open the database in ${dataDir}: ${error.message}`);
    throw error;
  }
  try {
    await work(store);
  } catch (error) {
    if (error instanceof LocError) command.error(`error: ${error.message}`, { exitCode: 2, code: 'loc.usage' });
    if (error instanceof OperatorError || error instanceof StoreConflict) return fail(error.message);
    if (error instanceof StoreUnavailable) return fail(`cannot use the database in ${dataDir}: ${error.message}`);
    throw error;
  } finally {
    await store.close();
  }
}

async function openOperatorStore(dataDir: string, create: boolean): Promise<Store & Partial<BackupCapable>> {
  try {
    return await openStore({ dataDir }, { create: false });
  } catch (error) {
    if (!(create && error instanceof NoDatabase)) throw error;
  }
  const store = await openStore({ dataDir });
  process.stderr.write(`note: created a new database in ${dataDir}. If the server already has one, set ${OPTIONS.dataDir.env} to its data directory instead.\n`);
  return store;
}

/** How to point the command at the server's database, said for LOC_DATA_DIR set or not. */
function whereToLook(): string {
  const { env, default: fallback } = OPTIONS.dataDir;
  return process.env[env]?.trim()
    ? `set ${env} to the server's data directory`
    : `${env} is not set, so ${fallback} was used: set it to the server's data directory`;
}

/** Reports an error of the work: one line on stderr, exit code 1. */
function fail(message: string): void {
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = 1;
}

/** The data directory of LOC_DATA_DIR (the server's own), resolved as the server resolves it. */
function operatorDataDir(): string {
  const { env, default: fallback, parse } = OPTIONS.dataDir;
  return parse(process.env[env]?.trim() || fallback, {}, process.env, env);
}

/** For repeatable options: `--origin a --origin b`. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Parses a positive integer option; commander reports a bad one as a usage error naming the option. */
export function positiveInteger(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new InvalidArgumentError('expected a positive integer.');
  }
  return Number(text);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Rows as aligned columns under a header; `(none)` when there are no rows. */
export function printTable(header: string[], table: string[][]): void {
  if (table.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const rows = table.map((row) => row.map(printable));
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  process.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
}

export const isoDate = (time: number): string => new Date(time).toISOString().slice(0, 19).replace('T', ' ');
