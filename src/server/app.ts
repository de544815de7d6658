/**
 * Builds the loc service: a ready Fastify instance with every plugin and route, never listening
 * (server.ts listens). Tests call `buildApp` and talk to it with `app.inject()`.
 */
import swagger from '@fastify/swagger';
import { hostname } from 'node:os';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Server } from 'node:http';
import type { Counters } from '../store/counters.ts';
import type { Store } from '../store/store.ts';
import type { Config } from './config.ts';
import type { Failure } from './mock/failures.ts';
import type { Registry } from './metrics/metric-group.ts';
import { openApiOptions } from './http/openapi-document.ts';
import { REDACTED, redactLine, redactUrl } from './logs/redact.ts';
import { REQUEST_LOG_LEVELS, logRequest } from './logs/request-log.ts';
import addressesPlugin from './plugins/addresses.ts';
import clientAddressPlugin from './plugins/client-address.ts';
import authPlugin from './plugins/auth.ts';
import configPlugin from './plugins/config.ts';
import drainingPlugin from './plugins/draining.ts';
import { embedAssets } from './embed/assets.ts';
import embedRoutes from './routes/embed.ts';
import errorsPlugin, { frameworkErrorHandler } from './plugins/errors.ts';
import jsonBodyPlugin from './plugins/json-body.ts';
import mockFailuresPlugin from './plugins/mock-failures.ts';
import mockKeysPlugin from './plugins/mock-keys.ts';
import outagesPlugin from './plugins/outages.ts';
import portCallsPlugin from './plugins/port-calls.ts';
import overloadPlugin from './plugins/overload.ts';
import protocolPlugin, { clientErrorHandler } from './plugins/protocol.ts';
import rateLimitPlugin from './plugins/rate-limit.ts';
import readinessPlugin from './plugins/readiness.ts';
import storePlugin from './plugins/store.ts';
import generateRoutes from './routes/generate.ts';
import gridRoutes from './routes/grid.ts';
import healthRoutes from './routes/health.ts';
import lookupRoutes from './routes/lookup.ts';
import metaRoutes from './routes/meta.ts';
import resolveRoutes from './routes/resolve.ts';
import searchRoutes from './routes/search.ts';
import requestIdPlugin, { newRequestId } from './plugins/request-id.ts';
import securityHeadersPlugin from './plugins/security-headers.ts';
import sessionRoutes from './routes/sessions.ts';
import shareRoutes from './routes/share.ts';
import suggestRoutes from './routes/suggest.ts';
import { lazySchemaController } from './http/lazy-schemas.ts';
import { flushSpans, logTracingProblems, traceFields, tracingOn } from '../spans.ts';
import { passwordsPlugin, type PasswordCost } from '../panel/password-hasher.ts';
import panelPlugin from '../panel/plugin.ts';

/** Largest request body accepted: coordinates and two short texts fit many times. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * A request must arrive whole — headers and body — within this time, or Node answers 408
 * `request_timeout` (plugins/protocol.ts) and closes the connection: a client that stalls mid-body
 * would otherwise hold its connection forever (Fastify turns Node's own limit off by default).
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Where log lines go (pino writes one JSON line per call). */
export interface LogStream {
  write(line: string): void;
}

export interface AppOptions {
  /** The clock; default `Date.now`. Tests inject one they move. */
  now?: () => number;
  /** A store the caller owns; default: the configured one (store/open-store.ts), closed with the app. */
  store?: Store;
  /** Where the request limits are counted; default in this process. */
  counters?: Counters;
  /** Where logs go; default stdout. */
  logStream?: LogStream;
  /** Default REQUEST_TIMEOUT_MS; tests shorten it. */
  requestTimeoutMs?: number;
  /**
   * Builds `loc mock`: any test key works and live keys are refused (plugins/mock-keys.ts), and the
   * failure switches answer error paths on demand (plugins/mock-failures.ts), beginning with `failures`.
   */
  mock?: { failures?: readonly Failure[] };
  /**
   * The cost of the panel's password hashes; default the service's (panel/password-hasher.ts). Tests
   * lower it where hashing is not what they test. Never a setting: no operator can weaken the hashes.
   */
  passwordCost?: PasswordCost;
  /**
   * Where the app's metrics are kept (metrics/plugin.ts); default a registry of its own when
   * LOC_METRICS_PORT is set, and no metrics at all when it is not. Tests pass one to read it in process.
   */
  metrics?: Registry;
  /** This process's number among a cluster's workers (1..N, cluster.ts), on each of its log lines; absent in a service of one process. */
  worker?: number;
}

function loggerOptions(config: Config, stream: LogStream | undefined, worker: number | undefined): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream === undefined ? {} : { stream }),
    // pino's own base fields, and a worker's number: the workers of a cluster share one stdout.
    ...(worker === undefined ? {} : { base: { pid: process.pid, hostname: hostname(), worker } }),
    // Secrets never reach the logs: not the headers that carry them, not a token pasted into a URL
    // (decoded, as the server reads it), nor one quoted anywhere else in a line (redact.ts).
    redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: REDACTED },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
    hooks: { streamWrite: redactLine },
    // With traces on, each line written in a traced request names its trace and span.
    ...(tracingOn() ? { mixin: traceFields } : {}),
  };
}

/** Fastify's options for the service: its logger, limits, timeouts, proxies and schema checks. */
function serverOptions(config: Config, options: AppOptions): FastifyHttpOptions<Server> {
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  return {
    logger: loggerOptions(config, options.logStream, options.worker),
    // Fastify's two lines per request are replaced by one (the onResponse hook below).
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: frameworkErrorHandler,
    genReqId: newRequestId,
    // Requests Node refuses before routing are answered in the catalogue's shape (plugins/protocol.ts),
    // the missing Host header included.
    clientErrorHandler,
    requestTimeout: requestTimeoutMs,
    http: {
      requireHostHeader: false,
      // Node's headers timeout (60 s) must not exceed the request timeout: where it does, Node swaps
      // the two, and a stalled body would get the longer one.
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      // Node looks for overdue requests this often (30 s by default): a 408 comes within twice the timeout.
      connectionsCheckingInterval: Math.min(30_000, requestTimeoutMs),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify refuses a path parameter over 100 characters with its own 414 message, echoing the
    // path. The handlers check their parameters themselves — a lookup answers invalid_code, the
    // share page its friendly 404 — and Node's 16 KB header limit bounds a URL anyway.
    routerOptions: { maxParamLength: 16 * 1024 },
    trustProxy: config.trustProxy.length === 0 ? false : config.trustProxy,
    // While closing, new requests get our own 503 body (plugins/draining.ts), not Fastify's.
    return503OnClosing: false,
    // Types are never coerced ("12" is not a latitude) and unknown fields are refused, not stripped.
    schemaController: lazySchemaController(),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false, verbose: true } },
  };
}

/** The API's routes, in the order /openapi.json lists them. */
const API_ROUTES = [healthRoutes, metaRoutes, sessionRoutes, resolveRoutes, generateRoutes, lookupRoutes, suggestRoutes, searchRoutes, gridRoutes, embedRoutes];

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(config, options)).withTypeProvider<TypeBoxTypeProvider>();
  // A client may half-close its side once its request is sent (HTTP/1.0-style tools, some proxies).
  // By default Node then aborts the request and ends the connection, and a handler still waiting —
  // on the reverse geocoder, say — loses its answer; with this, Node sends the answer, then ends.
  // Undocumented, but Node's own tests and userland servers rely on it (nodejs/node#36819).
  (app.server as typeof app.server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

  if (tracingOn()) {
    // The spans of the last requests leave before the process does.
    app.addHook('onClose', flushSpans);
    logTracingProblems(app.log, config.outageLogMs);
  }
  // No hook at all when the request line would log nothing (request-log.ts).
  if (REQUEST_LOG_LEVELS.has(config.logLevel)) app.addHook('onResponse', async (request, reply) => logRequest(request, reply));

  // Before any hook reads request.ip.
  if (config.trustProxy.length > 0) await app.register(clientAddressPlugin);
  await app.register(securityHeadersPlugin, { publicUrl: config.publicUrl });
  await app.register(requestIdPlugin);
  await app.register(drainingPlugin);
  await app.register(configPlugin, { config, now: options.now ?? Date.now });
  // Before whatever watches the store's and the counters' calls (the outage log, the metrics).
  await app.register(portCallsPlugin);
  // Before the plugins whose parts it watches. Metrics off cost nothing: neither the plugin nor
  // prom-client is loaded, and no hook is added.
  if (options.metrics !== undefined || config.metricsPort !== null) {
    const { default: metricsPlugin, newRegistry } = await import('./metrics/plugin.ts');
    await app.register(metricsPlugin, { registry: options.metrics ?? (await newRegistry()) });
  }
  // An overloaded server refuses before any other work is spent on the request.
  await app.register(overloadPlugin);
  await app.register(outagesPlugin);
  await app.register(errorsPlugin);
  await app.register(protocolPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(storePlugin, { store: options.store });
  await app.register(addressesPlugin);
  // Hooks run in the order they are added: the mock's keys exist before auth looks them up, and its
  // failures know the caller and the limit the real checks found.
  if (options.mock) await app.register(mockKeysPlugin);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin, { counters: options.counters });
  await app.register(readinessPlugin);
  if (options.mock) await app.register(mockFailuresPlugin, { failures: options.mock.failures });
  await app.register(swagger, openApiOptions(config.publicUrl));
  await app.register(embedAssets, { publicUrl: config.publicUrl, tiles: config.tiles, tileRendersPerSecond: config.tileRendersPerSecond, now: app.now });
  for (const routes of API_ROUTES) await app.register(routes);
  // The partner panel; `loc mock` has no users to sign in. Its hasher is the app's, where the metrics read its gate.
  if (!options.mock) {
    await app.register(passwordsPlugin, { cost: options.passwordCost });
    await app.register(panelPlugin);
  }
  await app.register(shareRoutes);
  await app.ready();
  return app;
}
