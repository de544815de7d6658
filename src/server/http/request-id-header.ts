/**
 * `Request-Id` in the HTTP contract: every response carries the request's id (plugins/request-id.ts
 * sets it), so /openapi.json declares it on every response of every operation.
 */

/** The header as /openapi.json declares it. */
const DECLARED = {
  schema: { type: 'string', pattern: '^req_[0-9a-f]{24}$' },
  description: 'This request’s id, as the service’s log lines name it (`reqId`): quote it when you ask about a response.',
};

type Operation = { responses?: Record<string, { headers?: Record<string, unknown> }> };

/**
 * `document` with `Request-Id` declared on every response of every operation: the hook sets it on
 * all of them, and a route schema that had to list it would be one more thing to forget.
 */
export function declareRequestId<T extends object>(document: T): T {
  const { paths = {} } = document as { paths?: Record<string, Record<string, Operation>> };
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods)) {
      for (const response of Object.values(operation.responses ?? {})) response.headers = { ...response.headers, 'Request-Id': DECLARED };
    }
  }
  return document;
}
