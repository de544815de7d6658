/**
 * The revision proof (test/support/table-revisions.ts) notices what it is there to notice: a proof
 * that cannot fail proves nothing for the revisions that will rely on it.
 */
import { describe, expect, it } from 'vitest';
import { territoryOf } from '../src/code/country.ts';
import type { TableData } from '../src/code/table-file.ts';
import { answerDifferences, blockListDifferences, gridDifferences, loadRevision, overrideDifferences } from './support/table-revisions.ts';

/** Three bands of 2, 1 and 1 blocks; FR's blocks are band 0 block 0, then band 1 block 0 (shared with XK). */
const old: TableData = {
  version: 1,
  revision: 1,
  columns: Uint32Array.from([2592, 1296, 1296]),
  countries: ['FR', 'XK'],
  classes: [
    { pure: true, members: [0] },
    { pure: false, members: [0, 1] },
  ],
  runs: { bandStart: Uint32Array.from([0, 1, 2, 2]), first: Uint32Array.from([0, 0]), length: Uint32Array.from([1, 1]), cls: Uint32Array.from([0, 1]) },
  borders: null,
  fills: null,
};
const withRuns = (bandStart: number[], first: number[], length: number[], cls: number[]): TableData => ({
  ...old,
  revision: 2,
  runs: { bandStart: Uint32Array.from(bandStart), first: Uint32Array.from(first), length: Uint32Array.from(length), cls: Uint32Array.from(cls) },
});

describe('the revision proof', () => {
  it('accepts the same blocks, and blocks added after a country\'s last one', () => {
    expect(blockListDifferences(old, old)).toEqual([]);
    expect(blockListDifferences(old, withRuns([0, 1, 2, 3], [0, 0, 0], [1, 1, 1], [0, 1, 0]))).toEqual([]);
  });

  it('counts the blocks that fills add after a country\'s last one, and notices one taken away', () => {
    // Band 2 block 0 becomes a mixed block of XK alone, whose fill gives FR: FR gains it as its third block.
    const filled: TableData = {
      ...withRuns([0, 1, 2, 3], [0, 0, 0], [1, 1, 1], [0, 1, 2]),
      revision: 3,
      classes: [...old.classes, { pure: false, members: [1] }],
      fills: [{ band: 2, block: 0, country: 0, squares: null }],
    };
    expect(blockListDifferences(old, filled)).toEqual([]);
    // A later revision that dropped the fill would take FR's third block away: the proof notices.
    expect(blockListDifferences(filled, { ...filled, fills: [] })).toEqual(['FR: from block 2 on, band 2 blocks 0–0 became nothing']);
  });

  it('notices a block taken away, one put before the last, and a country lost', () => {
    expect(blockListDifferences(old, withRuns([0, 0, 1, 1], [0], [1], [1]))).toEqual(['FR: from block 0 on, band 0 blocks 0–0 became band 1 blocks 0–0']);
    expect(blockListDifferences(old, withRuns([0, 1, 2, 2], [0, 0], [2, 1], [0, 1]))).toEqual(['FR: from block 0 on, band 0 blocks 0–0 became band 0 blocks 0–1']);
    expect(blockListDifferences(old, withRuns([0, 1, 1, 1], [0], [1], [0]))).toEqual([
      'FR: from block 1 on, band 1 blocks 0–0 became nothing',
      'XK: from block 0 on, band 1 blocks 0–0 became nothing',
    ]);
    expect(blockListDifferences(old, { ...old, countries: ['FR', 'XX'] })).toEqual(['XK lost its coverage']);
  });

  it('notices a band made wider or a band more', () => {
    expect(gridDifferences(old, old)).toEqual([]);
    expect(gridDifferences(old, { ...old, columns: Uint32Array.from([2592, 1297, 1296]) })).toEqual(['band 1: 1296 columns became 1297']);
    expect(gridDifferences(old, { ...old, columns: Uint32Array.from([2592, 1296, 1296, 1]) })).toEqual(['3 bands became 4']);
  });

  it('notices an override on a cell that had a code, and accepts one at sea', () => {
    const revision1 = loadRevision(new URL('../src/code/tables/v1.bin', import.meta.url));
    expect(overrideDifferences(revision1, territoryOf, [{ lat: 0, lng: 0 }])).toEqual([]);
    expect(overrideDifferences(revision1, territoryOf, [{ lat: 48.8584, lng: 2.2945 }])).toEqual(['the override at 48.8584, 2.2945 takes over FR-0RMB-CLY0']);
  });

  it('notices an answer that changed, unless the new one is allowed where there was none', () => {
    const points = [[1, 1], [2, 2]] as const;
    const old = (lat: number): string | null => (lat === 1 ? 'FR-0000-0000' : null);
    expect(answerDifferences(points, old, old)).toEqual([]);
    expect(answerDifferences(points, old, () => 'FR-0000-0000')).toEqual(['2, 2: none became FR-0000-0000']);
    expect(answerDifferences(points, old, () => 'FR-0000-0000', (lat) => lat === 2)).toEqual([]);
    expect(answerDifferences(points, old, () => null, () => true)).toEqual(['1, 1: FR-0000-0000 became none']);
    const many = Array.from({ length: 12 }, (_, i) => [i, i] as const);
    expect(answerDifferences(many, () => null, () => 'X')).toHaveLength(11);
  });
});
