import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompress } from './precompress.ts';

const text = Buffer.from(Array.from({ length: 400 }, (_, i) => `line ${i} of a script that compresses well;\n`).join(''));

describe('the build’s compressed copies', () => {
  it('are written beside each file the embed sends compressed, catalogues included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-precompress-'));
    try {
      const names = ['loc-embed.js', 'loc-embed.d.ts', 'loc-picker.js', 'loc-picker.d.ts', 'frame.js', 'frame.css', 'locales/fr.json'];
      mkdirSync(join(dir, 'locales'));
      for (const name of [...names, 'frame.js.map']) writeFileSync(join(dir, name), text);
      await precompress(`${dir}/`);
      for (const name of names) {
        expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))), name).toEqual(text);
        expect(gunzipSync(readFileSync(join(dir, `${name}.gz`))), name).toEqual(text);
      }
      expect(existsSync(join(dir, 'frame.js.map.br'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
