/**
 * loc's own spans in-process, with the real SDK and an exporter that keeps what it is given: a span
 * is the child of the request that was current, none is made outside a request, SQLite's statements,
 * the address search and the request counters make theirs, a log line gets the trace it was
 * written in, and an export a collector refuses is said in the log.
 */
import * as api from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, stopPostgres } from '../test/support/postgres.ts';
import { searchPlaces } from './address/place-names.ts';
import { HOUR_MS } from './durations.ts';
import { flushSpans, inSpan, logTracingProblems, traceFields, tracingOn, useTracing } from './spans.ts';
import type { SettledStep } from './store/counters.ts';
import { openCounters } from './store/open-counters.ts';
import { openSqliteStore } from './store/sqlite/sqlite.ts';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const request = api.trace.getTracer('test');

/** `work` in a span standing for a request, as @fastify/otel makes it; resolves with the request span and what `work` returned. */
async function inRequest<T>(work: () => T | Promise<T>): Promise<{ parent: api.SpanContext; result: T }> {
  return request.startActiveSpan('request', async (span) => {
    const result = await work();
    span.end();
    return { parent: span.spanContext(), result };
  });
}

const finished = (): ReadableSpan[] => exporter.getFinishedSpans();
const named = (name: string): ReadableSpan[] => finished().filter((span) => span.name === name);

beforeAll(() => {
  expect(tracingOn()).toBe(false);
  provider.register();
  useTracing({ api, flush: () => provider.forceFlush() });
});
beforeEach(() => exporter.reset());
afterAll(async () => {
  await provider.shutdown();
  await stopPostgres();
});

describe('inSpan', () => {
  it('makes a child of the current span, ended when the promise settles, and passes a failure on marked', async () => {
    const { parent } = await inRequest(async () => {
      await inSpan('loc.step', { 'loc.n': 1 }, async () => 'done');
      await expect(inSpan('loc.failing', {}, async () => Promise.reject(new TypeError('no')))).rejects.toThrow('no');
    });
    const [step] = named('loc.step');
    expect(step.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(step.spanContext().traceId).toBe(parent.traceId);
    expect(step.attributes).toEqual({ 'loc.n': 1 });
    const [failing] = named('loc.failing');
    expect(failing.status).toEqual({ code: api.SpanStatusCode.ERROR, message: 'TypeError' });
  });

  it('makes no span outside a request', async () => {
    expect(inSpan('loc.alone', {}, () => 42)).toBe(42);
    await flushSpans();
    expect(finished()).toEqual([]);
  });
});

describe('traceFields', () => {
  it('names the current trace in OpenTelemetry\'s log fields, and nothing outside one', async () => {
    const { parent, result } = await inRequest(() => traceFields());
    expect(result).toEqual({ trace_id: parent.traceId, span_id: parent.spanId, trace_flags: '01' });
    expect(traceFields()).toEqual({});
  });
});

describe('SQLite\'s statements', () => {
  it('each run a span under the request, with the statement\'s text and none of its values', async () => {
    const store = openSqliteStore(':memory:');
    try {
      await store.createAccount({ name: 'acme-traced', partner: false, createdAt: Date.now() });
      const { parent } = await inRequest(() => store.findAccount('acme-traced'));
      const statements = finished().filter((span) => span.attributes['db.system.name'] === 'sqlite');
      expect(statements.map((span) => [span.name, span.parentSpanContext?.spanId])).toEqual([['SELECT', parent.spanId]]);
      expect(statements[0].attributes['db.query.text']).toMatch(/^SELECT .* WHERE name = \?$/);
      expect(JSON.stringify(statements[0].attributes)).not.toContain('acme-traced');
    } finally {
      await store.close();
    }
  });
});

describe('the address search', () => {
  it('is a span under the request, which does not hold what was typed', async () => {
    const { parent, result } = await inRequest(() => searchPlaces('Lyon'));
    expect(result[0]).toMatchObject({ name: 'Lyon', country_code: 'FR' });
    const [search] = named('loc.address.search');
    expect(search.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(JSON.stringify(search.attributes)).not.toMatch(/lyon/i);
  });
});

describe('the request counters', () => {
  it('take in a span under the request, and keep a shared engine\'s figures and step observer through the span\'s wrapper', async () => {
    const db = await createTestDatabase({ migrated: true });
    const now = Date.now();
    const counters = await openCounters({ databaseUrl: db.url, redisUrl: null }, () => now);
    try {
      const steps: Omit<SettledStep, 'seconds'>[] = [];
      counters.observeSteps!(({ seconds: _, ...step }) => steps.push(step));
      const { parent } = await inRequest(() => counters.take([{ id: 'traced', limit: 5, resetsAt: now + HOUR_MS, keyId: 'key_1', kind: 'server' }], now));
      expect(named('loc.counters.take').map((span) => span.parentSpanContext?.spanId)).toEqual([parent.spanId]);
      expect(steps).toEqual([{ requests: 1, sets: 1, failed: false }]);
      expect(counters.stats!()).toMatchObject({ steps: 1, failedSteps: 0 });
    } finally {
      await counters.close!();
      await db.dispose();
    }
  });
});

describe('logTracingProblems', () => {
  it('says in the log that a collector refused an export, at most once an interval, the next line with how many were left out', async () => {
    const collector = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(400, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((done) => collector.listen(0, '127.0.0.1', done));
    const lines: { fields: object; message: string }[] = [];
    let clock = 0;
    logTracingProblems({ warn: (fields, message) => lines.push({ fields, message }) }, 10_000, () => clock);
    const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
    // Batched, as loc exports: a batch its timer sends tells the SDK's error handler when it fails.
    const exporter = new OTLPTraceExporter({ url });
    let settled = 0;
    const counted: SpanExporter = {
      export: (spans, done) => exporter.export(spans, (result) => {
        done(result);
        settled++;
      }),
      shutdown: () => exporter.shutdown(),
    };
    const refused = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(counted, { scheduledDelayMillis: 1 })] });
    const send = async (exports: number): Promise<void> => {
      refused.getTracer('test').startSpan('lost').end();
      await vi.waitFor(() => expect(settled).toBe(exports));
    };
    try {
      await send(1);
      await send(2);
      clock = 10_000;
      await send(3);
      await vi.waitFor(() => expect(lines).toHaveLength(2));
      expect(lines).toEqual([
        { fields: { problem: expect.stringContaining('Bad Request') }, message: 'tracing: OpenTelemetry reported a problem' },
        { fields: { problem: expect.stringContaining('Bad Request'), leftOut: 1 }, message: 'tracing: OpenTelemetry reported a problem' },
      ]);
    } finally {
      api.diag.disable();
      await refused.shutdown();
      collector.close();
    }
  });
});
