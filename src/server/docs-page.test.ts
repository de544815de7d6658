/** The /docs page as rendered from the service's own OpenAPI document. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsPage, type OpenApiDocument } from './docs-page.ts';
import { testService, type TestService } from './testing.ts';

let service: TestService;
let html: string;

beforeAll(async () => {
  service = await testService();
  html = docsPage(service.app.swagger() as unknown as OpenApiDocument);
});
afterAll(() => service.close());

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
    expect(labels).toContain('Responses of GET /v1/loc/lookup/{code}');
    expect(labels).toContain('Error codes');
    expect(new Set(labels).size).toBe(labels.length);
  });
});
