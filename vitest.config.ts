import { defineConfig } from 'vitest/config';

// Unit and integration tests sit beside their source. The browser suite (e2e/) runs under Playwright.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'iframe-app/**/*.test.ts', 'demo/**/*.test.ts'],
    globalSetup: ['src/test-setup/build.ts'],
    reporters: ['default', './src/test-setup/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
