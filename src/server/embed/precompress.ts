/**
 * A step of the build (build.mjs): each embed file the service sends compressed, written beside it in
 * each encoding — `frame.js.br`, `frame.js.gz` — with the service's own settings (encodings.ts), so
 * that no process spends its start compressing them. Run as
 * `node --import tsx src/server/embed/precompress.ts <embed dir>/`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { MIN_COMPRESSED_BYTES, PREFERENCE, SUFFIX, compress } from './encodings.ts';
import { COMPRESSED_FILES, catalogueFiles } from './files.ts';

/** Writes the copies of every such file under `dir` (with a trailing slash). */
export async function precompress(dir: string): Promise<void> {
  const names = [...COMPRESSED_FILES, ...catalogueFiles(dir)];
  await Promise.all(names.flatMap((name) => {
    const body = readFileSync(`${dir}${name}`);
    if (body.length < MIN_COMPRESSED_BYTES) return [];
    return PREFERENCE.map(async (encoding) => writeFileSync(`${dir}${name}${SUFFIX[encoding]}`, await compress(body, encoding, 'best')));
  }));
}

if (process.argv[1] === import.meta.filename) await precompress(process.argv[2]);
