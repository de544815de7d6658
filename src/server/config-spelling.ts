/**
 * Misspelled settings: the `LOC_` variables of the environment that loc does not read but that are
 * one or two letters from one it does, said as warnings at the start of `loc serve` and of every
 * operator command.
 */
import { OPTIONS } from './config.ts';

/**
 * Warnings for the `LOC_` variables of `env` that loc does not read but that are one or two letters
 * away from one it does (`LOC_PUBLICURL`, `LOC_TILE`): a typo is otherwise ignored without a word,
 * and the service runs on the default — or an operator command acts on the database in ./data. A
 * variable near no setting is left alone: other tools (and the demo) may have theirs.
 */
export function misspelledSettings(env: Record<string, string | undefined>): string[] {
  const names = Object.values(OPTIONS).flatMap((option) => [option.env, ...(option.family ?? [])]);
  return Object.keys(env)
    .filter((name) => name.startsWith('LOC_') && !names.includes(name))
    .flatMap((name) => {
      const near = names.filter((setting) => editDistance(name, setting) <= 2).sort((a, b) => editDistance(name, a) - editDistance(name, b));
      return near.length === 0 ? [] : [`warning: ${name} is not a loc setting and is ignored; did you mean ${near[0]}?`];
    });
}

/** Levenshtein distance: the insertions, deletions and substitutions that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
