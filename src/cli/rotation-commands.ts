/**
 * `loc keys rotate` and `loc keys finish-rotation`: a key replaced without downtime, as the panel's
 * rotation does it (operations/key-rotation.ts). The replacement has the old key's settings and a new
 * secret, printed once; both keys work until the rotation is finished, which disables the old one —
 * once the replacement has been used, or with --force.
 */
import type { Command } from 'commander';
import { LocError } from '../errors.ts';
import { finishRotation, rotateKey } from '../operations/key-rotation.ts';
import type { Store } from '../store/store.ts';
import { ioOf } from './cli-io.ts';
import { JSON_KEY, found, printKey, summary } from './key-commands.ts';
import { OVER_CAP, OperatorError, cliContext, operatorCaps, printJson, withStore } from './operator-io.ts';
import { OverCap } from '../operations/caps.ts';

/** Registers the rotation's two commands under `loc keys`. */
export function registerRotationCommands(keys: Command): void {
  rotateCommand(keys);
  finishCommand(keys);
}

/** A state of the key that refuses the change (not active, never rotated, replacement unused) is an error of the work, exit 1. */
async function refusedAsWork<T>(work: () => Promise<T>, say: (error: LocError) => string = (error) => error.message): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LocError && !(error instanceof OverCap) && (error.code === 'validation_error' || error.code === 'not_found')) throw new OperatorError(say(error));
    throw error;
  }
}

const keyOf = async (store: Store, id: string) => found(await store.getKey(id), id);

/** `loc keys rotate KEY_ID`: the replacement, its secret printed once. */
function rotateCommand(keys: Command): void {
  keys
    .command('rotate')
    .description("replace an active key without downtime: a new key with its settings, printed once; both work until loc keys finish-rotation")
    .argument('<key-id>', 'the key id, key_…')
    .option(...OVER_CAP)
    .option('--json', 'print the replacement and its secret as JSON')
    .action(async (id: string, options: { json?: boolean; overCap?: boolean }, command: Command) => {
      const io = ioOf(command);
      await withStore(command, async (store) => {
        const { key, secret } = await refusedAsWork(async () => rotateKey(cliContext(store, operatorCaps(command, options.overCap)), await keyOf(store, id)));
        if (options.json) {
          printJson(io, { key, api_key: secret, replaces: id });
          return;
        }
        io.stdout(`Rotating API key ${id}: its replacement is ${summary(key)}.\n`);
        io.stdout(`Secret (shown this once; only its hash is stored):\n${secret}\n`);
        io.stdout(`Once your servers use it, finish with: loc keys finish-rotation ${id}\n`);
      });
    });
}

/** `loc keys finish-rotation KEY_ID`: the old key disabled, once its replacement is in use. */
function finishCommand(keys: Command): void {
  keys
    .command('finish-rotation')
    .description('disable a rotated key, once its replacement has been used (the last use shows in loc keys usage)')
    .argument('<key-id>', 'the id of the key being replaced, key_…')
    .option('--force', 'disable it although the replacement has not been used yet')
    .option('--json', JSON_KEY)
    .action(async (id: string, options: { force?: boolean; json?: boolean }, command: Command) => {
      await withStore(command, async (store) => {
        const updated = await refusedAsWork(
          async () => finishRotation(cliContext(store), await keyOf(store, id), options.force === true),
          (error) =>
            error.field === 'confirm' ? `The replacement of ${id} has not been used yet; pass --force to disable ${id} anyway.`
            : error.code === 'not_found' ? `API key ${id} is not being rotated; start with: loc keys rotate ${id}` : error.message,
        );
        printKey(ioOf(command), updated.after, options.json);
      });
    });
}
