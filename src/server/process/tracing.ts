/**
 * Traces: OpenTelemetry's SDK for `loc serve`, on only when the standard variables ask for it
 * (`tracingWanted`) and then started before the service loads its drivers (cli/bin.ts). Off, none of
 * it is imported: every OpenTelemetry module below is loaded by `startTracing` alone.
 *
 * The spans: the request's (@fastify/otel, which hooks each Fastify instance as it is created, through
 * Fastify's diagnostics channel), PostgreSQL's statements (instrumentation-pg) and Redis' commands
 * (instrumentation-ioredis) from the drivers' own instrumentation, which patches them as they are
 * imported — loc imports both on demand, after this ran, and as ES modules, hence the loader hook —
 * and loc's own (spans.ts). Everything the exporter sends is redacted first (span-redaction.ts).
 */
import { VERSION } from '../version.ts';
import { useTracing } from '../../spans.ts';
import { redactingExporter } from './span-redaction.ts';

/** A standard variable set to what loc cannot do: the start stops with this message. */
export class TracingSettingError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

const given = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim().toLowerCase());

/**
 * Whether the environment asks for traces: an OTLP endpoint, or an exporter other than `none`; the
 * SDK's own switch, `OTEL_SDK_DISABLED=true`, wins.
 */
export function tracingWanted(env: Env): boolean {
  if (given(env.OTEL_SDK_DISABLED) === 'true') return false;
  const exporter = given(env.OTEL_TRACES_EXPORTER);
  if (exporter === 'none') return false;
  return exporter !== undefined || given(env.OTEL_EXPORTER_OTLP_ENDPOINT) !== undefined || given(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) !== undefined;
}

/** Refuses the standard settings loc's one exporter — OTLP over HTTP, as JSON — cannot honour. */
function checkSettings(env: Env): void {
  const exporter = given(env.OTEL_TRACES_EXPORTER);
  if (exporter !== undefined && exporter !== 'otlp') {
    throw new TracingSettingError(`OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER}: loc exports traces over OTLP only (otlp, or none for no traces)`);
  }
  // The exporter drops an endpoint it cannot read without a word, and every span with it.
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const) {
    const endpoint = env[name]?.trim();
    if (endpoint && !/^https?:$/.test(URL.parse(endpoint)?.protocol ?? '')) {
      throw new TracingSettingError(`${name}=${endpoint}: not an http:// or https:// URL (the OTLP/HTTP receiver, e.g. http://otel-collector:4318)`);
    }
  }
  const protocol = given(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? given(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (protocol !== undefined && protocol !== 'http/json' && protocol !== 'http/protobuf') {
    throw new TracingSettingError(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: loc sends OTLP over HTTP (http/json), not ${protocol}`);
  }
}

/** The drivers whose ES modules the loader hook wraps, so that their instrumentation can patch them. */
const HOOKED_MODULES = ['pg', 'ioredis'];

/**
 * Starts the SDK: the loader hook, the tracer provider with its batch exporter, the instrumentations,
 * and loc's own spans. To be awaited before the service imports Fastify's instance, pg or ioredis.
 */
export async function startTracing(env: Env): Promise<void> {
  checkSettings(env);
  const { register } = await import('node:module');
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: HOOKED_MODULES } });
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources, { registerInstrumentations }, { PgInstrumentation }, { IORedisInstrumentation }, { FastifyOtelInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/instrumentation-ioredis'),
      import('@fastify/otel'),
    ]);
  // loc's name and version, under what OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES say.
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'loc', 'service.version': VERSION })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  // The exporter reads OTEL_EXPORTER_OTLP_* (endpoint, headers, timeout), the batch OTEL_BSP_*, the
  // provider OTEL_TRACES_SAMPLER and the limits of spans.
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(redactingExporter(new OTLPTraceExporter()))] });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // The request and its handler: a span for each of the dozen hooks would cost more than it tells.
        instrumentHooks: false,
        // url.path is the path; the query, apart, is redacted on export like the rest.
        requestHook: (span, request) => {
          const question = request.url.indexOf('?');
          if (question < 0) return;
          span.setAttribute('url.path', request.url.slice(0, question));
          span.setAttribute('url.query', request.url.slice(question + 1));
        },
      }),
      // Statements outside a request (migrations, the usage meter's flush) would each be a trace alone.
      // The statement's text is recorded, never its values (enhancedDatabaseReporting stays off). No
      // span for taking a pool connection: one per statement, it doubled the spans of a request, and
      // the pool's waiting is a metric (loc_store_pool_waiting).
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false, ignoreConnectSpans: true }),
      // The command's name alone: its keys and arguments name keys' budgets and carry counts.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  useTracing({ api, flush: () => provider.forceFlush() });
}
