/**
 * `loc db migrate|copy-from-sqlite`: the database itself rather than what is in it. `migrate` brings
 * the configured database to this loc's schema, as `loc serve` does at start, so that it can be done
 * (and seen done) before a rolling deploy; `copy-from-sqlite` moves a SQLite data directory into
 * PostgreSQL once, when a service outgrows one process.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { OPTIONS } from '../server/config.ts';
import { runningServer } from '../server/process/server-lock.ts';
import { openStore, storePlace } from '../store/open-store.ts';
import { latestSchemaVersion, schemaVersion } from './schema-version.ts';
import { NoDatabase, StoreUnavailable } from '../store/store.ts';
import { ioOf } from './cli-io.ts';
import { fail, operatorSettings, printJson, reportStoreError } from './operator-io.ts';

export function registerDbCommands(program: Command): void {
  const db = program.command('db').description('the database itself: its schema, a move from SQLite to PostgreSQL');

  db
    .command('migrate')
    .description('bring the database of LOC_DATABASE_URL, else of LOC_DATA_DIR, to this loc\'s schema (creating it if new); safe while servers run')
    .option('--json', 'print the versions before and after as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const settings = operatorSettings(command);
      const io = ioOf(command);
      try {
        // Read apart from the migration, which says nothing: another process may migrate in between,
        // and then this one reports the work as its own — the database is at `after` either way.
        const before = await schemaVersion(settings);
        await (await openStore(settings)).close();
        const after = await schemaVersion(settings);
        const latest = latestSchemaVersion(settings);
        const place = storePlace(settings);
        if (options.json) printJson(io, { database: place, before, after, latest });
        else if (before === 0) io.stdout(`schema none → ${after}: created loc's tables in ${place}\n`);
        else if (before < after) io.stdout(`schema ${before} → ${after}: migrated ${place}\n`);
        else if (after > latest) io.stdout(`schema ${after}: newer than this loc's ${latest}, which still runs on it; nothing to do in ${place}\n`);
        else io.stdout(`schema ${after}: up to date, ${place}\n`);
      } catch (error) {
        if (!reportStoreError(command, error, settings, 'open')) throw error;
      }
    });

  db
    .command('copy-from-sqlite')
    .description('copy the SQLite data directory DIR into the empty PostgreSQL database of LOC_DATABASE_URL, once, in one transaction (stop the SQLite server first)')
    .argument('<dir>', 'the SQLite data directory (its loc.db), e.g. ./data')
    .option('--json', 'print the rows copied per table as JSON')
    .action(async (dir: string, options: { json?: boolean }, command: Command) => {
      const settings = operatorSettings(command);
      if (!settings.databaseUrl) {
        return fail(command, `${OPTIONS.databaseUrl.env} is not set: set it to the PostgreSQL database to copy ${resolve(dir)} into`);
      }
      const source = resolve(dir);
      // What the server wrote after the copy would be left behind in SQLite, unseen.
      const pid = runningServer(source);
      if (pid !== null) return fail(command, `a loc server (pid ${pid}) is running on ${source}: stop it first, so that nothing is written there after the copy`);
      // Loaded only here: the copy brings the PostgreSQL driver with it.
      const { CannotCopy, copySqliteToPostgres } = await import('./copy-sqlite-to-postgres.ts');
      let report;
      try {
        report = await copySqliteToPostgres(source, settings.databaseUrl);
      } catch (error) {
        if (error instanceof CannotCopy) return fail(command, error.message);
        if (error instanceof NoDatabase) return fail(command, `${error.message}: give the data directory of the SQLite server`);
        if (error instanceof StoreUnavailable) return fail(command, `cannot use the database in ${storePlace(settings)}: ${error.message}; nothing was copied`);
        throw error;
      }
      const io = ioOf(command);
      if (options.json) {
        printJson(io, report);
        return;
      }
      const width = Math.max(...Object.keys(report.rows).map((table) => table.length));
      io.stdout(`Copied ${report.from} into ${report.to}, in one transaction:\n`);
      for (const [table, rows] of Object.entries(report.rows)) io.stdout(`  ${table.padEnd(width)}  ${rows}\n`);
    });
}
