/**
 * The HTTP metrics: requests and their durations by method, route template and status class, and
 * the answers refused for a reason of the caller's, by that reason (its catalogue code). Every label
 * value comes from a small fixed set — a path that matches no route is `unmatched`, a method the API
 * does not have is `other` — so that no client can make series by sending junk.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MetricGroup } from './metric-group.ts';

/** Seconds; from a cached lookup to a slow geocoder's answer. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The methods the API answers; any other is counted as `other`. */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route label of a request no route matched. */
export const UNMATCHED = 'unmatched';

/** The 422 answers that refuse a caller's request for its place rather than for its shape. */
const REFUSED_PLACES: ReadonlySet<string> = new Set(['outside_session_area', 'unsupported_location']);

/** Whether an answer is a refusal: every 401, 403 and 429, and the refused places. */
const isRefusal = (status: number, code: string): boolean => status === 401 || status === 403 || status === 429 || REFUSED_PLACES.has(code);

/** The labels a request is counted under. */
function labelsOf(request: FastifyRequest, reply: FastifyReply): { method: string; route: string; status_class: string } {
  return {
    method: METHODS.has(request.method) ? request.method : 'other',
    route: request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED),
    status_class: `${Math.floor(reply.statusCode / 100)}xx`,
  };
}

export const httpMetrics: MetricGroup = (app: FastifyInstance, registry, prom) => {
  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = new prom.Counter({ name: 'loc_http_requests_total', help: 'Requests answered, by method, route template and status class.', labelNames, registers: [registry] });
  const durations = new prom.Histogram({
    name: 'loc_http_request_duration_seconds', help: 'Time from a request’s arrival to its answer sent, by method, route template and status class.',
    labelNames, buckets: DURATION_BUCKETS, registers: [registry],
  });
  const refusals = new prom.Counter({
    name: 'loc_refusals_total', help: 'Answers refused for a reason of the caller’s (401, 403, 429, a place refused), by the reason’s catalogue code.',
    labelNames: ['reason'] as const, registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = labelsOf(request, reply);
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    const code = request.errorCode;
    if (code !== null && isRefusal(reply.statusCode, code)) refusals.inc({ reason: code });
    done();
  });
};
