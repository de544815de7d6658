/**
 * `loc test-data wipe --account NAME`: forgets every location the account's test keys saved, in one
 * command, so that a CI run can start from nothing. Live locations are never touched; the test keys
 * themselves stay.
 */
import type { Command } from 'commander';
import { ioOf } from './cli-io.ts';
import { wipeTestData } from '../operations/accounts.ts';
import { cliContext, printJson, requireAccount, withStore } from './operator-io.ts';

export function registerTestDataCommand(program: Command): void {
  const testData = program.command('test-data').description("what an account's test keys saved (acts on the database of LOC_DATABASE_URL, else of LOC_DATA_DIR)");
  testData
    .command('wipe')
    .description("forget every location the account's test keys saved; live data stays")
    .requiredOption('--account <name>', 'account name')
    .option('--json', 'print the count as JSON')
    .action(async (options: { account: string; json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const account = await requireAccount(store, options.account);
        const wiped = await wipeTestData(cliContext(store), account);
        if (options.json) printJson(io, { account: account.name, wiped_locations: wiped });
        else io.stdout(`Wiped ${wiped} test location${wiped === 1 ? '' : 's'} of ${account.name}; live data is untouched.\n`);
      });
    });
}
