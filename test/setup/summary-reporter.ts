/**
 * Ends the run with the slowest files and tests (slowest.ts), then one plain line,
 * `vitest: N passed, N failed`, that any CI can read without parsing vitest's own coloured summary.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { slowestReport, type Timed } from './slowest.ts';

/** A file's time in its worker: its environment, its imports and set-up, then its tests and hooks. */
function fileTime(module: TestModule): number {
  const { environmentSetupDuration, prepareDuration, collectDuration, setupDuration, duration } = module.diagnostic();
  return environmentSetupDuration + prepareDuration + collectDuration + setupDuration + duration;
}

/** `[project] path`: the kind of test (vitest.config.ts's projects) beside the file. */
const fileName = (module: TestModule): string => `[${module.project.name}] ${relative(process.cwd(), module.moduleId)}`;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const files: Timed[] = [];
    const tests: Timed[] = [];
    for (const module of modules) {
      files.push({ name: fileName(module), ms: fileTime(module) });
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        tests.push({ name: `${relative(process.cwd(), module.moduleId)} > ${test.fullName}`, ms: test.diagnostic()?.duration ?? 0 });
      }
    }
    process.stdout.write(`\n${slowestReport('vitest', files, tests)}\n\n`);
    process.stdout.write(`vitest: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
