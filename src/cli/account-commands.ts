/**
 * `loc accounts create|list|set-partner`: the operator's accounts. Partners may create embed
 * sessions; every account may resolve, generate and look up with its keys.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Account } from '../store/store.ts';
import { ioOf } from './cli-io.ts';
import { isoDate, printJson, printTable, recordCliChange, requireAccount, withStore } from './operator-io.ts';

/** Account names are typed on command lines: letters, digits, `.`, `_`, `-`, 1 to 64 characters. */
const ACCOUNT_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,63}$/u;

/** Checked as commander parses `--name`: a bad name is refused before a database is opened or created. */
export function accountName(name: string): string {
  if (!ACCOUNT_NAME.test(name)) {
    throw new InvalidArgumentError('account name must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.');
  }
  return name;
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
        const account = await store.createAccount({ name: options.name, partner: options.partner, createdAt: Date.now() });
        await recordCliChange(store, { accountId: account.id, action: 'account.create', target: account.name, details: { partner: account.partner } });
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
        const before = await requireAccount(store, name);
        const account = (await store.setPartner(name, options.on === true))!;
        if (before.partner !== account.partner) await recordCliChange(store, { accountId: account.id, action: account.partner ? 'account.partner_on' : 'account.partner_off', target: account.name });
        if (options.json) printJson(io, account);
        else io.stdout(`Account ${describe(account)}.\n`);
      });
    });
  return accounts;
}
