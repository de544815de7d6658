/**
 * The `loc` command: one program, one module per group of subcommands. Usage mistakes print one line
 * and exit 2; errors of the work itself exit 1.
 */
import { Command, CommanderError } from 'commander';
import { registerAccountCommands } from './account-commands.ts';
import { registerActivityCommands } from './activity-commands.ts';
import { registerBackupCommand } from './backup-command.ts';
import { registerCodeCommands } from './code-commands.ts';
import { registerDbCommands } from './db-commands.ts';
import { registerKeyCommands } from './key-commands.ts';
import { registerMockCommand } from './mock-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerTestDataCommand } from './test-data-command.ts';
import { registerUserCommands } from './user-commands.ts';

export function buildProgram(): Command {
  const program = new Command('loc')
    .description('loc: location codes for 3 m cells, the API service and its operator tools')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`${text.split('\n')[0]} (see --help)\n`) });
  registerCodeCommands(program);
  registerServeCommand(program);
  registerMockCommand(program);
  const accounts = registerAccountCommands(program);
  const keys = registerKeyCommands(program);
  registerUserCommands(program, accounts);
  registerActivityCommands(program, keys);
  registerTestDataCommand(program);
  registerBackupCommand(program);
  registerDbCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
