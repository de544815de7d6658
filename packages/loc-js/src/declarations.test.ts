/**
 * loc-js's declarations, as built (packages/loc-js/dist/): the embed's types are the very file the
 * service serves as loc-embed.d.ts, the API's error codes are the catalogue's, and the CommonJS twins
 * say the same. A change on either side that the other does not follow fails here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../../src/errors.ts';

const ROOT = join(import.meta.dirname, '../../..');
const DIST = join(ROOT, 'packages/loc-js/dist');
const SERVED = join(ROOT, 'dist/embed/loc-embed.d.ts');

/** The one package outside loc-js each declaration file may name: an optional peer, or its types. */
const PEERS: Record<string, string> = {
  'react.d.ts': 'react',
  'picker-react.d.ts': 'react',
  'vue.d.ts': 'vue',
  'picker-vue.d.ts': 'vue',
  'picker-svelte.d.ts': 'svelte/elements',
  'testing.d.ts': '@playwright/test',
  'leaflet.d.ts': 'leaflet',
  'maplibre.d.ts': 'maplibre-gl',
};

const declarationFiles = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((file) => /\.d\.c?ts$/.test(file));

/** The names a declaration file exports, as TypeScript sees them. */
function exportsOf(file: string, program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  return checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((symbol) => symbol.name).sort();
}

/** Every declaration file the consumers' programs read, parsed once for all of them: by name and language version. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The type errors of `code`, compiled as a consumer's module at the repository's root (loc-js is linked in node_modules); `.tsx` for a React page. */
function consumerDiagnostics(code: string, options: ts.CompilerOptions, extension: '.mts' | '.tsx'): { file: string; diagnostics: readonly ts.Diagnostic[] } {
  const file = join(ROOT, `consumer-check${extension}`);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    if (name === file) return ts.createSourceFile(name, code, version);
    const key = `${name}\n${typeof version === 'object' ? `${version.languageVersion} ${version.impliedNodeFormat}` : version}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(name, version, ...rest));
    return parsed.get(key);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  return { file, diagnostics: ts.getPreEmitDiagnostics(ts.createProgram([file], options, host)) };
}

/** The messages of `code`'s type errors. */
const consumerErrors = (code: string, options: ts.CompilerOptions): string[] =>
  consumerDiagnostics(code, options, '.mts').diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));

/** The lines of `code` its type errors are on, 1-based, each once; 0 for an error in another file. */
function erringLines(code: string, options: ts.CompilerOptions, extension: '.mts' | '.tsx'): number[] {
  const { file, diagnostics } = consumerDiagnostics(code, options, extension);
  return [...new Set(diagnostics.map((d) => (d.file?.fileName === file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0)))];
}

// Every declaration file is checked, loc-js's above all, but TypeScript's own lib files.
const STRICT = { strict: true, noEmit: true, skipDefaultLibCheck: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] };
const RESOLUTIONS: Record<string, ts.CompilerOptions> = {
  bundler: { ...STRICT, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  NodeNext: { ...STRICT, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
};

describe('loc-js declarations', () => {
  it('ship the embed’s types as the service serves them, byte for byte, but the global LOC of a page with the script’s tag', () => {
    const served = readFileSync(SERVED, 'utf8');
    const shipped = readFileSync(join(DIST, 'src/embed/public-types.d.ts'), 'utf8');
    expect(readFileSync(join(DIST, 'src/embed/public-types.d.cts'), 'utf8')).toBe(shipped);
    expect(served.startsWith(shipped)).toBe(true);
    expect(served.slice(shipped.length)).toMatch(/^declare global \{\n[^}]*\n {2}var LOC: LocGlobal;\n\}\n$/);
    expect(shipped).not.toContain('declare global');
  });

  it('type window.LOC as possibly undefined for a page that imports loc-js/embed, and declare no bare LOC: loadLoc gives it', () => {
    const page = [
      `import { loadLoc } from 'loc-js/embed';`,
      `const loaded = await loadLoc({ baseUrl: 'https://loc.example' });`,
      `loaded.mount('#map', { sessionToken: 'sid.secret' });`,
      `window.LOC?.mount('#map', { sessionToken: 'sid.secret' });`,
      `window.LOC.mount('#map', { sessionToken: 'sid.secret' });`,
      `LOC.mount('#map', { sessionToken: 'sid.secret' });`,
      `export {};`,
    ].join('\n');
    for (const [name, options] of Object.entries(RESOLUTIONS)) {
      expect(consumerErrors(page, options), name).toEqual(["'window.LOC' is possibly 'undefined'.", expect.stringMatching(/^Cannot find name 'LOC'\./)]);
    }
  });

  it('export from loc-js/embed every type the served declarations export, and loadLoc', () => {
    const program = ts.createProgram([SERVED, join(DIST, 'embed.d.ts'), join(DIST, 'embed.d.cts')], RESOLUTIONS.NodeNext);
    const served = exportsOf(SERVED, program);
    expect(served).toContain('LocMountOptions');
    for (const entry of ['embed.d.ts', 'embed.d.cts']) {
      expect(exportsOf(join(DIST, entry), program)).toEqual([...served, 'LoadLocOptions', 'LocApiErrorCode', 'loadLoc'].sort());
    }
  });

  it('name every code of the error catalogue the API answers with, and no other, in LocApiErrorCode', () => {
    const codes = Object.entries(ERROR_CATALOGUE).filter(([, spec]) => spec.status !== null).map(([code]) => code);
    const check = `
      import type { LocApiErrorCode } from 'loc-js/embed';
      const every: Record<LocApiErrorCode, true> = { ${codes.map((code) => `${code}: true`).join(', ')} };
      const notOne: LocApiErrorCode = 'network';
      void every; void notOne;
    `;
    for (const [name, options] of Object.entries(RESOLUTIONS)) {
      // The embed-only code is the one error: every other line type-checks.
      const errors = consumerErrors(check, options);
      expect(errors, name).toHaveLength(1);
      expect(errors[0], name).toMatch(/^Type '"network"' is not assignable to type '\w+'\.$/);
    }
  });

  it('give <LocPicker> exactly the map’s options, its own props, its container’s attributes and the session: any other prop is a type error', () => {
    // One misuse per line marked WRONG; every other line type-checks.
    const page = [
      `import { LocPicker, type LocPickerMapProps } from 'loc-js/react';`,
      `const session = { baseUrl: 'https://loc.example', sessionToken: 'sid.secret' } as const;`,
      `export const right = <LocPicker {...session} id="map" className="picker" data-testid="loc-map" data-step={2} aria-label="Delivery point" aria-hidden={false} containerStyle={{ maxWidth: 800 }} style="satellite" zoom={12} onSelect={(result) => result.loc_code} />;`,
      `export const options: LocPickerMapProps = { style: 'biking', zoom: 3, title: 'Delivery point' };`,
      `export const misspelt = <LocPicker {...session} colour="red" />; // WRONG`,
      `export const tabIndex = <LocPicker {...session} tabIndex={0} />; // WRONG`,
      `export const css = <LocPicker {...session} style={{ width: 600 }} />; // WRONG`,
      `export const ariaValue = <LocPicker {...session} aria-hidden="maybe" />; // WRONG`,
      `export const notAnOption: LocPickerMapProps = { baseUrl: 'https://loc.example' }; // WRONG`,
    ];
    const wrong = page.flatMap((line, index) => (line.endsWith('// WRONG') ? [index + 1] : []));
    for (const [name, options] of Object.entries(RESOLUTIONS)) {
      expect(erringLines(page.join('\n'), { ...options, jsx: ts.JsxEmit.ReactJSX }, '.tsx'), name).toEqual(wrong);
    }
  });

  it('give Vue’s LocPicker the map’s options, its own props, v-model’s and the session, typed, and its events’ listeners', () => {
    // One misuse per line marked WRONG; every other line type-checks. Other attributes are Vue's to pass to the <div>.
    const page = [
      `import { h, ref } from 'vue';`,
      `import { LocPicker, type LocPickerHandle } from 'loc-js/vue';`,
      `const session = { baseUrl: 'https://loc.example', sessionToken: 'sid.secret' } as const;`,
      `const picker = ref<LocPickerHandle | null>(null);`,
      `const code = ref('');`,
      `export const right = h(LocPicker, { ...session, ref: picker, class: 'map', 'data-testid': 'loc-map', containerStyle: { maxWidth: '800px' }, style: 'satellite', zoom: 12, modelValue: code.value, 'onUpdate:modelValue': (next: string) => (code.value = next), onSelect: (result) => result.loc_code, onLoadError: (error) => error.message });`,
      `export const asked = h(LocPicker, { baseUrl: 'https://loc.example', getSession: async () => 'sid.secret', onError: (error) => error.recoverable });`,
      `export const view = () => picker.value?.setView?.({ lat: 1, lng: 2 }, 12);`,
      `export const noSession = h(LocPicker, { baseUrl: 'https://loc.example' }); // WRONG`,
      `export const night = h(LocPicker, { ...session, style: 'night' }); // WRONG`,
      `export const css = h(LocPicker, { ...session, style: { width: '600px' } }); // WRONG`,
      `export const notACode = h(LocPicker, { ...session, modelValue: 42 }); // WRONG`,
      `export const notAResult = h(LocPicker, { ...session, onSelect: (result: string) => result }); // WRONG`,
    ];
    const wrong = page.flatMap((line, index) => (line.endsWith('// WRONG') ? [index + 1] : []));
    // Vue's own declarations left unchecked: 5 s of Vue's, not loc-js's; the integrator's project
    // (test/integrator/consumer/vue-page.ts) checks every declaration file of the same use.
    for (const [name, options] of Object.entries(RESOLUTIONS)) {
      expect(erringLines(page.join('\n'), { ...options, skipLibCheck: true }, '.mts'), name).toEqual(wrong);
    }
  });

  it('type a pickLocation rejection: a LocPickError whose cause is the map’s LocEmbedError', () => {
    const test = `
      import type { Page } from '@playwright/test';
      import type { LocErrorCode } from 'loc-js/embed';
      import { LocPickError, pickLocation } from 'loc-js/testing';
      export async function choose(page: Page): Promise<LocErrorCode | undefined> {
        try {
          await pickLocation(page, 'FR-0RMB-CLY0');
          return undefined;
        } catch (error) {
          if (!(error instanceof LocPickError)) throw error;
          const name: 'LocPickError' = error.name;
          void name;
          return error.cause?.code;
        }
      }
    `;
    // A Playwright suite runs on Node, with its types; Playwright's own declarations are not this test's.
    for (const [name, options] of Object.entries(RESOLUTIONS)) expect(consumerErrors(test, { ...options, types: ['node'], skipLibCheck: true }), name).toEqual([]);
  });

  it('type the grid, the Leaflet layer and the MapLibre helper: their options, the click’s event and the highlight, any misuse a type error', () => {
    // One misuse per line marked WRONG; every other line type-checks.
    const page = [
      `import * as L from 'leaflet';`,
      `import type { Map as MapLibreMap } from 'maplibre-gl';`,
      `import { cellAt, gridFromTable, linesAt, loadGrid, type CellBounds, type LocGrid } from 'loc-js/grid';`,
      `import { locGridLayer, type LocCellEvent, type LocGridLayer } from 'loc-js/leaflet';`,
      `import { addLocGrid } from 'loc-js/maplibre';`,
      `const grid: Promise<LocGrid> = loadGrid({ baseUrl: 'https://loc.example' });`,
      `const offline: LocGrid = gridFromTable(new ArrayBuffer(8));`,
      `const cell: CellBounds = cellAt(offline, 48.8584, 2.2945);`,
      `export const kind: 'cells' | 'blocks' | undefined = linesAt(offline, cell, 18)?.kind;`,
      `const codeAt = async (lat: number, lng: number) => (await fetch(\`/code?at=\${lat},\${lng}\`)).text();`,
      `export const layer: LocGridLayer = locGridLayer({ grid, codeAt, onCell: (event: LocCellEvent) => event.code?.toUpperCase(), color: '#333' });`,
      `export const added: L.Layer = layer.addTo(L.map('map'));`,
      `export const shown: Promise<CellBounds | null> = layer.highlight('FR-0RMB-CLY0');`,
      `export const handle = (map: MapLibreMap) => addLocGrid(map, { grid: offline, codeAt: () => 'FR-0RMB-CLY0', cellOfCode: () => cell, beforeId: 'labels' });`,
      `export const removed = (map: MapLibreMap) => addLocGrid(map, { grid }).remove();`,
      `export const noGrid = locGridLayer({ codeAt }); // WRONG`,
      `export const notAGrid = cellAt({ columns: 'many' }, 1, 2); // WRONG`,
      `export const badCode = locGridLayer({ grid, codeAt: (lat: number) => lat }); // WRONG`,
      `export const notACell = layer.highlight(42); // WRONG`,
      `export const noMap = addLocGrid(L.map('map'), { grid }); // WRONG`,
    ];
    const wrong = page.flatMap((line, index) => (line.endsWith('// WRONG') ? [index + 1] : []));
    // MapLibre's and Leaflet's own declarations left unchecked: theirs, not loc-js's.
    for (const [name, options] of Object.entries(RESOLUTIONS)) {
      expect(erringLines(page.join('\n'), { ...options, skipLibCheck: true }, '.mts'), name).toEqual(wrong);
    }
  });

  it('have CommonJS twins that differ only in naming .cjs files, and name nothing outside the package but its optional peers: React in its entries, Vue in its, Svelte’s element types in the element’s typings, Playwright’s types in testing.d.ts, Leaflet and MapLibre in theirs', () => {
    for (const file of declarationFiles.filter((name) => name.endsWith('.d.ts'))) {
      const text = readFileSync(join(DIST, file), 'utf8');
      const twin = readFileSync(join(DIST, file.replace(/\.d\.ts$/, '.d.cts')), 'utf8');
      expect(twin.replaceAll(".cjs'", ".js'").replaceAll('.cjs"', '.js"'), file).toBe(text);
      for (const [, specifier] of text.matchAll(/from\s+['"]([^'"]+)['"]/g)) {
        // The optional peers: the integrator's own React and its types, and Playwright's.
        if (PEERS[file] === specifier) continue;
        expect(specifier, `${file} names ${specifier}`).toMatch(/^\.\.?\/.*\.js$/);
        expect(relative(DIST, join(DIST, file, '..', specifier)).startsWith('..'), `${file} names ${specifier}`).toBe(false);
      }
    }
  });
});
