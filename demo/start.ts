/**
 * `npm start`: the loc service and the demo integrator, each its own process, started as one command.
 *
 * The service (`loc serve --seed-dev` from dist/) is told the demo page's origin, so that the
 * development key it seeds allows it. Once the service's ready line is out, the demo (main.ts) starts
 * with the service's addresses and the key file the line names; then both addresses are printed.
 * SIGINT and SIGTERM go to both, and it exits 0 once both have stopped gracefully; when one of them
 * ends by itself, the other is stopped. A start that cannot go on ends with one line that says why,
 * exit 1 (2 for a bad setting): the service's own, or the demo's once the service is stopped again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { demoAddressFromEnv, settingsOrExit } from './settings.ts';

/** What start.ts needs of the service's ready line, a JSON line whose `msg` is "listening". */
interface ServiceReady {
  /** Where the service listens: how the demo's server reaches it. */
  url: string;
  /** How browsers reach it. */
  publicUrl: string;
  /** The development key's file, which the service wrote (or found) with --seed-dev. */
  devKeyFile?: string;
}

/** A child whose stdout is passed on, and read until it says it is ready. */
interface Child<T> {
  process: ChildProcess;
  /** What `isReady` found in its output, or null when it ended first. */
  ready: Promise<T | null>;
  /** Its exit code, once its output is passed on; an end by a signal counts as 0 if the signal was passed on to it, else 1. */
  exited: Promise<number>;
  /** What it wrote to stderr before it was ready, when that is held back. */
  heldErrors(): string;
}

function serviceReady(line: string): ServiceReady | null {
  if (!line.startsWith('{')) return null;
  try {
    const fields = JSON.parse(line) as Partial<ServiceReady> & { msg?: unknown };
    return fields.msg === 'listening' && typeof fields.url === 'string' && typeof fields.publicUrl === 'string' ? (fields as ServiceReady) : null;
  } catch {
    return null;
  }
}

/** The demo's ready line (main.ts): `loc demo: <url> …`. */
const demoReady = (line: string): string | null => /^loc demo: (\S+)/.exec(line)?.[1] ?? null;

const children: Child<unknown>[] = [];
/** The signals passed on to the children. */
const passedOn = new Set<NodeJS.Signals>();
const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

/**
 * Starts node with `args` in the repository. With `holdErrors`, its stderr is held back until it is
 * ready, so that the reason it could not start comes last, after what stopping the service prints.
 */
function run<T>(args: string[], env: Record<string, string>, isReady: (line: string) => T | null, holdErrors: boolean): Child<T> {
  const child = spawn(process.execPath, args, { cwd: join(import.meta.dirname, '..'), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', holdErrors ? 'pipe' : 'inherit'] });
  let held = '';
  child.stderr?.on('data', (chunk: Buffer) => void (held += chunk.toString('utf8')));
  child.stdout!.pipe(process.stdout, { end: false });
  const ready = new Promise<T | null>((resolve) => {
    let partial = '';
    const scan = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      const found = lines.map(isReady).find((value) => value !== null);
      if (found === undefined) return;
      child.stdout!.off('data', scan);
      child.stderr?.removeAllListeners('data').pipe(process.stderr, { end: false });
      process.stderr.write(held);
      resolve(found);
    };
    child.stdout!.on('data', scan);
    child.once('close', () => resolve(null));
  });
  // A child ended by a signal passed on to it had not taken its signals over yet: it was stopped
  // before it had anything to undo.
  const exited = new Promise<number>((resolve) => child.once('close', (code, signal) => resolve(code ?? (signal !== null && passedOn.has(signal) ? 0 : 1))));
  const started: Child<T> = { process: child, ready, exited, heldErrors: () => held };
  children.push(started);
  return started;
}

/**
 * Stops the children still running, unless a signal was passed on to them already (another would be
 * a second request: stop at once), and waits for all of them; the first failing exit code, else 0.
 */
async function stopAll(): Promise<number> {
  if (passedOn.size === 0) for (const child of children) if (running(child.process)) child.process.kill('SIGTERM');
  const codes = await Promise.all(children.map((child) => child.exited));
  return codes.find((code) => code !== 0) ?? 0;
}

// Before anything starts: the service would seed the development key with the origin.
const address = settingsOrExit(demoAddressFromEnv);

// From the start: a signal while the service starts reaches it, and it stops once started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    passedOn.add(signal);
    for (const child of children) if (running(child.process)) child.process.kill(signal);
  });
}
// Our output may go to a reader that has gone: the children's output is then lost, and they go on.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

// No drain on SIGTERM: no load balancer sends a development service anything to finish first.
const service = await run(['dist/cli.js', 'serve', '--seed-dev', '--dev-origin', address.origin], { LOC_DRAIN_MS: '0' }, serviceReady, false).ready;
// The service said why it could not start, or it was stopped while starting.
if (service === null || passedOn.size > 0) process.exit(await stopAll());

const demo = run(
  ['--import', 'tsx', 'demo/main.ts'],
  { LOC_API_URL: service.url, LOC_API_PUBLIC_URL: service.publicUrl, LOC_DEMO_API_KEY: '', LOC_DEMO_KEY_FILE: service.devKeyFile ?? '', LOC_DEMO_ORIGIN: address.origin },
  demoReady,
  true,
);
const demoUrl = await demo.ready;
if (demoUrl === null) {
  // An API without its demo page is not the start that was asked for, and a warning would scroll
  // away under the request log: stop the service, and say why.
  const code = await stopAll();
  process.stderr.write(demo.heldErrors());
  process.exit(passedOn.size > 0 ? code : 1);
}
process.stdout.write(`npm start: the service on ${service.publicUrl}, the demo page on ${demoUrl}; Ctrl-C stops both\n`);

await Promise.race(children.map((child) => child.exited));
process.exitCode = await stopAll();
