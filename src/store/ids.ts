/**
 * Public ids of what the store keeps, minted here whatever the engine: `acct_…`, `key_…`, `usr_…`, and the
 * session id that names a frame URL. 128 random bits in base64url: unguessable, so an id in a URL or
 * a log line reveals nothing to enumerate, and unique without asking the database.
 */
import { randomBytes } from 'node:crypto';

/** Random bytes in an id: 128 bits. */
const ID_BYTES = 16;

/** The prefix of each kind of record's id. */
export type IdKind = 'acct' | 'key' | 'usr';

/** 22 base64url characters, random. */
export function randomId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

/** A new id of a record of `kind`, such as `key_3q2-…`. */
export function newId(kind: IdKind): string {
  return `${kind}_${randomId()}`;
}
