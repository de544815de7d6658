/**
 * The saved-location reads of the PostgreSQL store, gathered (../gathering.ts): every lookup and
 * resolve asks whether its account saved the cell, and a process under load sends one statement per
 * account and mode for all the cells its requests wait on, not one per request.
 */
import type pg from 'pg';
import type { KeyMode, SavedLocation } from '../store.ts';
import { gathering } from '../gathering.ts';
import { location, LOCATION_TABLE, type LocationRow } from './postgres-rows.ts';

export interface LocationRead {
  accountId: string;
  mode: KeyMode;
  code: string;
}

type Query = (text: string, values: unknown[], name: string) => Promise<pg.QueryResult<LocationRow>>;

/** One account's reads of one mode in one statement: the saved locations among `codes`, by code. */
async function readSome(query: Query, accountId: string, mode: KeyMode, codes: string[]): Promise<Map<string, SavedLocation>> {
  const table = LOCATION_TABLE[mode];
  const { rows } = await query(`SELECT * FROM ${table} WHERE account_id = $1 AND code = ANY($2::text[])`, [accountId, [...new Set(codes)]], `get-many-${table}`);
  return new Map(rows.map((row) => [row.code, location(row, mode)]));
}

/** Reads a saved location, or null, gathered with the reads that wait with it. */
export function locationReads(query: Query): (read: LocationRead) => Promise<SavedLocation | null> {
  return gathering<LocationRead, SavedLocation | null>(async (reads) => {
    const groups = new Map<string, LocationRead[]>();
    for (const read of reads) {
      const group = `${read.mode}\n${read.accountId}`;
      const members = groups.get(group);
      if (members === undefined) groups.set(group, [read]);
      else members.push(read);
    }
    const found = await Promise.all([...groups.values()].map((group) => readSome(query, group[0].accountId, group[0].mode, group.map((read) => read.code))));
    const byGroup = new Map([...groups.keys()].map((group, i) => [group, found[i]]));
    return reads.map((read) => byGroup.get(`${read.mode}\n${read.accountId}`)!.get(read.code) ?? null);
  });
}
