/**
 * The failure switches of `loc mock` (server/mock/failures.ts): the requests a queued failure takes
 * are answered as the real service answers that error path, and `/_mock/failures` queues, lists and
 * clears them. Registered only when the app is built as the mock, after the rate limit, so that the
 * caller is known and a 429 carries the limit headers the real one does.
 *
 * Each failure is met where the real service meets its error: a rate limit, a session expired or not
 * valid, a disabled key and a dropped connection before the body is read; an unsupported location once the body is valid.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LocError } from '../../errors.ts';
import {
  DEFAULT_SCOPE,
  DEFAULT_TIMES,
  FAILURE_CODES,
  FAILURE_SCOPES,
  FailureQueue,
  MAX_TIMES,
  MOCK_FAILURES_PATH,
  type Failure,
  type FailureCode,
  type FailureScope,
  type FailureTarget,
} from '../mock/failures.ts';


/** Answered before the body is read, as the real refusals are. */
const ON_ARRIVAL: readonly FailureCode[] = ['rate_limited', 'session_expired', 'invalid_session', 'key_inactive', 'network'];
const ONCE_VALID: readonly FailureCode[] = ['unsupported_location', 'outside_session_area'];

const FailureRequest = Type.Object(
  {
    code: Type.Unsafe<FailureCode>({ type: 'string', enum: [...FAILURE_CODES] }),
    times: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMES })),
    scope: Type.Optional(Type.Unsafe<FailureScope>({ type: 'string', enum: [...FAILURE_SCOPES] })),
  },
  { additionalProperties: false },
);

export interface MockFailuresOptions {
  /** Queued at start (`--fail`). */
  failures?: readonly Failure[];
}

const targetOf = (request: FastifyRequest): FailureTarget => ({ route: request.routeOptions.url ?? '', via: request.caller?.via ?? null });

/** The answer the real service gives on `code`'s error path. */
function fail(code: FailureCode, request: FastifyRequest, reply: FastifyReply): LocError | null {
  const queued = '(loc mock: a queued failure)';
  switch (code) {
    case 'network':
      // No status, no bytes: the client sees the connection drop, as when the service is unreachable.
      reply.hijack();
      request.raw.socket.destroy();
      return null;
    case 'rate_limited': {
      // The window the limiter reported for this request: its reset, and nothing left of it.
      const wait = Number(reply.getHeader('ratelimit-reset') ?? 3600);
      reply.header('ratelimit-remaining', 0);
      return new LocError('rate_limited', `The hourly limit of the API key ${request.caller!.key.id} is used up; retry in ${wait} s. ${queued}`).retryAfter(wait);
    }
    case 'session_expired':
      return new LocError('session_expired', `The embed session has expired; create a new one. ${queued}`);
    case 'invalid_session':
      return new LocError('invalid_session', `The session token is not valid. ${queued}`);
    case 'key_inactive':
      return new LocError('key_inactive', request.caller!.via === 'session' ? `The API key that created this session is disabled. ${queued}` : `The API key ${request.caller!.key.id} is disabled. ${queued}`);
    case 'unsupported_location':
      return new LocError('unsupported_location', `No country's codes cover this point. ${queued}`);
    case 'outside_session_area':
      return new LocError('outside_session_area', `This cell is outside the area the session allows. ${queued}`);
  }
}

const mockFailures: FastifyPluginAsyncTypebox<MockFailuresOptions> = async (app, options) => {
  const queue = new FailureQueue();
  for (const failure of options.failures ?? []) queue.add(failure);

  const answer = (codes: readonly FailureCode[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    const code = queue.take(targetOf(request), codes);
    if (code === null) return;
    const error = fail(code, request, reply);
    if (error !== null) throw error;
    return reply;
  };
  app.addHook('onRequest', answer(ON_ARRIVAL));
  app.addHook('preHandler', answer(ONCE_VALID));

  // A browser sends a request again when a connection it reused drops without an answer: it cannot
  // tell that from a server closing an idle connection. So while a dropped connection is queued, no
  // connection is kept for reuse — each answer closes its own, and the idle ones close when it is
  // queued — and the drop reaches the page as the network failure it stands for, not as a resend.
  app.addHook('onSend', async (_request, reply) => {
    if (queue.has('network')) reply.header('connection', 'close');
  });

  app.post(MOCK_FAILURES_PATH, { schema: { hide: true, body: FailureRequest } }, async (request, reply) => {
    const { code, times = DEFAULT_TIMES, scope = DEFAULT_SCOPE } = request.body;
    const failure = queue.add({ code, times, scope });
    if (code === 'network') app.server.closeIdleConnections();
    reply.code(201);
    return { success: true, failure };
  });
  app.get(MOCK_FAILURES_PATH, { schema: { hide: true } }, async () => ({ success: true, failures: queue.list() }));
  app.delete(MOCK_FAILURES_PATH, { schema: { hide: true } }, async (_request, reply) => {
    queue.clear();
    return reply.code(204).send();
  });
};

export default fp(mockFailures, { name: 'loc-mock-failures', fastify: '5.x', dependencies: ['loc-auth', 'loc-rate-limit'] });
