/**
 * The `loc` command as built: dist/cli.js and the chunks beside it (build.mjs splits the server's code
 * out, for the commands that run it), read by the tests that check what a start of `loc` loads.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DIST = join(import.meta.dirname, '../../dist');

/** Each of the command's files in dist/, by name, with its text. */
export function builtCliFiles(): Map<string, string> {
  const names = readdirSync(DIST).filter((name) => /^cli(-[A-Z0-9]+)?\.js$/.test(name));
  return new Map(names.map((name) => [name, readFileSync(join(DIST, name), 'utf8')]));
}

/** The command's text, all its files together. */
export const builtCli = (): string => [...builtCliFiles().values()].join('\n');
