/**
 * The table the service's codec reads: revision 3 of format v1, shipped beside this module and read
 * from disk on first use. Browsers and other runtimes build their Coverage from the same bytes, fetched
 * (loc-js/codec), so this is the one module of the codec that needs Node.
 */
import { readFileSync } from 'node:fs';
import { Coverage } from './coverage.ts';
import { readTableFile } from './table-file.ts';
import { SHIPPED_TABLE } from './table-release.ts';

/**
 * The table of format v1 the codec reads, its revision 3, committed beside this module and never
 * regenerated at run time. Revisions 1 and 2 (`tables/v1.bin`, `tables/v1r2.bin`) stay beside it,
 * frozen, for the proof that each revision changes no code of the one before (src/code/revision.test.ts).
 */
export const TABLE_URL = new URL(`./tables/${SHIPPED_TABLE.file}`, import.meta.url);

let loaded: Coverage | undefined;

/** The coverage of format v1 (revision 3), read and prepared whole on first use. */
export function coverage(): Coverage {
  if (loaded === undefined) {
    const table = new Coverage(readTableFile(readFileSync(TABLE_URL)));
    table.prepare();
    loaded = table;
  }
  return loaded;
}

/** Whether the coverage has been read: a server is not ready to encode before (server/plugins/readiness.ts). */
export const coverageLoaded = (): boolean => loaded !== undefined;
