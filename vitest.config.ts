import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Judging spawns child processes and waits out deliberate time-limit kills.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Commands run in-process record progress: never into the developer's own .kata/.
    env: { KATA_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'window-katas-state-')) },
    coverage: {
      provider: 'v8',
      include: ['harness/**/*.ts', 'scripts/**/*.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90 },
    },
  },
});
