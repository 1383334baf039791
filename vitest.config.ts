import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Judging spawns child processes and waits out deliberate time-limit kills.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one file at a time on two cores (a core fewer than there are). The files
    // here spend much of their time waiting on processes of their own (judged children, npm, tsc),
    // so two at once keep both cores busy: CI's two cores finish the suite in about half the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
