/**
 * The table revision the codec reads, as the service publishes it and loc-js/codec checks it: the
 * file of docs/code-format.md §6 and §8, byte for byte, under a name that holds its hash, so that any
 * cache may keep it for good and a browser never runs on a table other than this one.
 */

/** Format, revision, file name in src/code/tables/, and the file's SHA-256 (hex) — the one the tests pin. */
export const SHIPPED_TABLE = {
  format: 1,
  revision: 3,
  file: 'v1r3.bin',
  sha256: '7f7af0b3993bcf0a01ee89ab028b05948902cef05acc029fccf20b08cc25db3a',
} as const;

/** Where the service serves it: immutable, open to every origin (src/server/embed/assets.ts). */
export const TABLE_PATH = `/embed/tables/v${SHIPPED_TABLE.format}r${SHIPPED_TABLE.revision}.${SHIPPED_TABLE.sha256.slice(0, 16)}.bin`;
