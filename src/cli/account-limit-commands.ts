/**
 * `loc accounts limits`: the ceiling of an account's keys' limits, as far as the panel's users may set
 * a key's limits. Without one it is the service's default limits (LOC_DEFAULT_…); the operator raises
 * or lowers it here, and may still set one key past it with `loc keys set-limit`.
 */
import type { Command } from 'commander';
import { KEY_LIMITS } from '../auth/keys.ts';
import { setAccountLimits } from '../operations/account-limits.ts';
import { OPTIONS } from '../server/config.ts';
import type { Account, KeyLimits } from '../store/store.ts';
import { ioOf, type CliIo } from './cli-io.ts';
import { cliContext, limitOrDefault, orNull, printJson, requireAccount, withStore } from './operator-io.ts';

type LimitOptions = { [K in keyof KeyLimits]?: number | 'default' };

/** Prints the ceiling: a line for people, its three numbers (null: the default) for scripts. */
function printCeiling(io: CliIo, account: Account, ceiling: KeyLimits, json: boolean | undefined): void {
  if (json) return printJson(io, ceiling);
  const parts = (Object.entries(KEY_LIMITS) as [keyof KeyLimits, (typeof KEY_LIMITS)[keyof KeyLimits]][])
    .map(([name, { words, setting }]) => `${words}: ${ceiling[name] ?? `the default (${OPTIONS[setting].env})`}`);
  io.stdout(`Ceiling of the keys' limits of ${account.name} (${account.id}), as far as the panel sets them: ${parts.join('; ')}.\n`);
}

/** Registers `loc accounts limits` on the `accounts` command (account-commands.ts). */
export function registerAccountLimitCommands(accounts: Command): void {
  accounts
    .command('limits')
    .description("show or set the ceiling of the account's keys' limits: the panel sets a key's limits up to it (default: the service's default limits)")
    .argument('<name>', 'account name')
    .option('--hourly-limit <n|default>', 'the most calls per hour a key itself may be given in the panel', limitOrDefault)
    .option('--embed-hourly-limit <n|default>', "the most calls per hour a key's embed sessions may be given in the panel", limitOrDefault)
    .option('--session-limit <n|default>', 'the most calls per embed session a key may be given in the panel', limitOrDefault)
    .option('--default', 'the ceiling is the service’s default limits again, all three')
    .option('--json', 'print the ceiling afterwards as JSON (null: the default)')
    .action(async (name: string, options: LimitOptions & { default?: boolean; json?: boolean }, command: Command) => {
      const given = (Object.keys(KEY_LIMITS) as (keyof KeyLimits)[]).filter((limit) => options[limit] !== undefined);
      if (options.default && given.length > 0) command.error('error: give either --default or the limits to set, not both', { exitCode: 2 });
      const limits: Partial<KeyLimits> = options.default
        ? { hourlyLimit: null, embedHourlyLimit: null, sessionLimit: null }
        : Object.fromEntries(given.map((limit) => [limit, orNull(options[limit])]));
      await withStore(command, async (store) => {
        const account = await requireAccount(store, name);
        const ceiling = Object.keys(limits).length === 0 ? await store.accountLimits(account.id) : (await setAccountLimits(cliContext(store), account, limits)).after;
        printCeiling(ioOf(command), account, ceiling!, options.json);
      });
    });
}
