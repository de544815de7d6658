/**
 * `loc backup <file>`: a consistent copy of the database of LOC_DATA_DIR, safe while the server runs
 * (SQLite's online backup). Restore by stopping the server and putting the copy in place as loc.db.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { withStore } from './operator-io.ts';

export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description('copy the database of LOC_DATA_DIR to a file, consistently, also while the server runs')
    .argument('<file>', 'where to write the copy (must not exist)')
    .action(async (file: string, _options: unknown, command: Command) => {
      const target = resolve(file);
      if (existsSync(target)) command.error(`error: ${target} exists; give a new file name`, { exitCode: 2 });
      await withStore(command, async (store) => {
        await store.backup(target);
        process.stdout.write(`Backed up the database to ${target}.\n`);
      });
    });
}
