import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from './options.ts';

describe('the option defaults', () => {
  it('are the ones the public types document with @default', () => {
    const source = readFileSync(new URL('./public-types.ts', import.meta.url), 'utf8');
    const options = source.slice(source.indexOf('export interface LocMountOptions'), source.indexOf('export interface LocHandle'));
    for (const [key, value] of Object.entries(DEFAULTS)) {
      const doc = new RegExp(`@default ([^\\n]+?)\\s*(?:\\*/)?\\s*\\n(?:\\s*\\*/\\s*\\n)?\\s*${key}\\?:`).exec(options);
      expect(doc, `@default of ${key}`).not.toBeNull();
      expect(new Function(`return (${doc![1]});`)(), key).toEqual(value);
    }
  });
});
