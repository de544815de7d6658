/**
 * The shop's browser suite: loc-mock plays the loc service — the real service over an in-memory
 * store, test keys only — and server.mjs the shop, as in production. Nothing else: the tests drive the
 * pages with Playwright and the loc-js/testing helpers.
 *
 * In your project, the mock is the loc-mock package, a dev dependency (`npx loc-mock`); inside loc's
 * own repository `npm run test:example` packs and installs it as you would, and LOC_MOCK_COMMAND names
 * the installed bin.
 */
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { LOC_URL, MOCK_PORT, SHOP_PORT, TEST_KEY } from './tests/settings.ts';

const MOCK = process.env.LOC_MOCK_COMMAND ?? 'npx loc-mock';

/** Debian's Chromium where there is one (CI here), else Playwright's own (`npx playwright install chromium`). */
const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'tests',
  workers: 1,
  forbidOnly: true,
  timeout: 30_000,
  outputDir: '../../test-results/example-checkout',
  use: {
    baseURL: `http://localhost:${SHOP_PORT}`,
    browserName: 'chromium',
    launchOptions: chromium ? { executablePath: chromium, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'] } : {},
  },
  webServer: [
    { command: `${MOCK} --port ${MOCK_PORT}`, url: `${LOC_URL}/healthz`, reuseExistingServer: false },
    {
      command: 'node server.mjs',
      url: `http://localhost:${SHOP_PORT}/`,
      env: { LOC_URL, LOC_API_KEY: TEST_KEY, PORT: String(SHOP_PORT) },
      reuseExistingServer: false,
    },
  ],
});
