/**
 * `loc backup <file>`: a consistent copy of the database of LOC_DATA_DIR, safe while the server runs
 * (SQLite's online backup). Restore by stopping the server and putting the copy in place as loc.db.
 */
import type { Command } from 'commander';
import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StoreUnavailable } from '../store/store.ts';
import { OperatorError, withStore } from './operator-io.ts';

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

export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description('copy the database of LOC_DATA_DIR to a file, consistently, also while the server runs')
    .argument('<file>', 'where to write the copy (must not exist)')
    .action(async (file: string, _options: unknown, command: Command) => {
      const target = resolve(file);
      // better-sqlite3 trims the name it is given: the copy would land beside the file made here.
      if (target !== target.trim()) command.error(`error: ${JSON.stringify(file)} ends in white space; give another file name`, { exitCode: 2 });
      await withStore(command, async (store) => {
        // The copy holds key hashes and saved labels: made here first, owner-only (0600) like the data
        // directory (0700), and exclusively, so an existing file is never written over. SQLite keeps the
        // mode of a file it writes into.
        let descriptor: number;
        try {
          descriptor = openSync(target, 'wx', 0o600);
        } catch (error) {
          const fault = targetFault((error as NodeJS.ErrnoException).code, target);
          if (fault !== undefined) return command.error(`error: ${fault}`, { exitCode: 2 });
          throw new OperatorError(`cannot create ${target}: ${(error as Error).message}`);
        }
        closeSync(descriptor);
        try {
          await store.backup(target);
        } catch (error) {
          // A half-written or empty file must not pass for a backup.
          rmSync(target, { force: true });
          // Reading the database or writing the copy: either way, it is the backup that failed.
          if (error instanceof StoreUnavailable) throw new OperatorError(`the backup to ${target} failed: ${error.message}`);
          throw error;
        }
        process.stdout.write(`Backed up the database to ${target}.\n`);
      });
    });
}
