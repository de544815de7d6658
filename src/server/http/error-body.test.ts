import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../errors.ts';
import { StoreUnavailable } from '../../store/store.ts';
import { toLocError } from './error-body.ts';

describe('toLocError', () => {
  it('hides unexpected errors behind internal_error', () => {
    const error = toLocError(new TypeError('x is undefined'));
    expect(error.code).toBe('internal_error');
    expect(error.message).toBe(ERROR_CATALOGUE.internal_error.message);
  });

  it('answers 503 with the reason when the database cannot serve: the client may retry', () => {
    const full = toLocError(new StoreUnavailable('full', 'database or disk is full (SQLITE_FULL)'));
    expect({ code: full.code, status: full.status, message: full.message, retryAfterSeconds: full.retryAfterSeconds }).toEqual({
      code: 'service_unavailable', status: 503, message: 'The service cannot store data right now: its storage is full. Retry later.', retryAfterSeconds: 60,
    });
    expect(toLocError(new StoreUnavailable('read-only', 'attempt to write a readonly database (SQLITE_READONLY)')).message).toMatch(/read-only/);
    const busy = toLocError(new StoreUnavailable('busy', 'database is locked (SQLITE_BUSY)'));
    expect([busy.message, busy.retryAfterSeconds]).toEqual([expect.stringMatching(/busy/), 1]);
    const unreachable = toLocError(new StoreUnavailable('unreachable', 'connect ECONNREFUSED 127.0.0.1:5432 (ECONNREFUSED)'));
    expect({ code: unreachable.code, status: unreachable.status, message: unreachable.message, retryAfterSeconds: unreachable.retryAfterSeconds }).toEqual({
      code: 'service_unavailable', status: 503, message: 'The service cannot reach its database right now. Retry later.', retryAfterSeconds: 10,
    });
  });

  it('keeps other client errors of Fastify as 400 bad_request', () => {
    expect(toLocError(Object.assign(new Error('odd'), { statusCode: 400, code: 'FST_SOMETHING' })).code).toBe('bad_request');
  });
});
