import { defineConfig } from 'vitest/config';

// Unit and integration tests sit beside their source (the integrators' package's too); test/ holds what they share (support, the store's
// conformance suite, setup) and the stress suites; bench/ the benchmark's own checks. The browser
// suite (e2e/) runs under Playwright.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'iframe-app/**/*.test.ts', 'demo/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts'],
    reporters: ['default', './test/setup/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
