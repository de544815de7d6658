/**
 * Span redaction: the last step before spans leave the process. Keys and tokens travel in headers,
 * which no span records, but a client may paste one into a URL, and an error message or a statement
 * may quote what it was given: so every text a span carries — attributes and events (a recorded
 * exception) — is searched as the logs are (logs/redact.ts), and the URL's parts decoded as the server
 * reads them. Done once per span in the export batch, away from the request.
 */
import type { AttributeValue, Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { redactLine, redactUrl } from '../logs/redact.ts';

/** Attributes that hold a URL or a part of one: a query parameter named like a secret loses its value whatever it is. */
const URL_ATTRIBUTES = new Set(['url.full', 'url.path', 'url.query', 'http.target', 'http.url']);

/** A text attribute: a URL's part as the logs' URLs are, then any secret-shaped run wherever it is. */
function redactText(name: string, text: string): string {
  if (!URL_ATTRIBUTES.has(name)) return redactLine(text);
  return redactLine(name === 'url.query' ? redactUrl(`?${text}`).slice(1) : redactUrl(text));
}

function redactValue(name: string, value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return redactText(name, value);
  if (Array.isArray(value) && value.some((item) => typeof item === 'string' && redactLine(item) !== item)) {
    return value.map((item) => (typeof item === 'string' ? redactLine(item) : item)) as AttributeValue;
  }
  return value;
}

/**
 * Redacts `attributes` where they are. A finished span's are its own, and the exporter is the last to
 * read them: a copy of every span (a wrapper, or a new object) cost as much as the rest of the export.
 */
function redactAttributes(attributes: Attributes): void {
  for (const name in attributes) {
    const value = attributes[name];
    const redacted = redactValue(name, value);
    if (redacted !== value) attributes[name] = redacted;
  }
}

/** `span`'s attributes and events' attributes (a recorded exception's message and stack), redacted. */
function redactSpan(span: ReadableSpan): ReadableSpan {
  redactAttributes(span.attributes);
  for (const event of span.events) if (event.attributes !== undefined) redactAttributes(event.attributes);
  return span;
}

/** `exporter`, given every span redacted. */
export function redactingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(redactSpan), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
