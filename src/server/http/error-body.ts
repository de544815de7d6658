/**
 * The error body of the HTTP contract, `{ success: false, code, message, error }`, and what any error
 * becomes in it: the catalogue's own errors as they are; the store's "cannot serve now" as a 503 that
 * says why and when to retry; Fastify's — bad JSON, wrong content type, an oversized body, schema
 * validation — as the catalogue codes they stand for, so that a client never sees a 500 for anything
 * it sent. The API's error handler (plugins/errors.ts) and the panel's answer with it.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE, LocError, describeValue, type ErrorCode } from '../../errors.ts';
import { StoreUnavailable, type UnavailableReason } from '../../store/store.ts';
import type { ErrorBody } from './schemas.ts';

/** Fastify error codes and the catalogue code each becomes. */
const FASTIFY_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
};

/** Messages that say more than Fastify's for the same condition. */
const FASTIFY_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON with the header Content-Type: application/json.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than 16 KB.',
};

/**
 * What a client is told when the database cannot serve its request (the log has the engine's own
 * words), and when to retry: a busy database passes in moments, full or broken storage waits for an
 * operator, a database out of reach for its network.
 */
const UNAVAILABLE: Readonly<Record<UnavailableReason, { message: string; retryAfterSeconds: number }>> = {
  full: { message: 'The service cannot store data right now: its storage is full. Retry later.', retryAfterSeconds: 60 },
  'read-only': { message: 'The service cannot store data right now: its storage is read-only. Retry later.', retryAfterSeconds: 60 },
  'io-error': { message: 'The service cannot read or write its storage right now (an I/O error). Retry later.', retryAfterSeconds: 10 },
  busy: { message: "The service's database is busy. Retry shortly.", retryAfterSeconds: 1 },
  'cannot-open': { message: 'The service cannot open its database right now. Retry later.', retryAfterSeconds: 10 },
  unreachable: { message: 'The service cannot reach its database right now. Retry later.', retryAfterSeconds: 10 },
};

/** An ajv error as Fastify hands it over (ajv runs with `verbose`, so `data` and `parentSchema` are set). */
interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  data?: unknown;
  parentSchema?: { properties?: Record<string, unknown>; minimum?: number; maximum?: number };
}

/** What a refusal of the body received, from the request's headers: its Content-Type, its length. */
function received(code: string, headers: FastifyRequest['headers'] | undefined): string {
  if (headers === undefined) return '';
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type = headers['content-type'];
    return type === undefined ? ' The request has no Content-Type.' : ` Received Content-Type ${describeValue(type)}.`;
  }
  const length = headers['content-length'];
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && length !== undefined && /^\d+$/.test(length)) return ` Received ${length} bytes.`;
  return '';
}

/**
 * Turns any error into the catalogue error it stands for. With the request's headers, a refused body's
 * message also says what was received.
 */
export function toLocError(error: unknown, headers?: FastifyRequest['headers']): LocError {
  if (error instanceof LocError) return error;
  if (error instanceof StoreUnavailable) {
    const { message, retryAfterSeconds } = UNAVAILABLE[error.reason];
    return new LocError('service_unavailable', message).retryAfter(retryAfterSeconds);
  }
  const fastifyError = error as Partial<FastifyError> & { validation?: SchemaError[]; validationContext?: string };
  if (fastifyError.validation) return validationError(fastifyError.validation[0], fastifyError.validationContext ?? 'body');
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) {
    const message = FASTIFY_MESSAGES[fastifyError.code!] ?? `${ERROR_CATALOGUE[mapped].message} ${fastifyError.message ?? ''}`.trim();
    return new LocError(mapped, `${message}${received(fastifyError.code!, headers)}`);
  }
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new LocError('bad_request', fastifyError.message || ERROR_CATALOGUE.bad_request.message);
  }
  return new LocError('internal_error');
}

/** One schema error as a sentence that names the field and shows what was received. */
function validationError(error: SchemaError, context: string): LocError {
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  const field = (name: string): string => (path ? `${path}.${name}` : name);
  const received = `, received ${describeValue(error.data)}`;
  switch (error.keyword) {
    case 'required': {
      const name = field(String(error.params.missingProperty));
      return new LocError('validation_error', `${name} is required.`, name);
    }
    case 'additionalProperties': {
      const name = field(String(error.params.additionalProperty));
      const known = Object.keys(error.parentSchema?.properties ?? {}).join(', ');
      return new LocError('validation_error', `${name} is not a known field; the known fields are ${known}.`, name);
    }
    case 'minimum':
    case 'maximum': {
      const { minimum, maximum } = error.parentSchema ?? {};
      return new LocError('validation_error', `${path} must be from ${minimum} to ${maximum}${received}.`, path);
    }
    case 'type': {
      const name = path || context;
      const type = String(error.params.type);
      const article = /^[aeiou]/.test(type) ? 'an' : 'a';
      return new LocError('validation_error', `${name} must be ${article} ${type}${received}.`, name);
    }
    case 'enum': {
      const allowed = (error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ');
      return new LocError('validation_error', `${path} must be one of ${allowed}${received}.`, path);
    }
    case 'maxLength':
      return new LocError('validation_error', `${path} must be at most ${error.params.limit} characters${received}.`, path);
    default:
      return new LocError('validation_error', `${path || context} ${error.message ?? 'is not valid'}${received}.`, path || context);
  }
}

export function errorBody(error: LocError): ErrorBody {
  const body: ErrorBody = { success: false, code: error.code, message: error.message, error: error.message };
  if (error.field !== undefined) body.field = error.field;
  return body;
}
