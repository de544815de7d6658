import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('the loc-service/code package entry (built)', () => {
  it('imports from dist by package name and encodes with the table shipped beside it', async () => {
    const script = "import('loc-service/code').then(m => console.log(JSON.stringify([m.encode(48.8584, 2.2945).loc_code, m.decode('fr0rmbcly0').country_code, m.neighbours('FR-0RMB-CLY0').e, typeof m.cellAt, m.FORMAT_VERSION])))";
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual(['FR-0RMB-CLY0', 'FR', 'FR-0RMB-CLY1', 'function', 1]);
  });
});
