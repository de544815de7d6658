/**
 * loc-js/code — the written form of a location code, without the service and without data: the
 * canonical form, the loose format check of the API's contract, and the codes in a free text. Whether
 * a code exists only the service can say (`GET /v1/loc/lookup/{code}`).
 *
 * The implementation is the service's own (src/code/), bundled in by the build: the package cannot
 * disagree with the service on what a code looks like.
 */
export { isCodeFormat } from '../../../src/code/format.ts';
export { normalizeCode } from '../../../src/code/spelling.ts';
export { findCodes, type FoundCode } from '../../../src/code/find-codes.ts';
