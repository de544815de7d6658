/**
 * `loc keys …`: API keys of an account. A new key is printed once and only its hash is stored;
 * listings never show a secret. Changes reach a running server within a second (its key cache,
 * plugins/store.ts). Every command that changes a key prints it afterwards, as a line or, with
 * `--json`, as `loc keys list --json` shows a key, for scripts.
 */
import type { Command } from 'commander';
import { KEY_LIMITS } from '../auth/keys.ts';
import { originProblem } from '../auth/origin.ts';
import { addToKeyList, createKey, removeFromKeyList, setKeyLimits, setKeyStatus } from '../operations/keys.ts';
import { printable } from '../printable.ts';
import { OPTIONS } from '../server/config.ts';
import type { ApiKey, KeyLimits, KeyList } from '../store/store.ts';
import { collect, ioOf, type CliIo } from './cli-io.ts';
import {
  OVER_CAP, OperatorError, cliContext, isoDate, limitOrDefault, operatorCaps, orNull, positiveInteger, printJson, printTable, requireAccount, withStore,
} from './operator-io.ts';

/** The key, or the error of a key id that names none. */
export function found<T>(key: T | null, id: string): T {
  if (key === null) throw new OperatorError(`No API key has the id ${JSON.stringify(id)}; see loc keys list --account NAME.`);
  return key;
}

/** Prints a key after a change: a summary line for people, the key's JSON for scripts. */
export function printKey(io: CliIo, key: ApiKey, json: boolean | undefined): void {
  if (json) printJson(io, key);
  else io.stdout(`API key ${summary(key)}.\n`);
}

export const JSON_KEY = 'print the key afterwards as JSON';

/**
 * Warns, on stderr, of each origin of `key` that the embed no longer accepts (stored under older
 * rules): sessions for it are refused, so it only needs removing.
 */
function warnOfRefusedOrigins(io: CliIo, key: ApiKey): void {
  for (const origin of key.origins) {
    const problem = originProblem(origin);
    if (problem === null) continue;
    io.stderr(
      `warning: API key ${key.id} has the origin ${printable(origin)}, for which sessions are refused: an origin ${problem} ` +
        `Remove it with: loc keys origins remove ${key.id} ${printable(origin)}\n`,
    );
  }
}

/** A key in one line: id, mode, status, origins, ranges and limits. */
export const summary = (key: ApiKey): string =>
  `${key.id} (${key.mode === 'test' ? 'test, ' : ''}${key.status}) origins: ${key.origins.join(', ') || 'none'}; IP ranges: ${key.ipRanges.join(', ') || 'any'}; ` +
  (Object.entries(KEY_LIMITS) as [keyof KeyLimits, (typeof KEY_LIMITS)[keyof KeyLimits]][])
    .map(([name, { words, setting }]) => `${words}: ${key[name] ?? `the default (${OPTIONS[setting].env})`}`)
    .join('; ');

/** Registers `loc keys …`; returns the `keys` command, for the modules that add to it. */
export function registerKeyCommands(program: Command): Command {
  const keys = program.command('keys').description('manage API keys (acts on the database of LOC_DATABASE_URL, else of LOC_DATA_DIR)');
  createCommand(keys);
  listCommand(keys);
  showCommand(keys);
  statusCommands(keys);
  setLimitCommand(keys);
  listCommands(keys, { name: 'origins', list: 'origins', value: 'origin', noun: 'origin', doc: 'an origin, e.g. https://shop.example' });
  listCommands(keys, { name: 'ips', list: 'ipRanges', value: 'cidr', noun: 'IP range', doc: 'an IP address or CIDR range' });
  return keys;
}

type CreateOptions = { account: string; origin: string[]; ip: string[]; label?: string; test?: boolean; json?: boolean; overCap?: boolean } & Partial<KeyLimits>;

/** `loc keys create`: a new key, its secret printed once. */
function createCommand(keys: Command): void {
  keys
    .command('create')
    .description('create an API key and print it once')
    .requiredOption('--account <name>', 'the account that owns the key')
    .option('--origin <origin>', 'an origin allowed to embed (repeatable), e.g. https://shop.example', collect, [])
    .option('--ip <cidr>', 'an IP range the key may be used from (repeatable), e.g. 203.0.113.0/24', collect, [])
    .option('--hourly-limit <n>', 'calls per hour made with the key itself (default: LOC_DEFAULT_HOURLY_LIMIT)', positiveInteger)
    .option('--embed-hourly-limit <n>', "calls per hour made with the key's embed sessions, all together (default: LOC_DEFAULT_EMBED_HOURLY_LIMIT)", positiveInteger)
    .option('--session-limit <n>', 'calls one embed session may make over its life (default: LOC_DEFAULT_SESSION_LIMIT)', positiveInteger)
    .option('--label <text>', 'a note for the operator, e.g. "production"')
    .option('--test', 'a test key (loc_test_…): the same API and embed, its saves kept apart from live data (loc test-data wipe)')
    .option(...OVER_CAP)
    .option('--json', 'print the key and its secret as JSON')
    .action(async (options: CreateOptions, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const { key, secret } = await createKey(cliContext(store, operatorCaps(command, options.overCap)), {
          accountId: (await requireAccount(store, options.account)).id, mode: options.test ? 'test' : 'live', origins: options.origin, ipRanges: options.ip,
          hourlyLimit: options.hourlyLimit, embedHourlyLimit: options.embedHourlyLimit, sessionLimit: options.sessionLimit,
          label: options.label ?? null,
        });
        if (options.json) {
          printJson(io, { key, api_key: secret });
          return;
        }
        io.stdout(`Created API key ${summary(key)}.\n`);
        io.stdout(`Secret (shown this once; only its hash is stored):\n${secret}\n`);
      });
    });
}

/** `loc keys list`: an account's keys, never their secrets. */
function listCommand(keys: Command): void {
  keys
    .command('list')
    .description("list an account's keys (never their secrets)")
    .requiredOption('--account <name>', 'account name')
    .option('--json', 'print the keys as JSON')
    .action(async (options: { account: string; json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const list = await store.listKeys((await requireAccount(store, options.account)).id);
        if (options.json) printJson(io, list);
        else {
          const limit = (value: number | null) => (value === null ? 'default' : String(value));
          printTable(
            io,
            ['ID', 'MODE', 'STATUS', 'LABEL', 'ORIGINS', 'IP RANGES', 'HOURLY LIMIT', 'EMBED HOURLY', 'PER SESSION', 'CREATED (UTC)'],
            list.map((k) => [
              k.id, k.mode, k.status, k.label ?? '', k.origins.join(',') || '-', k.ipRanges.join(',') || 'any', limit(k.hourlyLimit),
              limit(k.embedHourlyLimit), limit(k.sessionLimit), isoDate(k.createdAt),
            ]),
          );
        }
        for (const key of list) warnOfRefusedOrigins(io, key);
      });
    });
}

/** `loc keys show`: one key and its account. */
function showCommand(keys: Command): void {
  // A log line names a key by its id only ("hourly limit reached", the request lines): this finds
  // its account and restrictions without knowing the account first.
  keys
    .command('show')
    .description('show one key and the account it belongs to (never its secret)')
    .argument('<key-id>', 'the key id, key_…')
    .option('--json', 'print the key as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const key = found(await store.getKey(id), id);
        if (options.json) printJson(io, key);
        else {
          const account = await store.getAccount(key.accountId);
          io.stdout(`API key ${summary(key)}; label: ${key.label === null ? 'none' : printable(key.label)}; created ${isoDate(key.createdAt)} UTC.\n`);
          io.stdout(`Account: ${account === null ? key.accountId : `${account.name} (${account.id}), partner: ${account.partner ? 'yes' : 'no'}`}.\n`);
        }
        warnOfRefusedOrigins(io, key);
      });
    });
}

/** `loc keys disable|enable`. */
function statusCommands(keys: Command): void {
  for (const [name, status, what] of [
    ['disable', 'disabled', 'refuse the key (and its embed sessions); a running server follows within a second'],
    ['enable', 'active', 'accept the key again; a running server follows within a second'],
  ] as const) {
    const statusCommand = keys.command(name).description(what).argument('<key-id>', 'the key id, key_…');
    // Only enabling can take the account past its cap of active keys.
    if (status === 'active') statusCommand.option(...OVER_CAP);
    statusCommand
      .option('--json', JSON_KEY)
      .action(async (id: string, options: { json?: boolean; overCap?: boolean }, command: Command) => {
        const caps = status === 'active' ? operatorCaps(command, options.overCap) : undefined;
        await withStore(command, async (store) => {
          printKey(ioOf(command), found(await setKeyStatus(cliContext(store, caps), id, status), id).after, options.json);
        });
      });
  }
}

/** `loc keys set-limit`: a key's own limits, or the service's defaults again. */
function setLimitCommand(keys: Command): void {
  keys
    .command('set-limit')
    .description("change a key's limits; a running server applies them within a second, to what it has counted already")
    .argument('<key-id>', 'the key id, key_…')
    .argument('[n]', 'calls per hour made with the key itself', positiveInteger)
    .option('--default', 'the key itself follows LOC_DEFAULT_HOURLY_LIMIT again')
    .option('--embed-hourly-limit <n|default>', "calls per hour made with the key's embed sessions, all together", limitOrDefault)
    .option('--session-limit <n|default>', 'calls one embed session may make over its life', limitOrDefault)
    .option('--json', JSON_KEY)
    .action(async (
      id: string,
      hourly: number | undefined,
      options: { default?: boolean; json?: boolean; embedHourlyLimit?: number | 'default'; sessionLimit?: number | 'default' },
      command: Command,
    ) => {
      if (hourly !== undefined && options.default) command.error('error: give either a number of calls per hour or --default, not both', { exitCode: 2 });
      const limits: Partial<KeyLimits> = { embedHourlyLimit: orNull(options.embedHourlyLimit), sessionLimit: orNull(options.sessionLimit) };
      if (hourly !== undefined || options.default) limits.hourlyLimit = hourly ?? null;
      if (Object.values(limits).every((value) => value === undefined)) {
        command.error('error: give a number of calls per hour, --default, --embed-hourly-limit or --session-limit', { exitCode: 2 });
      }
      await withStore(command, async (store) => {
        printKey(ioOf(command), found(await setKeyLimits(cliContext(store), id, limits), id).after, options.json);
      });
    });
}

interface ListCommands {
  /** The subcommand: `loc keys <name> add|remove`. */
  name: string;
  list: KeyList;
  /** The value's argument name in --help. */
  value: string;
  /** One value, in messages. */
  noun: string;
  doc: string;
}

/** `loc keys <name> add|remove KEY_ID VALUE` for one list of a key. */
function listCommands(keys: Command, { name, list, value, noun, doc }: ListCommands): void {
  const group = keys.command(name).description(`add or remove ${name === 'ips' ? 'IP ranges' : 'allowed origins'} of a key`);
  for (const action of ['add', 'remove'] as const) {
    const listCommand = group.command(action).description(`${action} ${doc}`).argument('<key-id>', 'the key id, key_…').argument(`<${value}>`, doc);
    if (action === 'add') listCommand.option(...OVER_CAP);
    listCommand
      .option('--json', JSON_KEY)
      .action(async (id: string, text: string, options: { json?: boolean; overCap?: boolean }, command: Command) => {
        const io = ioOf(command);
        const caps = action === 'add' ? operatorCaps(command, options.overCap) : undefined;
        await withStore(command, async (store) => {
          const change = action === 'add' ? addToKeyList : removeFromKeyList;
          const done = found(await change(cliContext(store, caps), { keyId: id, list, value: text }), id);
          const values = done.after[list];
          // A value that is not there is a mistake to report, not a success that changed nothing.
          if (action === 'remove' && values.length === done.before[list].length) {
            throw new OperatorError(`The ${noun} ${done.value} is not on the API key ${id}; it has ${values.length === 0 ? 'none' : values.join(', ')}.`);
          }
          printKey(io, done.after, options.json);
          // No ranges is no restriction: the key is open to every address, which must not go unnoticed.
          if (action === 'remove' && list === 'ipRanges' && values.length === 0) {
            io.stderr(`warning: API key ${id} has no IP ranges left and now accepts requests from any IP address.\n`);
          }
        });
      });
  }
}
