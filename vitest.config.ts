import { defineConfig } from 'vitest/config';

/**
 * Unit and integration tests sit beside their source (the integrators' package's too); test/ holds
 * what they share (support, the store's conformance suites, setup) and the stress suites; bench/ the
 * benchmark's own checks. The browser suite (e2e/) runs under Playwright. docs/testing.md says which
 * kind of test goes where.
 *
 * Two projects. `tests`: every kind that may share the machine — pure units, the app in-process,
 * child processes, PostgreSQL — WORKERS files at a time. The run is bound by the two cores' CPU,
 * not by waiting: two workers and three take the same time (267 s and 268 s), one takes 470 s, so
 * it is the cores' count, which leaves the timing-sensitive tests the least contention. `stress`:
 * last, one file at a time, each alone on the machine, because they measure it under load.
 */
const WORKERS = 2;

const STRESS = 'test/stress/**/*.test.ts';

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
          name: 'tests',
          include: ['src/**/*.test.ts', 'iframe-app/**/*.test.ts', 'demo/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [STRESS],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'stress',
          include: [STRESS],
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
