/**
 * `loc backup <file>`: a consistent copy of the database of LOC_DATA_DIR, safe while the server runs
 * (SQLite's online backup), which appears at `<file>` only once complete. Restore by stopping the
 * server and putting the copy in place as loc.db. A PostgreSQL database (LOC_DATABASE_URL) is refused:
 * its own tools back it up, restore it, and know its roles and replicas, which a copy made by loc would not.
 */
import type { Command } from 'commander';
import { closeSync, existsSync, linkSync, openSync, renameSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { urlWithoutPassword } from '../store/database-url.ts';
import type { StoreSettings } from '../store/open-store.ts';
import { StoreUnavailable, canBackUp } from '../store/store.ts';
import { ioOf } from './cli-io.ts';
import { OperatorError, withStore } from './operator-io.ts';

/** The refusal on PostgreSQL, with a pg_dump line to copy: quoted for the shell, without the password. */
function useOwnTools({ databaseUrl }: StoreSettings): string | undefined {
  if (!databaseUrl) return undefined;
  const quoted = `'${urlWithoutPassword(databaseUrl).replaceAll("'", "'\\''")}'`;
  return `LOC_DATABASE_URL is set: loc backup copies SQLite databases only; back PostgreSQL up with its own tools, e.g. pg_dump --format=custom --file=loc.dump ${quoted} (restore with pg_restore)`;
}

/**
 * Why the copy cannot be created at `target`, for the errors that are the argument's fault (exit 2);
 * undefined for the others (a full disk, an I/O error), which are errors of the work (exit 1).
 */
function targetFault(code: string | undefined, target: string): string | undefined {
  const directory = dirname(target);
  switch (code) {
    case 'EEXIST': return `${target} exists; give a new file name`;
    // ENOENT also comes from file systems that take no new files (/proc): then the directory is there.
    case 'ENOENT': return existsSync(directory) ? undefined : `cannot create ${target}: the directory ${directory} does not exist`;
    case 'ENOTDIR': return `cannot create ${target}: ${directory} is not a directory`;
    case 'EACCES': case 'EPERM': return `cannot create ${target}: permission denied`;
    default: return undefined;
  }
}

/**
 * Gives the complete copy at `partial` the name `target`, never over an existing file: a hard link,
 * which fails if `target` exists. A file system without hard links (FAT, some network shares; the
 * partial file was made in this directory, so EPERM there is not a permission) gets a rename after
 * one more look instead. `link` is there for the test of that fallback, as no such file system is at hand.
 */
export function publish(partial: string, target: string, link: (from: string, to: string) => void = linkSync): void {
  try {
    link(partial, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!(code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') || existsSync(target)) throw error;
  }
  renameSync(partial, target);
}

export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description('copy the SQLite database of LOC_DATA_DIR to a file, consistently, also while the server runs (PostgreSQL: use pg_dump)')
    .argument('<file>', 'where to write the copy (must not exist)')
    .action(async (file: string, _options: unknown, command: Command) => {
      const target = resolve(file);
      // better-sqlite3 trims the name it is given: the copy would land beside the file made here.
      if (target !== target.trim()) command.error(`error: ${JSON.stringify(file)} ends in white space; give another file name`, { exitCode: 2 });
      await withStore(command, async (store) => {
        if (!canBackUp(store)) throw new OperatorError('this database engine makes no backups through loc; use its own backup tools');
        if (existsSync(target)) return command.error(`error: ${targetFault('EEXIST', target)}`, { exitCode: 2 });
        // The copy is written under another name beside `target` and linked to it once complete: a
        // backup cut short — Ctrl-C, a full disk — never leaves at `target` a file that passes for one
        // (restored, a truncated copy is a damaged database). The link fails if `target` appeared
        // meanwhile, so an existing file is still never written over.
        const partial = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
        let created = false;
        // With the journal SQLite keeps beside a file it writes: Ctrl-C leaves it there too.
        const removePartial = () => {
          if (created) for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
        };
        // Set before the partial file exists: a signal with no handler would end the process at once.
        const interrupted = (signal: NodeJS.Signals) => {
          removePartial();
          process.exit(128 + constants.signals[signal]);
        };
        process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
        try {
          // The copy holds key hashes and saved labels: made here first, owner-only (0600) like the data
          // directory (0700), and exclusively. SQLite keeps the mode of a file it writes into.
          let descriptor: number;
          try {
            descriptor = openSync(partial, 'wx', 0o600);
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            const fault = code === 'EEXIST' ? undefined : targetFault(code, target);
            if (fault !== undefined) return command.error(`error: ${fault}`, { exitCode: 2 });
            throw new OperatorError(`cannot create ${partial}: ${(error as Error).message}`);
          }
          created = true;
          closeSync(descriptor);
          try {
            await store.backup(partial);
          } catch (error) {
            // Reading the database or writing the copy: either way, it is the backup that failed.
            if (error instanceof StoreUnavailable) throw new OperatorError(`the backup to ${target} failed: ${error.message}`);
            throw error;
          }
          try {
            publish(partial, target);
          } catch (error) {
            const fault = targetFault((error as NodeJS.ErrnoException).code, target);
            if (fault !== undefined) return command.error(`error: ${fault}`, { exitCode: 2 });
            throw new OperatorError(`cannot create ${target}: ${(error as Error).message}`);
          }
        } finally {
          removePartial();
          process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
        }
        ioOf(command).stdout(`Backed up the database to ${target}.\n`);
      }, { refuse: useOwnTools });
    });
}
