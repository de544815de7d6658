/**
 * Health, as what asks it needs it: `/livez` for a supervisor that restarts a process that no longer
 * answers (nothing it depends on is asked: a database outage must not get every process restarted),
 * `/readyz` for a load balancer that sends traffic only to a process ready for it (plugins/readiness.ts),
 * and `/healthz`, kept for what uses it already: the database and the counters' store answer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LocError } from '../../errors.ts';
import { NO_STORE, errorResponses, withHeaders } from '../http/responses.ts';
import { Health, Liveness, Readiness } from '../http/schemas.ts';
import { ANSWERED_UNDER_PRESSURE, OVERLOAD_RETRY_AFTER_SECONDS } from '../plugins/overload.ts';
import { NOT_ANSWERING, answers, type ReadinessCheck } from '../plugins/readiness.ts';
import { VERSION } from '../version.ts';

/** When a process that failed a check may be ready again, s: the longest of those that failed is sent as Retry-After. */
const READY_AGAIN_SECONDS: Readonly<Record<ReadinessCheck, number>> = {
  tables: 1, addresses: 1, store: 10, counters: 10, draining: 10, overloaded: OVERLOAD_RETRY_AFTER_SECONDS,
};

/** `the database does not answer` as a message of its own. */
const sentence = (words: string): string => `${words[0].toUpperCase()}${words.slice(1)}.`;

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', {
    schema: {
      operationId: 'getHealth',
      tags: ['health'],
      summary: 'Health check',
      description: 'Answers 200 while the service, its database and the store of its request counters work, 503 otherwise.',
      response: { 200: withHeaders(Health, NO_STORE), ...errorResponses({ codes: ['service_unavailable'] }) },
    },
  }, async (request, reply) => {
    if (!(await answers(app, () => app.store.ping(), request.log))) throw new LocError('service_unavailable', sentence(NOT_ANSWERING.store)).retryAfter(10);
    if (!(await answers(app, async () => app.counters.ping?.(), request.log))) throw new LocError('service_unavailable', sentence(NOT_ANSWERING.counters)).retryAfter(10);
    reply.header('cache-control', 'no-store');
    return { success: true as const, status: 'ok' as const, version: VERSION };
  });

  app.get('/livez', {
    config: ANSWERED_UNDER_PRESSURE,
    schema: {
      operationId: 'getLiveness',
      tags: ['health'],
      summary: 'Liveness',
      description: 'Answers 200 while the process answers at all, overloaded or not, whatever its database does: for a supervisor that restarts a process that does not.',
      response: { 200: withHeaders(Liveness, NO_STORE), ...errorResponses({ codes: [] }) },
    },
  }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { success: true as const, status: 'ok' as const };
  });

  app.get('/readyz', {
    config: ANSWERED_UNDER_PRESSURE,
    schema: {
      operationId: 'getReadiness',
      tags: ['health'],
      summary: 'Readiness',
      description:
        'Answers 200 when the service should get traffic: the codec’s tables and the address index are loaded, the database and the store of the request ' +
        'counters answer, and it is neither shutting down (from SIGTERM on, while it still serves for `LOC_DRAIN_MS`) nor overloaded; ' +
        'otherwise 503 `service_unavailable`, whose message names each check that failed.',
      response: { 200: withHeaders(Readiness, NO_STORE), ...errorResponses({ codes: ['service_unavailable'] }) },
    },
  }, async (request, reply) => {
    const { ready, failed } = await app.readiness.check(request.log);
    if (!ready) {
      const retryAfter = Math.max(...failed.map(({ check }) => READY_AGAIN_SECONDS[check]));
      throw new LocError('service_unavailable', `Not ready: ${failed.map(({ message }) => message).join('; ')}.`).retryAfter(retryAfter);
    }
    reply.header('cache-control', 'no-store');
    return { success: true as const, status: 'ready' as const };
  });
};

export default healthRoutes;
