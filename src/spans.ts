/**
 * loc's own spans: what no driver's instrumentation sees — the address search, the request counters
 * taken, SQLite's statements — the trace fields of a log line, and OpenTelemetry's own problems in
 * loc's log. Tracing is off unless the process
 * turned it on (server/process/tracing.ts hands its API here); off, each function is one test of
 * `undefined` and @opentelemetry/api is never loaded, so a service that does not trace pays nothing.
 */
import type * as Api from '@opentelemetry/api';

/** What the process's tracing gives: the API it loaded, and a way to send what is still buffered. */
export interface Tracing {
  api: typeof Api;
  flush(): Promise<void>;
}

let tracing: Tracing | undefined;
let tracer: Api.Tracer | undefined;

/** Turns loc's own spans on, once the SDK is registered: from now on they go to its tracer. */
export function useTracing(given: Tracing): void {
  tracing = given;
  tracer = given.api.trace.getTracer('loc');
}

export const tracingOn = (): boolean => tracing !== undefined;

/** Sends the spans still buffered; nothing when tracing is off. */
export const flushSpans = async (): Promise<void> => tracing?.flush();

/**
 * `work` inside a span `name`, the current span for whatever it calls (a driver's statement becomes
 * its child); a promise ends the span when it settles. A failure marks the span, and is passed on.
 * Only within a span already current — a request's: work outside any (a timer's flush, a migration)
 * would make a trace of its own for each step, as the drivers' instrumentation is told not to.
 */
export function inSpan<T>(name: string, attributes: Api.Attributes, work: () => T): T {
  if (tracer === undefined || tracing!.api.trace.getActiveSpan() === undefined) return work();
  const failed = tracing!.api.SpanStatusCode.ERROR;
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    const fail = (error: unknown): never => {
      span.setStatus({ code: failed, message: error instanceof Error ? error.name : 'error' });
      span.end();
      throw error;
    };
    try {
      const result = work();
      if (result instanceof Promise) {
        return result.then((value: unknown) => {
          span.end();
          return value;
        }, fail) as T;
      }
      span.end();
      return result;
    } catch (error) {
      return fail(error);
    }
  });
}

/**
 * The trace of the span current where a log line is written, in OpenTelemetry's log fields; none
 * outside a traced request. pino's `mixin` (server/app.ts) adds them to each line.
 */
export function traceFields(): Record<string, string> {
  const span = tracing?.api.trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags.toString(16).padStart(2, '0') };
}

/** Where OpenTelemetry's problems are written: a line with its fields and a message, as pino takes it. */
export interface ProblemLog {
  warn(fields: object, message: string): void;
}

/**
 * Writes OpenTelemetry's own warnings and errors — above all an export the collector refused or
 * never answered, whose spans are then dropped — to `log`, at most one line each `everyMs`, the next
 * saying how many were left out: a collector that is down fails every batch, every few seconds, in
 * each process. Without it they go nowhere, and traces stop without a word. Nothing when tracing is off.
 */
export function logTracingProblems(log: ProblemLog, everyMs: number, now: () => number = Date.now): void {
  if (tracing === undefined) return;
  let lastAt = -Infinity;
  let leftOut = 0;
  const write = (message: string, ...details: unknown[]): void => {
    if (now() - lastAt < everyMs) {
      leftOut++;
      return;
    }
    log.warn({ problem: [message, ...details].map(String).join(' '), ...(leftOut > 0 ? { leftOut } : {}) }, 'tracing: OpenTelemetry reported a problem');
    lastAt = now();
    leftOut = 0;
  };
  const quiet = (): void => {};
  tracing.api.diag.setLogger({ error: write, warn: write, info: quiet, debug: quiet, verbose: quiet }, { logLevel: tracing.api.DiagLogLevel.WARN, suppressOverrideMessage: true });
}
