/**
 * `loc accounts invite` and `loc users list|recover|remove|set-operator`: the people who sign in to the
 * partner panel. An invitation or a recovery is a one-time link (panel/invitations.ts), printed once
 * for the operator to hand over — no mail leaves the service — and stored as its hash only. Operator
 * status is granted here alone, never in the panel.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { LocError } from '../errors.ts';
import { normalizeEmail, type IssuedLink } from '../auth/panel-links.ts';
import { inviteUser, recoverUser, removeUser, setOperator } from '../operations/users.ts';
import { printable } from '../printable.ts';
import type { User } from '../store/panel-store.ts';
import type { Account, Store } from '../store/store.ts';
import { ioOf, type CliIo } from './cli-io.ts';
import { registerHeldCommands } from './held-commands.ts';
import { OVER_CAP, OperatorError, cliContext, isoDate, operatorCaps, operatorPublicUrl, printJson, printTable, requireAccount, withStore } from './operator-io.ts';

/** Checked as commander parses it: a malformed address is a usage mistake, refused before a database is opened. */
function emailArgument(text: string): string {
  try {
    return normalizeEmail(text);
  } catch (error) {
    if (error instanceof LocError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

const status = (user: User): 'invited' | 'active' => (user.activatedAt === null ? 'invited' : 'active');

/** A user as the commands show it: never the password's hash. */
const shown = (user: User, account: Account) => ({
  id: user.id, email: user.email, account: account.name, accountId: account.id, operator: user.operator, status: status(user),
  createdAt: user.createdAt, activatedAt: user.activatedAt,
});

const describe = (user: User, account: Account): string =>
  `${printable(user.email)} (${user.id}) of ${account.name}, operator: ${user.operator ? 'yes' : 'no'}, ${status(user)}`;

/** Prints a link made for `user`: a line for people, or `{ user, link }` for scripts; `warning` on stderr. */
function printLink(io: CliIo, user: User, account: Account, link: IssuedLink, warning: string | null, json: boolean | undefined, what: string): void {
  if (warning !== null) io.stderr(`${warning}\n`);
  if (json) {
    printJson(io, { user: shown(user, account), link: { url: link.url, expires_at: new Date(link.expiresAt).toISOString() } });
    return;
  }
  io.stdout(`${what} ${describe(user, account)}.\n`);
  io.stdout(`One-time link, until ${isoDate(link.expiresAt)} UTC (shown this once; only its hash is stored):\n${link.url}\n`);
}

const noSuchUser = (email: string): OperatorError => new OperatorError(`No user has the e-mail address ${JSON.stringify(email)}; see loc users list.`);

async function requireUser(store: Store, email: string): Promise<User> {
  const user = await store.panel.findUserByEmail(email);
  if (user === null) throw noSuchUser(email);
  return user;
}

/** `accounts` is the `loc accounts` command (account-commands.ts), which `invite` joins. */
export function registerUserCommands(program: Command, accounts: Command): void {
  inviteCommand(accounts);
  const users = program.command('users').description('manage the people who sign in to the partner panel (acts on the database of LOC_DATABASE_URL, else of LOC_DATA_DIR)');
  listCommand(users);
  recoverCommand(users);
  removeCommand(users);
  setOperatorCommand(users);
  registerHeldCommands(users);
}

/** `loc accounts invite`: a new user of the account, and their one-time link. */
function inviteCommand(accounts: Command): void {
  accounts
    .command('invite')
    .description("invite a person to the partner panel, to manage the account's keys: prints a one-time link to hand over (no mail is sent)")
    .requiredOption('--account <name>', 'the account whose keys they will manage')
    .requiredOption('--email <address>', 'the address they will sign in with', emailArgument)
    .option('--operator', 'make them an operator: they see every account in the panel', false)
    .option(...OVER_CAP)
    .option('--json', 'print the user and the link as JSON')
    .action(async (options: { account: string; email: string; operator: boolean; json?: boolean; overCap?: boolean }, command: Command) => {
      const publicUrl = operatorPublicUrl(command);
      await withStore(command, async (store) => {
        const account = await requireAccount(store, options.account);
        const { user, link } = await inviteUser(cliContext(store, operatorCaps(command, options.overCap)), { accountId: account.id, email: options.email, operator: options.operator }, publicUrl.url);
        printLink(ioOf(command), user, account, link, publicUrl.warning, options.json, 'Invited');
      });
    });
}

/** `loc users list`: the panel's users, of every account or of one. */
function listCommand(users: Command): void {
  users
    .command('list')
    .description("list the panel's users, of every account or of one")
    .option('--account <name>', 'only the users of this account')
    .option('--json', 'print the users as JSON')
    .action(async (options: { account?: string; json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const accounts = options.account === undefined ? await store.listAccounts() : [await requireAccount(store, options.account)];
        const list = (await Promise.all(accounts.map(async (account) => (await store.panel.listUsers(account.id)).map((user) => shown(user, account))))).flat();
        if (options.json) printJson(io, list);
        else {
          printTable(
            io,
            ['EMAIL', 'ACCOUNT', 'OPERATOR', 'STATUS', 'CREATED (UTC)'],
            list.map((user) => [printable(user.email), user.account, user.operator ? 'yes' : 'no', user.status, isoDate(user.createdAt)]),
          );
        }
      });
    });
}

/** `loc users recover`: a one-time recovery link. */
function recoverCommand(users: Command): void {
  users
    .command('recover')
    .description('print a one-time recovery link for a user who lost their password or passkey; using it ends their panel sessions')
    .requiredOption('--email <address>', "the user's address", emailArgument)
    .option('--json', 'print the user and the link as JSON')
    .action(async (options: { email: string; json?: boolean }, command: Command) => {
      const publicUrl = operatorPublicUrl(command);
      await withStore(command, async (store) => {
        const user = await requireUser(store, options.email);
        const { link } = await recoverUser(cliContext(store), user, publicUrl.url);
        printLink(ioOf(command), user, (await store.getAccount(user.accountId))!, link, publicUrl.warning, options.json, 'Recovery for');
      });
    });
}

/** `loc users remove`. */
function removeCommand(users: Command): void {
  users
    .command('remove')
    .description('remove a user: signed out everywhere, their passkeys and links gone; the keys stay the account\'s')
    .requiredOption('--email <address>', "the user's address", emailArgument)
    .option('--json', 'print the removed user as JSON')
    .action(async (options: { email: string; json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const user = await removeUser(cliContext(store), (await requireUser(store, options.email)).id, { operator: true });
        // Another removal of the same user, between the look-up and this one, took it.
        if (user === null) throw noSuchUser(options.email);
        const account = (await store.getAccount(user.accountId))!;
        if (options.json) printJson(io, shown(user, account));
        else io.stdout(`Removed user ${describe(user, account)}.\n`);
      });
    });
}

/** `loc users set-operator`: operator status, granted here alone. */
function setOperatorCommand(users: Command): void {
  users
    .command('set-operator')
    .description("grant or take operator status (every account in the panel); counts from the user's next request")
    .argument('<email>', "the user's address", emailArgument)
    .option('--on', 'make the user an operator')
    .option('--off', 'take operator status away')
    .option('--json', 'print the user afterwards as JSON')
    .action(async (email: string, options: { on?: boolean; off?: boolean; json?: boolean }, command: Command) => {
      if (options.on === options.off) command.error('error: give exactly one of --on or --off', { exitCode: 2 });
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const updated = await setOperator(cliContext(store), email, options.on === true);
        if (updated === null) throw noSuchUser(email);
        const user = updated.after;
        const account = (await store.getAccount(user.accountId))!;
        if (options.json) printJson(io, shown(user, account));
        else io.stdout(`User ${describe(user, account)}.\n`);
      });
    });
}
