/**
 * The `loc-mock` executable, the loc-mock package's `bin` (packages/loc-mock/): `loc mock` as a
 * program of its own, with the same flags, settings and output, and nothing else of `loc` — so that its
 * bundle holds no database engine and no operator command, only the service over the in-memory store.
 */
import { LocProgram, rootProgram, runProgram } from './cli-io.ts';
import { mockCommand } from './mock-command.ts';

const io = {
  env: process.env,
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
};

const program = rootProgram(new LocProgram(io, 'loc-mock'));
mockCommand(program);
process.exitCode = await runProgram(program, process.argv.slice(2));
