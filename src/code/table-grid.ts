/**
 * The grid of a table file (docs/code-format.md §6): its first fields — magic, format, revision,
 * bands and each band's column count — and nothing after them. They are all a map needs to draw the
 * 3 m grid for any view, so a browser may read them from the start of the file alone, the "small
 * part" (about 13 KB), without the countries, runs, borders and fills that follow.
 */
import { ByteReader } from './table-bytes.ts';

/** The file's magic. */
export const TABLE_MAGIC = 'LOCT';
/** The format this reader knows. */
export const FORMAT_VERSION = 1;
/**
 * The revisions of format 1 this reader knows. Revision 1 (`v1.bin`) has no revision field: its
 * format is followed by the band count, 5148, a number no revision will have.
 */
export const KNOWN_REVISIONS: readonly number[] = [1, 2, 3];
const REVISION_1_BANDS = 5148;

/** The grid a table file defines. */
export interface TableGrid {
  /** The code format: 1. */
  version: number;
  revision: number;
  /** Columns of each band, south to north. */
  columns: Uint32Array;
}

/**
 * Reads the grid from `input`, which must be at the file's first byte, and leaves it after the
 * column counts. A reader refuses a format or a revision it does not know (§8): reading on would
 * misread the file.
 */
export function readTableGrid(input: ByteReader): TableGrid {
  if (input.ascii(TABLE_MAGIC.length) !== TABLE_MAGIC) input.fail('bad magic');
  const version = input.uint();
  if (version !== FORMAT_VERSION) input.fail(`format ${version} is not one this reader knows (it reads format ${FORMAT_VERSION})`);
  let revision = input.uint();
  let bands: number;
  if (revision === REVISION_1_BANDS) {
    bands = revision;
    revision = 1;
  } else {
    if (!KNOWN_REVISIONS.includes(revision)) {
      input.fail(`revision ${revision} of format ${version} is not one this reader knows (it reads revisions ${KNOWN_REVISIONS.join(', ')})`);
    }
    bands = input.uint();
  }
  const columns = new Uint32Array(bands);
  for (let b = 0; b < bands; b++) columns[b] = input.uint();
  return { version, revision, columns };
}

/** The grid of a table file's bytes: the whole file, or any prefix that holds the column counts. */
export function tableGrid(bytes: Uint8Array): TableGrid {
  return readTableGrid(new ByteReader(bytes));
}
