/**
 * The API reference page (`/docs`), rendered from the OpenAPI document that the route schemas
 * generate, plus the error catalogue: what the page says is what the server validates. Each endpoint
 * shows its operationId (the method name of a generated client), its fields, its statuses with the
 * error codes of each (linked to the catalogue) and the headers its responses carry.
 */
import { ERROR_CATALOGUE } from '../../errors.ts';
import { escapeHtml, inlineCode, page } from './html.ts';
import { EMBED_GUIDE_PATH, EMBED_TYPES_PATH, INTEGRATOR_PACKAGE, guidePath } from './guides.ts';
import { inlineSchemaRefs } from '../http/openapi-components.ts';

interface Schema {
  /** The model's name in components/schemas, which a generated client names its type by. */
  title?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
  format?: string;
  anyOf?: Schema[];
  const?: unknown;
  /** OpenAPI 3.0's spelling of a TypeBox literal (`const`): one value. */
  enum?: unknown[];
  /** OpenAPI 3.0's spelling of a union with null. */
  nullable?: boolean;
}

interface Header {
  description?: string;
  schema?: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; headers?: Record<string, Header>; content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

function typeOf(schema: Schema): string {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const type = schema.enum ? schema.enum.map((value) => JSON.stringify(value)).join(' or ') : String(schema.type ?? 'any');
  return schema.nullable ? `${type} or null` : type;
}

function rules(schema: Schema): string {
  const out: string[] = [];
  if (schema.minimum !== undefined || schema.maximum !== undefined) out.push(`${schema.minimum ?? '…'} to ${schema.maximum ?? '…'}`);
  if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`);
  if (schema.format !== undefined) out.push(schema.format);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out.join('; ');
}

/**
 * A table in its scroll box. The box takes keyboard focus so that it can be scrolled without a
 * pointer, and is a named region so that what takes focus says what it holds.
 */
function scrollTable(label: string, table: string): string {
  return `<div class="table-scroll" role="region" tabindex="0" aria-label="${escapeHtml(label)}">${table}</div>`;
}

interface Field {
  name: string;
  schema: Schema;
  required: boolean;
}

/**
 * The fields of an object schema, each nested object's own fields right after it as `parent.child`:
 * a response's `cell`, `location` and `maps` are objects, and an integrator needs what is in them.
 */
function fieldsOf(schema: Schema, prefix = ''): Field[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => [
    { name: `${prefix}${name}`, schema: field, required: required.has(name) },
    ...fieldsOf(field, `${prefix}${name}.`),
  ]);
}

/** Request fields are required or not; response fields are always there or not. */
const PRESENCE = {
  request: { heading: 'required', yes: 'yes', no: 'no' },
  response: { heading: 'present', yes: 'always', no: 'sometimes' },
};

function fieldTable(label: string, fields: Field[], presence = PRESENCE.request): string {
  const rows = fields.map(({ name, schema, required }) =>
    `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeOf(schema))}</td><td>${required ? presence.yes : presence.no}</td>` +
    `<td>${escapeHtml(rules(schema))}</td><td>${inlineCode(schema.description ?? '')}</td></tr>`);
  return scrollTable(label, `<table><tr><th>field</th><th>type</th><th>${presence.heading}</th><th>rules</th><th>notes</th></tr>${rows.join('')}</table>`);
}

/** How each security scheme of app.ts is sent. */
const CREDENTIALS: Record<string, string> = {
  apiKey: '<code>x-api-key</code>',
  sessionToken: '<code>Authorization: Bearer &lt;session_token&gt;</code>',
};

/** The catalogue's codes in a description, each linked to its row of the Errors table. */
function linkCodes(html: string): string {
  return html.replace(/<code>([a-z_]+)<\/code>/g, (tag, code: string) => (code in ERROR_CATALOGUE ? `<a href="#error-${code}">${tag}</a>` : tag));
}

/**
 * The headers of an operation's responses, one row each with the statuses that carry it: RateLimit-*
 * would be a column of noise in the responses table, repeated on nearly every row.
 */
function headerTable(name: string, op: Operation): string {
  const rows = new Map<string, { statuses: string[]; header: Header }>();
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    for (const [header, spec] of Object.entries(response.headers ?? {})) {
      const row = rows.get(header) ?? { statuses: [], header: spec };
      row.statuses.push(status);
      rows.set(header, row);
    }
  }
  if (rows.size === 0) return '';
  const all = Object.keys(op.responses ?? {});
  const carriedBy = (statuses: string[]): string => {
    const others = all.filter((status) => !statuses.includes(status));
    if (others.length === 0) return 'all';
    return statuses.length > others.length + 1 ? `all but ${others.join(', ')}` : statuses.join(', ');
  };
  const cells = [...rows].map(([header, { statuses, header: spec }]) =>
    `<tr><td><code>${escapeHtml(header)}</code></td><td>${escapeHtml(carriedBy(statuses))}</td>` +
    `<td>${escapeHtml(spec.schema ? typeOf(spec.schema) : '')}</td><td>${inlineCode(spec.description ?? '')}</td></tr>`);
  return scrollTable(`Response headers of ${name}`, `<table><tr><th>header</th><th>with</th><th>value</th><th>notes</th></tr>${cells.join('')}</table>`);
}

/** The model a schema is, as a generated client names it. */
const model = (schema: Schema): string => (schema.title === undefined ? '' : ` (<code>${escapeHtml(schema.title)}</code>)`);

function operation(method: string, path: string, op: Operation): string {
  const name = `${method.toUpperCase()} ${path}`;
  const parts = [`<h3 id="${escapeHtml(`${method}-${path}`)}"><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`];
  if (op.summary) parts.push(`<p><strong>${escapeHtml(op.summary)}.</strong> ${inlineCode(op.description ?? '')}</p>`);
  // Each requirement is one way in; an empty one is none at all (the credential is optional).
  const ways = (op.security ?? [{}]).map((requirement) => Object.keys(requirement).map((s) => CREDENTIALS[s] ?? escapeHtml(s)).join(' and ') || 'none');
  const id = op.operationId === undefined ? '' : ` · operationId <code>${escapeHtml(op.operationId)}</code>`;
  parts.push(`<p class="muted">Authentication: ${ways.join(' or ')}${id}</p>`);
  for (const [where, label] of [['path', 'Path parameters'], ['query', 'Query parameters'], ['header', 'Request headers']] as const) {
    const params = (op.parameters ?? []).filter((p) => p.in === where);
    if (params.length > 0) parts.push(fieldTable(`${label} of ${name}`, params.map((p) => ({ name: p.name, schema: { ...p.schema, description: p.description ?? p.schema?.description }, required: p.required === true }))));
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body?.properties) {
    parts.push(`<p>JSON body${model(body)} (unknown fields are refused):</p>`);
    parts.push(fieldTable(`JSON body of ${name}`, fieldsOf(body)));
  }
  // The success responses' fields; the error responses all share the body the Errors section shows.
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const schema = response.content?.['application/json']?.schema;
    if (!/^2/.test(status) || !schema?.properties) continue;
    parts.push(`<p>${escapeHtml(status)} response, JSON${model(schema)}: ${inlineCode(response.description ?? '')}</p>`);
    parts.push(fieldTable(`${status} response of ${name}`, fieldsOf(schema), PRESENCE.response));
  }
  const responses = Object.entries(op.responses ?? {}).map(([status, r]) => `<tr><td>${escapeHtml(status)}</td><td>${linkCodes(inlineCode(r.description ?? ''))}</td></tr>`);
  parts.push(scrollTable(`Responses of ${name}`, `<table><tr><th>status</th><th>meaning</th></tr>${responses.join('')}</table>`));
  const headers = headerTable(name, op);
  if (headers !== '') parts.push(headers);
  return parts.join('\n');
}

export function docsPage(document: OpenApiDocument): string {
  // The models are in components/schemas; the tables show their fields where they are used.
  const doc = inlineSchemaRefs(document);
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => operation(method, path, op)));
  const errors = Object.entries(ERROR_CATALOGUE)
    .filter(([, spec]) => spec.status !== null)
    .map(([code, spec]) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${spec.status}</td><td>${escapeHtml(spec.message)}</td></tr>`);
  return page({
    title: `${doc.info.title} reference`,
    body: `
<h1>${escapeHtml(doc.info.title)} <span class="muted">${escapeHtml(doc.info.version)}</span></h1>
<p>${inlineCode(doc.info.description ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3).</p>
<p>New here? <a href="${guidePath('quickstart.md')}">The quick start</a>: a session, the map, the types and the cost of one checkout, in five minutes.
Testing your integration (test keys, <code>loc mock</code>, the <code>${INTEGRATOR_PACKAGE}/testing</code> helpers): <a href="${guidePath('testing-your-integration.md')}">the testing guide</a>.</p>
<p>The map picker in your page: <a href="${EMBED_GUIDE_PATH}">the embed guide</a> (<code>LOC.mount</code>, its options,
callbacks and errors), its TypeScript declarations at <a href="${EMBED_TYPES_PATH}">${EMBED_TYPES_PATH}</a>, and the npm package
<code>${INTEGRATOR_PACKAGE}</code> (<code>loadLoc</code>, the same types, the code's format).</p>
<h2>Endpoints</h2>
${operations.join('\n')}
<h2>Errors</h2>
<p>Every failure is JSON <code>{ "success": false, "code", "message", "error" }</code>; <code>error</code> repeats <code>message</code>,
and <code>field</code> names the request field at fault when there is one.</p>
${scrollTable('Error codes', `<table><tr><th>code</th><th>status</th><th>default message</th></tr>${errors.join('')}</table>`)}`,
  });
}
