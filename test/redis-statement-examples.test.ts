// The Redis katas' examples are timelines (harness/redis/timeline.ts): calls at times relative to T,
// Redis's time at the first call. Their statements show them as tables. This checks, for every
// problem whose suite exports EXAMPLES, that each table of its statement is exactly a timeline of
// the suite, in order, and that the model (the single-process reference the oracle uses) gives each
// row's answer at the row's time. The cases themselves play the same timelines on a real Redis.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadProblems, type Problem } from '../harness/judge/problems.ts';
import type { LimiterModel } from '../harness/redis/limiter-oracle.ts';
import { timelineByModel, timelineTable, type Timeline } from '../harness/redis/timeline.ts';

/** The statement's tables whose header is `time | call | answer`, as rows of three cells. */
function timeTables(markdown: string): string[][][] {
  const tables: string[][][] = [];
  let current: string[][] | undefined;
  for (const line of markdown.split('\n')) {
    const cells = line.startsWith('|')
      ? line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim())
      : undefined;
    if (cells === undefined) {
      current = undefined;
    } else if (cells.join('|') === 'time|call|answer') {
      current = [];
      tables.push(current);
    } else if (current !== undefined && !/^-+$/.test(cells[0] ?? '')) {
      current.push(cells);
    }
  }
  return tables;
}

interface TimelineSuite {
  EXAMPLES?: Timeline[];
  modelOf?: (settings: [number, number]) => LimiterModel;
  /** The statement's longest lifetime of a key after a write, by settings. */
  lifetimeOf?: (settings: [number, number]) => number;
}

const withTimelines: { problem: Problem; suite: TimelineSuite }[] = [];
for (const problem of loadProblems()) {
  const suite = (await import(problem.suiteFile)) as TimelineSuite;
  if (suite.EXAMPLES !== undefined) withTimelines.push({ problem, suite });
}

test('the Redis katas have example timelines', () => {
  expect(withTimelines.map(({ problem }) => problem.dir).sort()).toEqual(
    loadProblems()
      .filter((problem) => problem.requires?.includes('redis'))
      .map((problem) => problem.dir)
      .sort(),
  );
});

for (const { problem, suite } of withTimelines) {
  const { EXAMPLES = [], modelOf, lifetimeOf } = suite;
  describe(problem.dir, () => {
    test('each table of the statement is an example timeline of the suite, in order', () => {
      const tables = timeTables(readFileSync(problem.statementFile, 'utf8'));
      expect(tables.length).toBeGreaterThan(0);
      expect(tables).toEqual(EXAMPLES.map(timelineTable));
    });
    test('the model gives every row its answer at its time', () => {
      expect(modelOf).toBeDefined();
      for (const timeline of EXAMPLES) {
        const byModel = timelineByModel(timeline, modelOf!);
        expect(byModel).toEqual(timeline.rows.map((row) => row.answer));
      }
    });
    test('an expiry row gives the rule’s times: the latest resetAt, the lifetime after the last write', () => {
      expect(lifetimeOf).toBeDefined();
      for (const timeline of EXAMPLES) {
        let latestReset = -Infinity;
        let lastWrite: { at: number; instance: number } | undefined;
        for (const row of timeline.rows) {
          if (row.expires) {
            const settings = timeline.settings[lastWrite?.instance ?? 0]!;
            expect(row.expires).toEqual([latestReset, lastWrite!.at + lifetimeOf!(settings)]);
            continue;
          }
          latestReset = Math.max(latestReset, row.answer!.resetAt);
          if (row.answer!.allowed) lastWrite = { at: row.at, instance: row.instance ?? 0 };
        }
      }
    });
  });
}
