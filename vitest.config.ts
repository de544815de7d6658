import { defineConfig } from 'vitest/config';

/**
 * Unit and integration tests sit beside their source (the integrators' package's too); test/ holds
 * what they share (support, the store's conformance suites, setup) and the stress suites; bench/ the
 * benchmark's own checks. The browser suite (e2e/) runs under Playwright. docs/testing.md says which
 * kind of test goes where.
 *
 * Three projects, one after the other. `fresh` and `tests`: every kind that may share the machine —
 * pure units, the app in-process, child processes, PostgreSQL, the stress suites that only make
 * faults — WORKERS files at a time. The run is bound by the two cores' CPU, not by waiting: two workers
 * and three take the same time (267 s and 268 s; 234 s and 229 s on 3 December), one takes 470 s, so
 * it is the cores' count, which leaves the timing-sensitive tests the least contention. `stress`:
 * last, one file at a time, each alone on the machine, the stress suites that load it or time what
 * they measure.
 *
 * `tests` runs its files in shared workers (`isolate: false`): a worker imports the app, the codec's
 * tables and the address index once, not once per file. The two projects took 206 s (355–367
 * CPU-seconds) where, a process per file, they took 232–234 s (419). Its files leave no state behind
 * them — they close what they open and restore what they stub — and pass in any order (shuffled,
 * and all in one worker). `fresh` gives each file a process of its own: the browser code's tests,
 * which stub a page's globals, fake its timers and hold a DOM of their own, and the few files that
 * test what a module does on its first load or replace a module (vi.mock).
 */
const WORKERS = 2;

/**
 * The stress suites (test/stress, docs/stress.md) that may share the machine: they make faults — of
 * the disk, of the log's destination, a schema a rolling deploy leaves, secrets put everywhere,
 * tampered tokens, one request at a time — and time nothing a busy machine could fail. Alone they
 * would only wait: for the busy timeout's five seconds, twice, and for servers to start. Every other
 * stress suite loads the machine (request floods, write storms, steady load while something fails) or
 * times an answer, and has it to itself.
 */
const BESIDE = ['faults', 'log-faults', 'rolling-deploy', 'secrets-at-rest', 'tokens'];
const ALONE = `test/stress/!(${BESIDE.join('|')}).test.ts`;

/** Each in a process of its own: see above. */
const FRESH = [
  'src/embed/**/*.test.ts', 'iframe-app/**/*.test.ts', 'demo/page/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'src/panel/live-updates.test.ts',
  'src/server/routes/health.test.ts', 'src/server/server-places.test.ts', 'src/panel/password-hasher.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts'],
    reporters: ['default', './test/setup/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fresh',
          include: FRESH,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'tests',
          include: ['src/**/*.test.ts', 'iframe-app/**/*.test.ts', 'demo/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [ALONE, ...FRESH],
          maxWorkers: WORKERS,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'stress',
          include: [ALONE],
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
