/**
 * /openapi.json as an integrator meets it: the types openapi-typescript (a pinned devDependency)
 * generates from it, and the client example of docs/api.md ("Generating a client") type-checked against
 * those types with openapi-fetch, strictly — in memory, offline, in about a second.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService, type TestService } from '../../test/support/service.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const API_MD = readFileSync(join(HERE, '../../docs/api.md'), 'utf8');

let service: TestService;
let generated: string;

beforeAll(async () => {
  service = await testService();
  generated = astToString(await openapiTS(service.app.swagger() as never));
});
afterAll(() => service.close());

/** The diagnostics of a strict type-check of `files` (kept in memory, beside this test so that node_modules resolve). */
function typeCheck(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true, noEmit: true, skipLibCheck: true, types: ['node'], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  };
  const virtual = new Map(Object.entries(files).map(([name, text]) => [join(HERE, name), text]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = virtual.get(name);
    return text === undefined ? getSourceFile.call(host, name, language, ...rest) : ts.createSourceFile(name, text, language);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName.slice(HERE.length + 1) ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('the types openapi-typescript generates from /openapi.json', () => {
  it('name the models, and leave a request field with a default optional', () => {
    for (const model of ['CellBounds', 'EmbedSession', 'GenerateResult', 'LookupResult', 'ResolveResult']) expect(generated).toContain(`        ${model}: {`);
    expect(generated).toMatch(/cell: components\["schemas"\]\["CellBounds"\];/);
    // ttl and save have defaults: optional in a request (components/schemas would have made them required).
    expect(generated).toMatch(/\n\s+ttl\?: number;/);
    expect(generated).toMatch(/\n\s+save\?: boolean;/);
    expect(generated).toMatch(/"If-None-Match"\?: string;/);
  });

  it('have no unknown or any in a body', () => {
    // Header maps are open (`[name: string]: unknown`): the document lists the headers each response has.
    const loose = generated.split('\n').filter((line) => /\b(unknown|any)\b/.test(line) && !line.includes('[name: string]: unknown'));
    expect(loose).toEqual([]);
  });

  it('type-check the client example of docs/api.md, strictly, with an exhaustive switch over the error codes', () => {
    const example = /### Generating a client[\s\S]*?```ts\n([\s\S]*?)```/.exec(API_MD)?.[1];
    expect(example).toContain("from './loc-api'");
    const exhaustive = `
import createClient from 'openapi-fetch';
import type { paths } from './loc-api';
const loc = createClient<paths>({ baseUrl: 'https://loc.example' });
export async function generate(): Promise<string> {
  const { data, error } = await loc.POST('/v1/loc/generate', { body: { latitude: 1, longitude: 2, label: 'x' } });
  if (data) return data.loc_code;
  switch (error.code) {
    case 'missing_api_key': case 'invalid_api_key': case 'key_inactive': case 'ip_not_allowed': case 'origin_not_allowed':
    case 'invalid_json': case 'unsupported_media_type': case 'payload_too_large': case 'validation_error': case 'unsupported_location':
    case 'rate_limited': case 'service_unavailable': case 'bad_request': case 'request_timeout': case 'expectation_failed':
    case 'headers_too_large': case 'internal_error':
      return error.message;
    default: {
      const never: never = error;
      return never;
    }
  }
}
`;
    expect(typeCheck({ 'loc-api.d.ts': generated, 'example.ts': example!, 'exhaustive.ts': exhaustive })).toEqual([]);
  });
});
