/**
 * Traces of the built `loc serve`: which standard settings turn them on, and those refused; a server
 * on PostgreSQL with its counters in Redis sending its spans over OTLP/HTTP (JSON) to a receiver here
 * — the request down to the PostgreSQL statement and the Redis command, the address search, the trace
 * in the request's log line, no secret anywhere — and a server without the settings that loads no
 * OpenTelemetry module at all.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finished, spawnLoc, type Spawned } from '../../../test/support/loc-process.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from '../../../test/support/postgres.ts';
import { redisServer, stopRedis } from '../../../test/support/redis.ts';
import { VERSION } from '../version.ts';
import { DEV_KEY_FILE } from './dev-seed.ts';
import { TracingSettingError, startTracing, tracingWanted } from './tracing.ts';

describe('which settings turn traces on', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' }, true],
  ])('%j: %s', (env, on) => {
    expect(tracingWanted(env)).toBe(on);
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER=zipkin: loc exports traces over OTLP only (otlp, or none for no traces)'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL=grpc: loc sends OTLP over HTTP (http/json), not grpc'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT=collector:4318: not an http:// or https:// URL (the OTLP/HTTP receiver, e.g. http://otel-collector:4318)'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=not a url: not an http:// or https:// URL (the OTLP/HTTP receiver, e.g. http://otel-collector:4318)'],
  ])('refuses %j before loading anything', async (env, message) => {
    await expect(startTracing(env)).rejects.toThrow(new TracingSettingError(message));
  });
});

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** An OTLP/HTTP receiver: every body it got, as sent. */
async function otlpReceiver(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => void (body += chunk));
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, bodies, server };
}

const attribute = (span: OtlpSpan, key: string): unknown => Object.values(span.attributes.find((a) => a.key === key)?.value ?? {})[0];

/** The names of `span` and of its ancestors, up to the root of its trace. */
function lineage(span: OtlpSpan, spans: OtlpSpan[]): string[] {
  const names = [span.name];
  for (let at = span; at.parentSpanId; ) {
    const parent = spans.find((s) => s.spanId === at.parentSpanId && s.traceId === at.traceId);
    if (parent === undefined) return [...names, `missing ${at.parentSpanId}`];
    names.push(parent.name);
    at = parent;
  }
  return names;
}

/** SIGINT, which stops at once, unlike SIGTERM's drain; resolves with the exit code. */
async function interrupt(server: Spawned): Promise<number | null> {
  server.child.kill('SIGINT');
  return (await server.exited).code;
}

describe('loc serve with traces on, on PostgreSQL with its counters in Redis', () => {
  let db: TestDatabase;
  let dataDir: string;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let server: Spawned;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    receiver = await otlpReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'loc-traces-'));
    server = spawnLoc(['serve', '--seed-dev'], {
      env: {
        PORT: '0', HOST: '127.0.0.1', LOC_DATA_DIR: dataDir, LOC_DATABASE_URL: db.url, LOC_REDIS_URL: (await redisServer()).url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Spans leave in batches; the last ones when the server closes.
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    });
    await server.ready();
  });
  afterAll(async () => {
    if (server.child.exitCode === null) await interrupt(server);
    receiver.server.close();
    await db.dispose();
    rmSync(dataDir, { recursive: true, force: true });
    await stopPostgres();
    await stopRedis();
  });

  it('sends the request down to its statements and commands, the trace in its log line, no key or token anywhere', async () => {
    const { url } = await server.ready();
    const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
    const lookup = await fetch(`${url}/v1/loc/lookup/US-550M-RQ5L`, { headers: { 'x-api-key': key } });
    expect(lookup.status).toBe(200);
    const made = await fetch(`${url}/v1/embed/sessions`, {
      method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ origin: 'http://localhost:5173' }),
    });
    const token = ((await made.json()) as { session_token: string }).session_token;
    const search = await fetch(`${url}/v1/loc/search?q=Lyon`, { headers: { authorization: `Bearer ${token}`, origin: 'http://localhost:5173' } });
    expect(search.status).toBe(200);
    // Secrets where a careless client puts them: a query string, a path.
    await fetch(`${url}/panel/link?token=${encodeURIComponent(token)}`);
    expect((await fetch(`${url}/v1/loc/lookup/${key}`, { headers: { 'x-api-key': key } })).status).toBe(400);
    expect(await interrupt(server)).toBe(0);

    const batches = receiver.bodies.map((body) => JSON.parse(body) as { resourceSpans: Array<{ resource: OtlpSpan; scopeSpans: Array<{ spans: OtlpSpan[] }> }> });
    const spans = batches.flatMap((batch) => batch.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((scope) => scope.spans)));
    const resource = batches[0].resourceSpans[0].resource;
    expect([attribute(resource, 'service.name'), attribute(resource, 'service.version')]).toEqual(['loc', VERSION]);

    const requestTo = (path: string) => spans.find((span) => span.name === 'request' && attribute(span, 'url.path') === path)!;
    const looked = requestTo('/v1/loc/lookup/US-550M-RQ5L');
    expect(attribute(looked, 'http.route')).toBe('/v1/loc/lookup/:code');
    const ofLookup = spans.filter((span) => span.traceId === looked.traceId);
    const statement = ofLookup.find((span) => attribute(span, 'db.system.name') === 'postgresql' && span.name.startsWith('pg.query'));
    expect(statement, `a PostgreSQL statement among ${ofLookup.map((span) => span.name).join(', ')}`).toBeDefined();
    expect(lineage(statement!, spans).at(-1)).toBe('request');
    expect(attribute(statement!, 'db.query.text')).toMatch(/\$1/);
    const command = ofLookup.find((span) => attribute(span, 'db.system.name') === 'redis');
    expect(command, `a Redis command among ${ofLookup.map((span) => span.name).join(', ')}`).toBeDefined();
    expect(lineage(command!, spans)).toEqual([command!.name, 'loc.counters.take', 'request']);
    const searched = spans.find((span) => span.name === 'loc.address.search')!;
    expect(lineage(searched, spans)).toEqual(['loc.address.search', expect.stringMatching(/^handler/), 'request']);
    expect(attribute(spans.find((span) => span.spanId === searched.parentSpanId)!, 'http.route')).toBe('/v1/loc/search');
    expect(attribute(requestTo('/panel/link'), 'url.query')).toBe('token=[redacted]');
    expect(requestTo('/v1/loc/lookup/[redacted]')).toBeDefined();

    const logged = server.output().split('\n').filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.find((line) => (line.req as { url: string }).url === '/v1/loc/lookup/US-550M-RQ5L')).toMatchObject({
      trace_id: looked.traceId, span_id: looked.spanId, trace_flags: '01',
    });

    const sent = receiver.bodies.join('\n');
    for (const secret of [key, token, token.split('.')[1], key.slice('loc_'.length)]) expect(sent).not.toContain(secret);
  });
});

describe('loc serve with a setting it cannot honour', () => {
  it('stops before starting, with one line and exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-refused-'));
    const server = spawnLoc(['serve'], { env: { PORT: '0', LOC_DATA_DIR: dir, OTEL_TRACES_EXPORTER: 'zipkin' } });
    expect(await finished(server)).toBe(2);
    expect(server.output()).toBe('error: OTEL_TRACES_EXPORTER=zipkin: loc exports traces over OTLP only (otlp, or none for no traces)\n');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('loc serve without the settings', () => {
  it('loads no OpenTelemetry module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-untraced-'));
    const loaded = join(dir, 'loaded.json');
    // Preloaded: at exit, writes down every package module the process loaded — OpenTelemetry's are
    // CommonJS, which Node keeps in require's cache however they were imported.
    const preload = join(dir, 'loaded.mjs');
    writeFileSync(preload, `import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const { cache } = createRequire(import.meta.url);
process.on('exit', () => writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(cache))));\n`);
    const server = spawnLoc(['serve'], {
      env: { PORT: '0', HOST: '127.0.0.1', LOC_DATA_DIR: join(dir, 'data'), NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`, OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_TRACES_EXPORTER: '' },
    });
    try {
      const { url } = await server.ready();
      expect((await fetch(`${url}/v1/loc/search?q=Lyon`)).status).toBe(401);
    } finally {
      expect(await interrupt(server)).toBe(0);
    }
    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    rmSync(dir, { recursive: true, force: true });
    // What the service loads is seen…
    expect(modules.filter((module) => module.includes('/node_modules/fastify/'))).not.toEqual([]);
    // …and none of it is OpenTelemetry's.
    expect(modules.filter((module) => /\/node_modules\/(@opentelemetry|@fastify\/otel|import-in-the-middle)\//.test(module))).toEqual([]);
  });
});
