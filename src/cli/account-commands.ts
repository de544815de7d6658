/**
 * `loc accounts create|list|set-partner`: the operator's accounts. Partners may create embed
 * sessions; every account may resolve, generate and look up with its keys.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { LocError } from '../errors.ts';
import { checkAccountName, createAccount, setPartner } from '../operations/accounts.ts';
import type { Account } from '../store/store.ts';
import { ioOf } from './cli-io.ts';
import { cliContext, noSuchAccount, isoDate, printJson, printTable, withStore } from './operator-io.ts';

/** Checked as commander parses `--name`: a bad name is refused before a database is opened or created. */
export function accountName(name: string): string {
  try {
    return checkAccountName(name);
  } catch (error) {
    if (error instanceof LocError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

const describe = (account: Account): string => `${account.name} (${account.id}), partner: ${account.partner ? 'yes' : 'no'}`;

/** Registers `loc accounts …`; returns the `accounts` command, for the modules that add to it. */
export function registerAccountCommands(program: Command): Command {
  const accounts = program.command('accounts').description('manage accounts (acts on the database of LOC_DATABASE_URL, else of LOC_DATA_DIR)');

  accounts
    .command('create')
    .description('create an account')
    .requiredOption('--name <name>', 'unique account name', accountName)
    .option('--partner', 'make it a partner (may create embed sessions)', false)
    .option('--json', 'print the account as JSON')
    .action(async (options: { name: string; partner: boolean; json?: boolean }, command: Command) => {
      const io = ioOf(command);
      // The one command that may create the database: the first setup, before the server first starts.
      await withStore(command, async (store) => {
        const account = await createAccount(cliContext(store), { name: options.name, partner: options.partner });
        if (options.json) printJson(io, account);
        else io.stdout(`Created account ${describe(account)}.\n`);
      }, { create: true });
    });

  accounts
    .command('list')
    .description('list accounts')
    .option('--json', 'print the accounts as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const list = await store.listAccounts();
        if (options.json) printJson(io, list);
        else printTable(io, ['NAME', 'ID', 'PARTNER', 'CREATED (UTC)'], list.map((a) => [a.name, a.id, a.partner ? 'yes' : 'no', isoDate(a.createdAt)]));
      });
    });

  accounts
    .command('set-partner')
    .description('turn partner status on or off')
    .argument('<name>', 'account name')
    .option('--on', 'make the account a partner')
    .option('--off', 'take partner status away: no new embed sessions, and its open ones stop')
    .option('--json', 'print the account afterwards as JSON')
    .action(async (name: string, options: { on?: boolean; off?: boolean; json?: boolean }, command: Command) => {
      if (options.on === options.off) command.error('error: give exactly one of --on or --off', { exitCode: 2 });
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const updated = await setPartner(cliContext(store), name, options.on === true);
        if (updated === null) throw noSuchAccount(name);
        const account = updated.after;
        if (options.json) printJson(io, account);
        else io.stdout(`Account ${describe(account)}.\n`);
      });
    });
  return accounts;
}
