/**
 * loc-js's built entries by package name, as Node resolves them through `exports`: the ESM and the
 * CommonJS builds of each, which carry the service's own code-format functions bundled in.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { findCodes } from '../../../src/code/find-codes.ts';
import { isCodeFormat, normalizeCode } from '../../../src/code/format.ts';

const require = createRequire(import.meta.url);
const INPUTS = ['FR-0RMB-CLY0', ' fr0rmb cly0\n', 'fr-0rmb-cly0', 'F1-0RMB-CLY0', '', 'Gate at fr-0rmb-cly0 or US-550M-RQ5L-X.'];

describe('loc-js built entries', () => {
  it('give loc-js/code in ESM and CommonJS, answering as the service’s own functions do', async () => {
    const builds = [await import('loc-js/code'), require('loc-js/code') as typeof import('loc-js/code')];
    for (const built of builds) {
      expect(Object.keys(built).sort()).toEqual(['findCodes', 'isCodeFormat', 'normalizeCode']);
      for (const input of INPUTS) {
        expect([built.normalizeCode(input), built.isCodeFormat(input), built.findCodes(input)]).toEqual([normalizeCode(input), isCodeFormat(input), findCodes(input)]);
      }
    }
  });

  it('give loc-js/embed in ESM and CommonJS, loadLoc alone, rejecting outside a browser', async () => {
    const builds = [await import('loc-js/embed'), require('loc-js/embed') as typeof import('loc-js/embed')];
    for (const built of builds) {
      expect(Object.keys(built)).toEqual(['loadLoc']);
      await expect(built.loadLoc({ baseUrl: 'https://loc.example' })).rejects.toThrow('loadLoc: runs in a browser');
    }
  });

  it('give loc-js/testing in ESM and CommonJS: the Playwright helpers, the mock switches and the fake, with no Playwright inside', async () => {
    const builds = [await import('loc-js/testing'), require('loc-js/testing') as typeof import('loc-js/testing')];
    for (const built of builds) {
      expect(Object.keys(built).sort()).toEqual([
        'LOC_FRAME_SELECTOR', 'LOC_TEST_MODE_SELECTOR', 'advanceLocSession', 'clearMockFailures', 'createFakeLoc', 'expireLocSession', 'locFrame', 'mockFailure', 'pickLocation', 'waitForLocReady',
      ]);
      expect(built.LOC_TEST_MODE_SELECTOR).toBe('#loc-test-mode');
    }
    expect(readFileSync(require.resolve('loc-js/testing'), 'utf8')).not.toMatch(/playwright/i);
  });
});
