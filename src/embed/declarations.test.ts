/**
 * The declarations integrators get (`dist/embed/loc-embed.d.ts`) type-check an integrator's page: the
 * global `LOC`, the option shapes, the callbacks' arguments — and reject what the loader would reject.
 * The form field's (`dist/embed/loc-picker.d.ts`) type `<loc-picker>` as the DOM gives it, its events'
 * payloads and its properties.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const DECLARATIONS = new URL('../../dist/embed/loc-embed.d.ts', import.meta.url).pathname;
const PICKER_DECLARATIONS = new URL('../../dist/embed/loc-picker.d.ts', import.meta.url).pathname;

const PAGES = {
  good: `
    import type { LocAbortError, LocEmbedError, LocErrorCode } from '${DECLARATIONS.replace(/\.d\.ts$/, '')}';
    const handle = LOC.mount('#map', {
      sessionToken: 'sid.secret',
      center: [48.8584, 2.2945],
      zoom: 18,
      style: 'satellite',
      locale: 'pt-BR',
      appearance: { theme: 'auto', variables: { colorPrimary: '#0b57d0', colorCell: 'rebeccapurple', fontFamily: 'Georgia, serif', borderRadius: '4px' } },
      getSessionToken: async () => 'sid2.secret',
      onSelect(result) {
        const code: string = result.loc_code; const north: number = result.cell.north; void code; void north;
        const byPage: boolean = result.source === 'page' || result.source === 'visitor'; void byPage;
      },
      onError(error) { if (error.code === 'session_expired' && !error.recoverable) handle.destroy(); if (error.code === 'invalid_option') console.warn(error.message); },
      onReady(info) { const zoom: number = info.zoom; const opened: string | undefined = info.value?.loc_code; void zoom; void opened; },
      onPreview(result) { const saved: boolean = result.saved; void saved; },
      onClear() {},
      value: 'FR-0RMB-CLY0',
      search: false,
    });
    handle.setStyle('biking');
    handle.setView({ lat: 1, lng: 2 });
    handle.select('FR-0RMB-CQXT').then((result) => { const from: 'visitor' | 'page' = result.source; void from; });
    handle.select({ lat: 48.8584, lng: 2.2945 }).catch((error: LocEmbedError | LocAbortError) => {
      if ('code' in error && (error.code === 'invalid_code' || error.code === 'code_not_found')) return;
      if ('name' in error && error.name === 'AbortError') return;
    });
    // Told apart by name, as an aborted fetch's error, or by code.
    handle.clear().catch((error: LocEmbedError | LocAbortError) => {
      if (error.name === 'AbortError') { const why: string = error.message; void why; return; }
      const code: LocErrorCode = error.code; const stopped: boolean = !error.recoverable; void code; void stopped;
    });
    handle.select('FR-0RMB-CQXT').catch((error: LocEmbedError | LocAbortError) => {
      if (error.code !== undefined) { const again: boolean = error.recoverable; void again; } else { const name: 'AbortError' = error.name; void name; }
    });
    const cleared: Promise<void> = handle.clear();
    void cleared;
    // A token at hand needs no promise.
    LOC.mount('#other', { sessionToken: 'sid.secret', getSessionToken: () => 'sid3.secret' });
    const frame: HTMLIFrameElement = handle.iframe;
    void frame;
    export {};
  `,
  bad: `
    LOC.mount('#map', { sessionToken: 'sid.secret', style: 'night' });
    LOC.mount('#map', { center: [1, 2] });
    LOC.mount('#map', { sessionToken: 'sid.secret', onselect() {} });
    LOC.mount('#map', { sessionToken: 'sid.secret' }).setView({ latitude: 1, longitude: 2 });
    LOC.mount('#map', { sessionToken: 'sid.secret', onError(error) { if (error.code === 'no_such_code') {} } });
    LOC.mount('#map', { sessionToken: 'sid.secret' }).select(42);
    LOC.mount('#map', { sessionToken: 'sid.secret', onSelect(result) { if (result.source === 'integrator') {} } });
    LOC.mount('#map', { sessionToken: 'sid.secret', value: { lat: 1, lng: 2 } });
    LOC.mount('#map', { sessionToken: 'sid.secret', onPreview(result) { if (result.source === 'visitor') {} } });
    LOC.mount('#map', { sessionToken: 'sid.secret', appearance: { theme: 'night' } });
    LOC.mount('#map', { sessionToken: 'sid.secret', appearance: { variables: { accent: 'red' } } });
    LOC.mount('#map', { sessionToken: 'sid.secret', locale: ['fr'] });
    export {};
  `,
};

const PICKER_PAGES = {
  good: `
    import type { LocEmbedError, LocPickerElement } from '${PICKER_DECLARATIONS.replace(/\.d\.ts$/, '')}';
    const picker = document.querySelector('loc-picker')!;
    picker.addEventListener('loc-select', (event) => { const code: string = event.detail.loc_code; const by: 'visitor' | 'page' = event.detail.source; void code; void by; });
    picker.addEventListener('loc-ready', (event) => { const message: string = event.detail.requiredMessage; void message; });
    picker.addEventListener('loc-error', (event) => { const error: LocEmbedError = event.detail; void error; });
    picker.addEventListener('loc-load-error', (event) => { event.preventDefault(); const why: string = event.detail.message; void why; });
    picker.addEventListener('change', function () { const code: string = this.value; void code; });
    picker.getSessionToken = async () => 'sid.secret';
    picker.sessionToken = 'sid.secret';
    picker.appearance = { theme: 'dark', variables: { colorPrimary: '#0b57d0' } };
    picker.value = 'FR-0RMB-CLY0';
    picker.required = true;
    const valid: boolean = picker.checkValidity() && picker.validity.valueMissing === false;
    const form: HTMLFormElement | null = picker.form;
    picker.select('FR-0RMB-CQXT').then((result) => { const from: 'visitor' | 'page' = result.source; void from; });
    const created: LocPickerElement = document.createElement('loc-picker');
    void valid; void form; void created;
    export {};
  `,
  bad: `
    import type {} from '${PICKER_DECLARATIONS.replace(/\.d\.ts$/, '')}';
    const picker = document.querySelector('loc-picker')!;
    picker.addEventListener('loc-select', (event) => event.detail.code);
    picker.addEventListener('loc-error', (event) => { if (event.detail.code === 'no_such_code') {} });
    picker.appearance = { theme: 'night' };
    picker.value = 42;
    picker.getSessionToken = 'sid.secret';
    picker.select(42);
    export {};
  `,
};

/** Type errors per page, each compiled as an integrator's script beside the declarations, in one program. */
function errorsOf(pages: Record<string, string>, declarations = DECLARATIONS): Record<string, string[]> {
  const files = Object.fromEntries(Object.entries(pages).map(([name, code]) => [`/virtual/${name}.ts`, code]));
  // The declarations themselves are tsc's own output; checking the pages is what matters, and fast.
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] };
  const host = ts.createCompilerHost(options);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name in files || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => (name in files ? ts.createSourceFile(name, files[name], version) : getSourceFile(name, version));
  const program = ts.createProgram([declarations, ...Object.keys(files)], options, host);
  return Object.fromEntries(
    Object.keys(pages).map((name) => [
      name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(`/virtual/${name}.ts`)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
}

describe('loc-embed.d.ts', () => {
  const errors = errorsOf(PAGES);

  it('types an integrator’s use of LOC', () => {
    expect(errors.good).toEqual([]);
  });

  it('rejects what the loader would reject', () => {
    expect(errors.bad).toHaveLength(12);
  });
});

describe('loc-picker.d.ts', () => {
  const errors = errorsOf(PICKER_PAGES, PICKER_DECLARATIONS);

  it('types <loc-picker> as the DOM gives it: its events’ payloads, its properties and methods', () => {
    expect(errors.good).toEqual([]);
  });

  it('rejects a wrong payload, property or argument', () => {
    expect(errors.bad).toHaveLength(6);
  });
});
