/**
 * `loc mock`: the service itself (the same app) over an in-memory store, with test mode forced — the
 * server integrators and QA run in CI with nothing to set up. Any `loc_test_` key works, for pages on
 * this machine; it prints one to use. Map tiles are drawn offline and addresses are the offline ones,
 * so nothing leaves the machine, and nothing is written to disk: it forgets everything on exit.
 * `--fail` queues the error paths an integrator's suite wants to see (server/mock/failures.ts).
 */
import type { Command } from 'commander';
import ipaddr from 'ipaddr.js';
import { TEST_KEY_PREFIX, looksLikeApiKey, newApiKey } from '../auth/secrets.ts';
import { describeValue } from '../errors.ts';
import { ConfigError, loadConfig, type Config } from '../server/config.ts';
import { FAILURE_CODES, MOCK_FAILURES_PATH, parseFailure, type Failure } from '../server/mock/failures.ts';
import { MemoryStore } from '../store/memory/memory.ts';
import { collect, ioOf, setExitCode, type CliIo } from './cli-io.ts';
import { listenFlags } from './serve-command.ts';

/** Where `loc mock` listens unless PORT or --port say otherwise: beside `loc serve`'s 8080, so both can run. */
export const MOCK_DEFAULT_PORT = 8081;

interface MockOptions {
  port?: string;
  host?: string;
  key?: string;
  fail: string[];
  exposeUnsafely?: boolean;
}

export function registerMockCommand(program: Command): void {
  mockCommand(program.command('mock'));
}

/**
 * `command` made the mock: its description, options and action. `loc mock` is a subcommand of `loc`;
 * the loc-mock package's `loc-mock` is the root command of its own program (mock-bin.ts).
 */
export function mockCommand(command: Command): Command {
  return command
    .description('run the service in memory for tests: any loc_test_ key, pages on localhost, offline tiles, error switches (see docs/mock.md)')
    .option('--port <n>', `port to listen on (overrides PORT; default ${MOCK_DEFAULT_PORT})`)
    .option('--host <host>', 'interface to listen on (overrides HOST): localhost, 127.0.0.1 or ::1 unless --expose-unsafely')
    .option('--expose-unsafely', 'allow a --host other machines reach: anyone who reaches the mock can switch its failures; never for production')
    .option('--key <key>', `the ${TEST_KEY_PREFIX} key to print (default: a new one; any ${TEST_KEY_PREFIX} key works)`)
    .option('--fail <CODE[:N]>', `answer the next N requests (default 1) with CODE: ${FAILURE_CODES.join(', ')}; repeatable`, collect, [])
    .action(async (options: MockOptions, command: Command) => {
      const io = ioOf(command);
      let config: Config;
      let failures: Failure[];
      let key: string;
      try {
        config = mockConfig(options, io.env);
        if (options.exposeUnsafely !== true) onlyThisMachine(config.host, options.host !== undefined ? '--host' : 'HOST');
        failures = options.fail.map(parseFailure);
        key = options.key === undefined ? newApiKey('test') : testKey(options.key);
      } catch (error) {
        if (error instanceof ConfigError) command.error(`error: ${error.message}`, { exitCode: 2 });
        throw error;
      }
      if (!isLoopback(config.host)) {
        io.stderr(`warning: the mock listens on ${config.host}: any machine that reaches it can use it and switch its failures (${MOCK_FAILURES_PATH}). Not for production.\n`);
      }
      // Loaded now, not at start: only the commands that run the server load its code (run-service.ts).
      const { runService } = await import('./run-service.ts');
      setExitCode(command, await runService(config, { store: new MemoryStore(), mock: { failures }, bannerNotes: (running) => howToUse(running, key) }, io));
    });
}

/**
 * The configuration of `loc serve`, with what makes it the mock: its own default port, map tiles
 * drawn offline, offline addresses and places only (no provider or geocoder is asked), and no drain
 * on SIGTERM: no balancer sends a test's mock anything. LOC_DATA_DIR is never read: the store is in memory.
 */
function mockConfig(options: MockOptions, env: CliIo['env']): Config {
  const mock: CliIo['env'] = { ...env, LOC_TILES: 'offline' };
  if (!env.PORT?.trim()) mock.PORT = String(MOCK_DEFAULT_PORT);
  return { ...loadConfig(mock, listenFlags(options)), geocoderUrl: null, geocoderSearch: false, drainMs: 0 };
}

/** Whether `host` names this machine only: `localhost`, or a loopback address (127.0.0.0/8, ::1). */
function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === 'loopback';
}

/**
 * Refuses a host other machines could reach: the mock takes any test key and lets whoever reaches it
 * queue failures for everyone, which is what a test needs on its own machine and no one else should have.
 */
function onlyThisMachine(host: string, from: '--host' | 'HOST'): void {
  if (isLoopback(host)) return;
  throw new ConfigError(
    `${from} ${host} would let other machines reach the mock, and anyone reaching it can switch its failures (${MOCK_FAILURES_PATH}): listen on localhost, 127.0.0.1 or ::1, or add --expose-unsafely for a network you trust (never production).`,
  );
}

/** The `--key` given, when it is a test key; a live key is refused without being echoed. */
function testKey(key: string): string {
  if (key.startsWith(TEST_KEY_PREFIX) && looksLikeApiKey(key)) return key;
  const received = looksLikeApiKey(key) ? 'a live key' : describeValue(key);
  throw new ConfigError(`--key must be a test key: ${TEST_KEY_PREFIX} and 31 to 91 letters, digits, "-" or "_", received ${received}.`);
}

/** The banner's lines for people: the key, and a call of each kind to copy. */
function howToUse(config: Config, key: string): string[] {
  const base = config.publicUrl;
  return [
    'loc mock: in memory (forgotten on exit), test mode, offline tiles and addresses. Guide: docs/mock.md',
    `  test key   ${key}   (any ${TEST_KEY_PREFIX} key works; live keys are refused)`,
    `  try        curl -s ${base}/v1/loc/lookup/FR-0RMB-CLY0 -H 'x-api-key: ${key}'`,
    `  session    curl -s ${base}/v1/embed/sessions -H 'x-api-key: ${key}' -H 'content-type: application/json' -d '{"origin":"http://localhost:3000"}'`,
    '             (for pages on this machine only, on any port: http://localhost:PORT, https://localhost:PORT or https://127.0.0.1:PORT)',
    `  failures   curl -s ${base}${MOCK_FAILURES_PATH} -H 'content-type: application/json' -d '{"code":"rate_limited","times":1,"scope":"all"}'`,
  ];
}
