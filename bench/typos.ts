/**
 * Prints how many single-character typos the suggestions catch (test/support/typo-catch.ts), for
 * docs/api.md: `npm run measure:typos [codes] [seed]`.
 */
import { measureTypoCatch } from '../test/support/typo-catch.ts';

const [codes = 1000, seed = 18] = process.argv.slice(2).map(Number);
const result = measureTypoCatch(codes, seed);
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
const line = (name: string, s: { typos: number; listed: number; first: number }) =>
  `${name.padEnd(34)} ${String(s.typos).padStart(6)} typos   listed ${pct(s.listed, s.typos).padStart(7)}   first ${pct(s.first, s.typos).padStart(7)}`;
console.log(`${codes} random codes, seed ${seed}: every look-alike substitution and adjacent transposition`);
console.log(line('without focus', result.withoutFocus));
console.log(line('focus within 3 km of the original', result.withFocus));
for (const [outcome, s] of Object.entries(result.byOutcome)) console.log(line(`  of which the typo is ${outcome}`, s));
for (const [kind, s] of Object.entries(result.byKind)) console.log(line(`  of which a ${kind}`, s));
