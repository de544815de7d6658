import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publish } from './backup-command.ts';

/** A link that fails as it does on a file system without hard links. */
const noHardLinks = (code: string) => () => {
  throw Object.assign(new Error(`${code}: operation not permitted, link`), { code });
};

function copyIn(directory: string): { partial: string; target: string } {
  const partial = join(directory, '.backup.db.partial-1');
  writeFileSync(partial, 'complete copy');
  return { partial, target: join(directory, 'backup.db') };
}

describe('publishing a complete backup', () => {
  it('links the copy into place, keeping the partial name for the caller to remove', () => {
    const { partial, target } = copyIn(mkdtempSync(join(tmpdir(), 'loc-publish-')));
    publish(partial, target);
    expect(readFileSync(target, 'utf8')).toBe('complete copy');
    expect(existsSync(partial)).toBe(true);
  });

  for (const code of ['EPERM', 'ENOTSUP', 'EOPNOTSUPP']) {
    it(`renames the copy into place where the file system has no hard links (${code})`, () => {
      const { partial, target } = copyIn(mkdtempSync(join(tmpdir(), 'loc-publish-')));
      publish(partial, target, noHardLinks(code));
      expect(readFileSync(target, 'utf8')).toBe('complete copy');
      expect(existsSync(partial)).toBe(false);
    });
  }

  it('never renames over a file that appeared at the target meanwhile', () => {
    const { partial, target } = copyIn(mkdtempSync(join(tmpdir(), 'loc-publish-')));
    writeFileSync(target, 'somebody else’s file');
    expect(() => publish(partial, target, noHardLinks('EPERM'))).toThrow(/EPERM/);
    expect(readFileSync(target, 'utf8')).toBe('somebody else’s file');
    expect(readFileSync(partial, 'utf8')).toBe('complete copy');
  });

  it('passes on any other failure of the link', () => {
    const { partial, target } = copyIn(mkdtempSync(join(tmpdir(), 'loc-publish-')));
    expect(() => publish(partial, target, noHardLinks('EIO'))).toThrow(/EIO/);
    expect(existsSync(target)).toBe(false);
  });
});
