/**
 * Spans as they leave: a secret anywhere in their text — a URL's path or query, an attribute, a
 * recorded exception — is gone, and what holds none is left as it was.
 */
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { redactingExporter } from './span-redaction.ts';

const KEY = 'loc_Q2hhbmdlIG1lIG5vdyBwbGVhc2UgdGhhbmsgeW91IQ';
const TOKEN = 'cfGUgI7Jyxr9DkPeVUowMA.AtRYJ9Uwx5OM19J5fpksok0I5XMJ9fTfBWQqALuSbTY';

describe('redactingExporter', () => {
  it('sends every span with its secrets redacted, in attributes and events alike', async () => {
    const kept = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(redactingExporter(kept))] });
    const span = provider.getTracer('test').startSpan('request', {
      attributes: {
        'url.path': `/v1/loc/lookup/${encodeURIComponent(KEY)}`,
        'url.query': 'q=Lyon&api_key=abc',
        'http.route': '/v1/loc/lookup/:code',
        'db.query.text': `SELECT 1 FROM t WHERE x = '${TOKEN}'`,
        'loc.list': ['fine', KEY],
        'http.response.status_code': 400,
      },
    });
    span.recordException(new Error(`not a code: ${KEY}`));
    span.end();
    await provider.forceFlush();
    const [sent] = kept.getFinishedSpans();
    expect(sent.attributes).toEqual({
      'url.path': '/v1/loc/lookup/[redacted]',
      'url.query': 'q=Lyon&api_key=[redacted]',
      'http.route': '/v1/loc/lookup/:code',
      'db.query.text': "SELECT 1 FROM t WHERE x = '[redacted]'",
      'loc.list': ['fine', '[redacted]'],
      'http.response.status_code': 400,
    });
    expect(sent.events[0].attributes?.['exception.message']).toBe('not a code: [redacted]');
    expect(JSON.stringify(sent.events)).not.toContain(KEY);
    expect(sent.spanContext().traceId).toBe(span.spanContext().traceId);
    await provider.shutdown();
  });
});
