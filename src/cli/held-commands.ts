/**
 * `loc users held` and `loc users drop-held`: invitations the panel held back because the address is
 * already a user of another account (store/held-invitations.ts). The partner who invited was answered
 * as for any invitation; here an operator sees who invited whom, whose user the address is now, and
 * resolves it: drops the invitation, or moves the person (`loc users remove`, then `loc accounts invite`).
 */
import type { Command } from 'commander';
import { dropHeldInvitation } from '../operations/users.ts';
import { printable } from '../printable.ts';
import { ioOf } from './cli-io.ts';
import { OperatorError, cliContext, isoDate, printJson, printTable, withStore } from './operator-io.ts';

export function registerHeldCommands(users: Command): void {
  users
    .command('held')
    .description("list invitations held back: a partner invited an address that is another account's user (the partner was answered as for any invitation)")
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const [held, accounts] = await Promise.all([store.panel.held.list(null), store.listAccounts()]);
        const names = new Map(accounts.map((account) => [account.id, account.name]));
        const list = await Promise.all(held.map(async (invitation) => {
          const holder = await store.panel.findUserByEmail(invitation.email);
          return {
            id: invitation.id, email: invitation.email, account: names.get(invitation.accountId) ?? invitation.accountId, accountId: invitation.accountId,
            invitedBy: invitation.invitedBy, createdAt: invitation.createdAt, userOf: holder === null ? null : (names.get(holder.accountId) ?? holder.accountId),
          };
        }));
        if (options.json) printJson(io, list);
        else {
          printTable(
            io,
            ['ID', 'EMAIL', 'INVITED TO', 'INVITED BY', 'CREATED (UTC)', 'NOW A USER OF'],
            list.map((row) => [row.id, printable(row.email), row.account, printable(row.invitedBy), isoDate(row.createdAt), row.userOf ?? '(nobody)']),
          );
        }
      });
    });

  users
    .command('drop-held')
    .description("drop a held invitation: it leaves the inviting account's team as a removed invitation does")
    .argument('<id>', 'its id, from loc users held')
    .action(async (id: string, _options: unknown, command: Command) => {
      await withStore(command, async (store) => {
        if (!(await dropHeldInvitation(cliContext(store), null, id))) throw new OperatorError(`No held invitation has the id ${JSON.stringify(id)}; see loc users held.`);
        ioOf(command).stdout(`Dropped the held invitation ${id}.\n`);
      });
    });
}
