/** The /docs page as rendered from the service's own OpenAPI document. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsPage, type OpenApiDocument } from './docs-page.ts';
import { testService, type TestService } from '../../../test/support/service.ts';

let service: TestService;
let html: string;

beforeAll(async () => {
  service = await testService();
  html = docsPage(service.app.swagger() as unknown as OpenApiDocument);
});
afterAll(() => service.close());

/** The part of the page about one endpoint, up to the next heading. */
const section = (id: string): string => {
  const start = html.indexOf(`<h3 id="${id}">`);
  return html.slice(start, html.indexOf('<h', start + 1));
};

describe('the API reference page', () => {
  it('puts every table in a box of its own that scrolls sideways, so a phone never scrolls the page', () => {
    const tables = html.match(/<table>/g) ?? [];
    const boxed = html.match(/<div class="table-scroll" role="region" tabindex="0" aria-label="[^"]+"><table>/g) ?? [];
    expect(tables.length).toBeGreaterThan(5);
    expect(boxed).toHaveLength(tables.length);
    expect(html).toMatch(/\.table-scroll \{ overflow-x: auto;/);
  });

  it('names each box by what its table holds, for the keyboard user whose focus lands on it', () => {
    const labels = [...html.matchAll(/class="table-scroll" role="region" tabindex="0" aria-label="([^"]+)"/g)].map((match) => match[1]);
    expect(labels).toContain('JSON body of POST /v1/embed/sessions');
    expect(labels).toContain('Path parameters of GET /v1/loc/lookup/{code}');
    expect(labels).toContain('Request headers of GET /v1/loc/lookup/{code}');
    expect(labels).toContain('Query parameters of GET /v1/loc/suggest');
    expect(labels).toContain('Responses of GET /v1/loc/lookup/{code}');
    expect(labels).toContain('Error codes');
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('shows what each endpoint returns: the success response described, with its fields and those of its nested objects', () => {
    const lookup = section('get-/v1/loc/lookup/{code}');
    // The model's name, as a generated client names its type (components/schemas of /openapi.json).
    expect(lookup).toContain('<p>200 response, JSON (<code>LookupResult</code>): The cell of the code, your saved text for it, and links to open it.</p>');
    expect(lookup).toContain('<div class="table-scroll" role="region" tabindex="0" aria-label="200 response of GET /v1/loc/lookup/{code}"><table><tr><th>field</th><th>type</th><th>present</th><th>rules</th><th>notes</th></tr>');
    expect(lookup).toContain('<tr><td><code>success</code></td><td>true</td><td>always</td><td></td><td>Always <code>true</code> in a success response.</td></tr>');
    expect(lookup).toContain('<tr><td><code>location</code></td><td>object</td>');
    expect(lookup).toContain('<tr><td><code>location.label</code></td><td>string or null</td><td>always</td><td></td><td>Your saved label, else null.</td></tr>');
    expect(lookup).toContain('<tr><td><code>cell.north</code></td><td>number</td>');
    expect(lookup).toContain('<tr><td><code>maps.geo</code></td><td>string</td>');
    expect(lookup).toContain('<tr><td><code>share_url</code></td><td>string</td><td>always</td><td>uri</td>');
    expect(lookup).toContain('<tr><td>200</td><td>The cell of the code, your saved text for it, and links to open it.</td></tr>');
    expect(section('post-/v1/embed/resolve')).toContain('<tr><td><code>saved</code></td><td>boolean</td>');
    expect(section('post-/v1/embed/resolve')).toContain('<tr><td><code>cell.west</code></td><td>number</td>');
    expect(section('post-/v1/loc/generate')).toContain('<tr><td><code>is_existing</code></td><td>boolean</td>');
    expect(section('get-/healthz')).toContain('<tr><td><code>status</code></td><td>&quot;ok&quot;</td>');
    expect(html).not.toContain('Default Response');
  });

  it('says how each endpoint is called, an optional credential as none or that credential', () => {
    const authentication = [...html.matchAll(/<p class="muted">Authentication: (.*?) · /g)].map((match) => match[1]);
    expect(authentication).toEqual([
      'none',
      'none',
      'none',
      '<code>x-api-key</code>',
      '<code>x-api-key</code> or <code>Authorization: Bearer &lt;session_token&gt;</code>',
      '<code>x-api-key</code>',
      '<code>x-api-key</code>',
      '<code>x-api-key</code> or <code>Authorization: Bearer &lt;session_token&gt;</code>',
      '<code>x-api-key</code> or <code>Authorization: Bearer &lt;session_token&gt;</code>',
      '<code>x-api-key</code> or <code>Authorization: Bearer &lt;session_token&gt;</code>',
      'none or <code>Authorization: Bearer &lt;session_token&gt;</code>',
    ]);
  });

  it('gives each endpoint’s operationId, the name of its method in a generated client', () => {
    expect(section('get-/v1/loc/lookup/{code}')).toContain('<p class="muted">Authentication: <code>x-api-key</code> · operationId <code>lookupCode</code></p>');
    expect([...html.matchAll(/ · operationId <code>(\w+)<\/code><\/p>/g)].map((match) => match[1]))
      .toEqual(['getHealth', 'getLiveness', 'getReadiness', 'createEmbedSession', 'resolvePoint', 'generateCode', 'lookupCode', 'suggestCodes', 'search', 'getGrid', 'getEmbedSession']);
  });

  it('lists the error codes of each status, each linked to its row of the Errors table', () => {
    const lookup = section('get-/v1/loc/lookup/{code}');
    expect(lookup).toContain('<tr><td>404</td><td><a href="#error-code_not_found"><code>code_not_found</code></a></td></tr>');
    expect(lookup).toContain('<tr><td>400</td><td><a href="#error-invalid_code"><code>invalid_code</code></a>, <a href="#error-bad_request"><code>bad_request</code></a></td></tr>');
    expect(lookup).toMatch(/<tr><td>default<\/td><td>Any other refusal or failure, in the same shape: 408 <a href="#error-request_timeout"><code>request_timeout<\/code><\/a>, /);
    const targets = new Set([...html.matchAll(/<tr id="error-(\w+)">/g)].map((match) => match[1]));
    const links = [...html.matchAll(/<a href="#error-(\w+)">/g)].map((match) => match[1]);
    expect(links.length).toBeGreaterThan(30);
    expect(links.filter((code) => !targets.has(code))).toEqual([]);
  });

  it('gives each endpoint’s response headers once each, with the statuses that carry them (or do not), instead of a column on every status', () => {
    const lookup = section('get-/v1/loc/lookup/{code}');
    expect(lookup).toContain('<div class="table-scroll" role="region" tabindex="0" aria-label="Response headers of GET /v1/loc/lookup/{code}"><table><tr><th>header</th><th>with</th><th>value</th><th>notes</th></tr>');
    expect(lookup).toContain('<tr><td><code>RateLimit-Remaining</code></td><td>all but 401, 403</td><td>integer</td><td>Requests that budget has left.</td></tr>');
    expect(lookup).toContain('<tr><td><code>Cache-Control</code></td><td>200, 304</td><td>&quot;private, max-age=300&quot;</td>');
    expect(lookup).toContain('<tr><td><code>Retry-After</code></td><td>429, 503</td><td>integer</td>');
    expect(lookup.match(/<tr><td><code>ETag<\/code><\/td>/g)).toHaveLength(1);
    expect(section('get-/embed/session/{sid}')).toContain('<tr><td><code>Access-Control-Allow-Origin</code></td><td>all</td><td>&quot;*&quot;</td>');
    expect(section('get-/healthz')).toContain('<tr><td><code>Cache-Control</code></td><td>200</td><td>&quot;no-store&quot;</td>');
    expect(section('get-/healthz')).not.toContain('RateLimit');
    expect(section('post-/v1/embed/sessions')).toContain('<tr><td><code>RateLimit-Limit</code></td><td>all but 401</td>');
  });
});
