/**
 * loc-js's built entries by package name, as Node resolves them through `exports`: the ESM and the
 * CommonJS builds of each, which carry the service's own code-format functions bundled in.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCodes } from '../../../src/code/find-codes.ts';
import { isCodeFormat } from '../../../src/code/format.ts';
import { normalizeCode } from '../../../src/code/spelling.ts';
import { cellAt as serviceCellAt } from '../../../src/code/cells.ts';
import { coverage } from '../../../src/code/shipped-table.ts';

const require = createRequire(import.meta.url);
const DIST = join(import.meta.dirname, '../dist');
/** What loc-js/react may take from React: APIs that React 18, its oldest supported peer, has too. */
const REACT_18_APIS = ['createElement', 'forwardRef', 'useEffect', 'useImperativeHandle', 'useRef', 'useState'];
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

  it('give loc-js/codec in ESM and CommonJS, loadCodec alone, and the table it checks as loc-js/table.bin', async () => {
    const table = readFileSync(require.resolve('loc-js/table.bin'));
    const builds = [await import('loc-js/codec'), require('loc-js/codec') as typeof import('loc-js/codec')];
    for (const built of builds) {
      expect(Object.keys(built)).toEqual(['loadCodec']);
      const codec = await built.loadCodec({ table });
      expect(codec.encode(48.8584, 2.2945).loc_code).toBe('FR-0RMB-CLY0');
      expect(codec.neighbours('FR-0RMB-CLY0').e).toBe('FR-0RMB-CLY1');
    }
  });

  it('give loc-js/embed in ESM and CommonJS, loadLoc alone, rejecting outside a browser', async () => {
    const builds = [await import('loc-js/embed'), require('loc-js/embed') as typeof import('loc-js/embed')];
    for (const built of builds) {
      expect(Object.keys(built)).toEqual(['loadLoc']);
      await expect(built.loadLoc({ baseUrl: 'https://loc.example' })).rejects.toThrow('loadLoc: runs in a browser');
    }
  });

  it('give loc-js/react in ESM and CommonJS, LocPicker alone, with React and loc-js/embed imported, not bundled', async () => {
    const builds = [await import('loc-js/react'), require('loc-js/react') as typeof import('loc-js/react')];
    for (const built of builds) {
      expect(Object.keys(built)).toEqual(['LocPicker']);
      expect(built.LocPicker.$$typeof).toBe(Symbol.for('react.forward_ref'));
    }
    const esm = readFileSync(join(DIST, 'react.js'), 'utf8');
    const taken = /import \{([^}]*)\} from "react";/.exec(esm)?.[1].split(',').map((name) => name.trim()).sort();
    expect(taken).toEqual(REACT_18_APIS);
    // One loadLoc, and one cache of its promise, for a page that imports both entries.
    expect(esm).toContain('import { loadLoc } from "./embed.js";');
    expect(esm).not.toContain('function loadLoc');
    const cjs = readFileSync(join(DIST, 'react.cjs'), 'utf8');
    expect([...cjs.matchAll(/require\("([^"]+)"\)/g)].map(([, name]) => name).sort()).toEqual(['./embed.cjs', 'react']);
  });

  it('give loc-js/vue in ESM and CommonJS, LocPicker alone, with Vue and loc-js/embed imported, not bundled', async () => {
    const builds = [await import('loc-js/vue'), require('loc-js/vue') as typeof import('loc-js/vue')];
    for (const built of builds) {
      expect(Object.keys(built)).toEqual(['LocPicker']);
      const component = built.LocPicker as unknown as { name: string; setup: unknown };
      expect([component.name, typeof component.setup]).toEqual(['LocPicker', 'function']);
    }
    const esm = readFileSync(join(DIST, 'vue.js'), 'utf8');
    // APIs that Vue 3.3, its oldest supported peer, has (defineComponent of a setup function and options came with it).
    const taken = /import \{([^}]*)\} from "vue";/.exec(esm)?.[1].split(',').map((name) => name.trim()).sort();
    expect(taken).toEqual(['defineComponent', 'h', 'nextTick', 'onActivated', 'onBeforeUnmount', 'onDeactivated', 'onMounted', 'watch']);
    expect(esm).toContain('import { loadLoc } from "./embed.js";');
    expect(esm).not.toContain('function loadLoc');
    const cjs = readFileSync(join(DIST, 'vue.cjs'), 'utf8');
    expect([...cjs.matchAll(/require\("([^"]+)"\)/g)].map(([, name]) => name).sort()).toEqual(['./embed.cjs', 'vue']);
  });

  it('give loc-js/picker in ESM and CommonJS, defineLocPicker alone, safe to import on a server, with loc-js/embed imported, not bundled', async () => {
    const builds = [await import('loc-js/picker'), require('loc-js/picker') as typeof import('loc-js/picker')];
    for (const built of builds) {
      expect(Object.keys(built)).toEqual(['defineLocPicker']);
      expect(() => built.defineLocPicker({ baseUrl: 'https://loc.example' })).toThrow('defineLocPicker: runs in a browser');
    }
    const esm = readFileSync(join(DIST, 'picker.js'), 'utf8');
    expect(esm).toContain('import { loadLoc } from "./embed.js";');
    expect(esm).not.toContain('function loadLoc');
  });

  it('give loc-js/testing in ESM and CommonJS: the Playwright helpers, the mock switches and the fake, with no Playwright inside', async () => {
    const builds = [await import('loc-js/testing'), require('loc-js/testing') as typeof import('loc-js/testing')];
    for (const built of builds) {
      expect(Object.keys(built).sort()).toEqual([
        'LOC_FRAME_SELECTOR', 'LOC_TEST_MODE_SELECTOR', 'LocPickError', 'advanceLocSession', 'clearMockFailures', 'createFakeLoc', 'expireLocSession', 'locFrame', 'mockFailure', 'pickLocation', 'waitForLocReady',
      ]);
      expect(built.LOC_TEST_MODE_SELECTOR).toBe('#loc-test-mode');
    }
    expect(readFileSync(require.resolve('loc-js/testing'), 'utf8')).not.toMatch(/playwright/i);
  });

  it('give loc-js/grid in ESM and CommonJS: the grid from the table’s first bytes, and each point’s cell as the service bounds it', async () => {
    const builds = [await import('loc-js/grid'), require('loc-js/grid') as typeof import('loc-js/grid')];
    const table = readFileSync(join(import.meta.dirname, '../../../src/code/tables/v1r3.bin'));
    for (const built of builds) {
      expect(Object.keys(built).sort()).toEqual(['BLOCK_MIN_ZOOM', 'GRID_MIN_ZOOM', 'blockLines', 'cellAt', 'gridFromTable', 'gridLines', 'linesAt', 'loadGrid']);
      // The small part: the column counts end at byte 20 080 of the 714 KB file.
      const grid = built.gridFromTable(table.subarray(0, 20_080));
      expect(() => built.gridFromTable(table.subarray(0, 20_079))).toThrow('table file: unexpected end at byte 20079');
      expect(Array.from(grid.columns)).toEqual(Array.from(coverage().columns));
      for (const [lat, lng] of [[48.8584, 2.2945], [-33.8568, 151.2153], [0, -180], [90, 180], [-90, 0], [71.5, -30]]) {
        expect(built.cellAt(grid, lat, lng)).toEqual(serviceCellAt(lat, lng));
      }
      expect(() => built.cellAt(grid, 91, 0)).toThrow(expect.objectContaining({ code: 'validation_error' }));
      expect(() => built.cellAt(grid, Number.NaN, 0)).toThrow(expect.objectContaining({ code: 'validation_error' }));
      const paris = { south: 48.85, north: 48.86, west: 2.29, east: 2.3 };
      expect([10, 11, 17, 18].map((zoom) => built.linesAt(grid, paris, zoom)?.kind)).toEqual([undefined, 'blocks', 'blocks', 'cells']);
    }
  });

  it('give loc-js/leaflet and loc-js/maplibre in ESM and CommonJS, on loc-js/grid imported, not bundled: Leaflet imported by its entry, MapLibre by neither', async () => {
    expect(Object.keys(require('loc-js/maplibre') as object).sort()).toEqual(['addLocGrid', 'viewFeatures']);
    expect(Object.keys(await import('loc-js/maplibre')).sort()).toEqual(['addLocGrid', 'viewFeatures']);
    const imports = (file: string) => [...readFileSync(join(DIST, file), 'utf8').matchAll(/^import .* from "([^"]+)";$|require\("([^"]+)"\)/gm)].map(([, esm, cjs]) => esm ?? cjs);
    expect(new Set(imports('leaflet.js'))).toEqual(new Set(['leaflet', './grid.js']));
    expect(new Set(imports('leaflet.cjs'))).toEqual(new Set(['leaflet', './grid.cjs']));
    expect(new Set(imports('maplibre.js'))).toEqual(new Set(['./grid.js']));
    expect(new Set(imports('maplibre.cjs'))).toEqual(new Set(['./grid.cjs']));
    for (const file of ['leaflet.js', 'maplibre.js']) expect(readFileSync(join(DIST, file), 'utf8')).not.toContain('function cellOf');
  });
});
