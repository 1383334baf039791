import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first. Vitest runs the longest first once it has timed a run,
 * but a fresh clone (CI) has no timings, and then it runs the largest files first: the two files
 * that judge every problem (four lines each, and a third of the suite's time) came last, and the
 * suite ended with one of them running alone. The files that spend their time waiting on Redis's
 * clock (redis-isolation, compat, redis-scenarios-direct) start early too, so that their waits
 * overlap the files that compute: at the end of the run they were its last half minute, on a core
 * left idle. Timed on a clean clone (`npx vitest run --reporter=json`), wall time of each file.
 */
const LONGEST = [
  'problems-a.test.ts',
  'redis-isolation.test.ts',
  'problems-b.test.ts',
  'e2e-tools.test.ts',
  'compat.test.ts',
  'redis-scenarios-direct.test.ts',
  'e2e.test.ts',
  'judge-robustness.test.ts',
  'templates.test.ts',
  'redis-infra-commands.test.ts',
  'judge-integrity.test.ts',
  'e2e-progress-quiz.test.ts',
  'judge-redis-unavailable.test.ts',
  'judge-typecheck-snapshot.test.ts',
  'judge-orphans.test.ts',
  'judge-sealed.test.ts',
  'redis-url-acl.test.ts',
  'redis-judge-start.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONGEST.indexOf(path.basename(file.moduleId));
      return at < 0 ? LONGEST.length : at;
    };
    // A stable sort: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Judging spawns child processes and waits out deliberate time-limit kills.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One file more than there are cores: the files here spend much of their time waiting on
    // processes of their own (judged children, npm, tsc) and on Redis's clock (a Redis kata's
    // scenarios wait for real time to pass), and a core left idle meanwhile is time lost. Vitest's
    // default is one file at a time on two cores (a core fewer than there are).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
    // Commands run in-process record progress: never into the developer's own .kata/, and each
    // test file into a folder of its own (see the setup file).
    setupFiles: ['test/setup-state-dir.ts'],
    coverage: {
      provider: 'v8',
      include: ['harness/**/*.ts', 'scripts/**/*.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90 },
    },
  },
});
