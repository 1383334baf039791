// Proves every hidden suite, for every problem folder found: the reference passes everything, each
// known-wrong implementation is caught by the trap it embodies, the stub is Not Started, and the
// statement's examples are the suite's example cases. The problems are shared out between the
// files in SHARD_FILES, each of which checks its share (every other problem of the ladder): the
// largest part of the suite's time, in two files that vitest's two workers run side by side.
// A problem that requires Redis is judged on one Redis per file, as a grade does (each judgement
// with keys of its own); on a machine without Redis, its judgements are skipped with one loud
// line, and with WINDOW_KATAS_REQUIRE_REDIS set (CI) that is a failure instead.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readExpectation } from '../harness/judge/expectation.ts';
import { judge, releaseSlot, type JudgeOptions, type SessionSlot } from '../harness/judge/judge.ts';
import { loadProblems, type Problem } from '../harness/judge/problems.ts';
import { parseExamples } from '../harness/learner/statement.ts';
import { CommandRedis } from '../harness/redis/session.ts';
import { caseHints, isFixed, isScenario, type Suite } from '../harness/suite.ts';
import { redisForTests } from './redis-problem.ts';

/** The files that call checkProblems, one per share, in the order of their shares. */
export const SHARD_FILES = ['problems-a.test.ts', 'problems-b.test.ts'];

/** The tests of the problems at places `shard`, `shard + SHARD_FILES.length`, … of the ladder. */
export function checkProblems(shard: number): void {
  test('every share of the problems has its file', () => {
    SHARD_FILES.forEach((file, index) => {
      const text = readFileSync(path.join(import.meta.dirname, file), 'utf8');
      expect(text, file).toContain(`checkProblems(${index});`);
    });
  });
  checkProblemList(loadProblems().filter((_, index) => index % SHARD_FILES.length === shard));
}

/** The checks of every problem given (the tests of the Redis set-up give problems of a copy). */
export function checkProblemList(problems: Problem[]): void {
  const needing = problems.filter((problem) => problem.requires?.includes('redis'));
  let redis: CommandRedis | undefined;
  let judgeable = true;
  if (needing.length > 0) {
    const what = `the judgements of ${needing.map((p) => p.dir).join(', ')}`;
    const here = redisForTests(what);
    if (here === 'available') {
      // One Redis for the file, started by the first judgement that needs it.
      const opened = new CommandRedis();
      redis = opened;
      afterAll(() => opened.close());
    } else {
      judgeable = false;
      if (here === 'required') {
        test('Redis is available for the problems that require it', () => {
          expect.fail(`WINDOW_KATAS_REQUIRE_REDIS is set, but ${what} have no Redis`);
        });
      }
    }
  }
  for (const problem of problems) {
    const needsRedis = problem.requires?.includes('redis') ?? false;
    describeProblem(problem, {
      skipJudging: needsRedis && !judgeable,
      // The server is asked for only when a judgement runs its cases (see JudgeOptions.redis).
      ...(needsRedis && redis ? { redis: () => (redis as CommandRedis).optionsFor(problem) } : {}),
    });
  }
}

interface Judging {
  /** This machine cannot judge the problem (no Redis): its judgements are skipped. */
  skipJudging: boolean;
  redis?: JudgeOptions['redis'];
}

function describeProblem(problem: Problem, { skipJudging, redis }: Judging): void {
  /** A test that judges: skipped where the problem cannot be judged. */
  const judging = test.skipIf(skipJudging);
  const withRedis = redis ? { redis } : {};
  describe(problem.dir, () => {
    // One child process judges this problem's files one after another, as a grade's lane does: its
    // start and warm-up are paid once, not per file (half of these tests' CPU time). Each
    // judgement opens the runner in a fresh context, the child puts the built-ins back after every
    // case, and a child killed by a limit is replaced: no verdict leans on the one before (see
    // judge-integrity.test.ts and judge-mimic-isolation.test.ts).
    const slot: SessionSlot = {};
    afterAll(() => releaseSlot(slot));

    judging('the reference is accepted and passes every follow-up', async () => {
      const report = await judge({
        problem,
        solutionFile: problem.referenceFile,
        slot,
        ...withRedis,
      });
      const failing = report.cases
        .filter((c) => c.status !== 'passed')
        .map((c) => `${c.name}: ${c.status} ${c.message ?? ''}`);
      expect(failing).toEqual([]);
      expect(report.verdict).toBe('accepted');
      expect(report.followUps.total).toBeGreaterThan(0);
    });

    judging('the untouched stub is not started', async () => {
      const report = await judge({ problem, solutionFile: problem.stubFile, slot, ...withRedis });
      expect(report.verdict).toBe('not-started');
    });

    test('the statement shows exactly the example cases', async () => {
      const suite = ((await import(problem.suiteFile)) as { default: Suite }).default;
      const allExamples = suite.cases.filter((c) => c.tier === 'example');
      // Examples played on Redis are timelines relative to Redis's clock, not LeetCode's arrays:
      // test/redis-statement-examples.test.ts checks those against their statements.
      if (allExamples.length > 0 && allExamples.every(isScenario)) return;
      const examples = allExamples.filter(isFixed);
      const fromSuite = examples.map((c) => {
        const { methods, args, expected, targets } = c as Suite['cases'][number] & {
          methods: string[];
          args: unknown[][];
          expected: unknown[];
          targets?: number[];
        };
        return targets ? { methods, args, expected, targets } : { methods, args, expected };
      });
      expect(fromSuite.length).toBeGreaterThan(0);
      expect(parseExamples(readFileSync(problem.statementFile, 'utf8'))).toEqual(fromSuite);
    });

    test('the suite drives what problem.json says the learner exports', async () => {
      const suite = ((await import(problem.suiteFile)) as { default: Suite }).default;
      expect(suite.exports ?? 'class').toBe(problem.kind ?? 'class');
    });

    test('every hidden case names its trap and carries a hint', async () => {
      const suite = ((await import(problem.suiteFile)) as { default: Suite }).default;
      for (const c of suite.cases.filter((c) => c.tier !== 'example')) {
        expect(c.trap, c.name).toMatch(/^[a-z0-9-]+$/);
        const hints = Object.values(caseHints(c.hint));
        expect(hints.length, c.name).toBeGreaterThan(0);
        for (const hint of hints) expect(hint?.length ?? 0, c.name).toBeGreaterThan(20);
        // A case that judges speed or memory says which of its hints is for that failure.
        if (c.timeLimitMs !== undefined && c.tier === 'follow-up' && c.trap === 'scale') {
          expect(caseHints(c.hint).slow, c.name).toBeDefined();
        }
        if (c.retainedLimitMb !== undefined) expect(caseHints(c.hint).memory, c.name).toBeDefined();
      }
    });

    const wrong = existsSync(problem.mistakesDir)
      ? readdirSync(problem.mistakesDir).filter((f) => f.endsWith('.ts'))
      : [];
    test('keeps known-wrong implementations', () => {
      expect(wrong.length).toBeGreaterThan(0);
    });
    for (const file of wrong) {
      judging(`mistakes/${file} is caught by the trap it embodies`, async () => {
        const solutionFile = path.join(problem.mistakesDir, file);
        const expectation = await readExpectation(solutionFile);
        // The verdict comes from the example and core cases; of the follow-ups, only the trap's
        // own matter here (the others, some of them a million calls long, are not run). A slow
        // mistake is stopped at the limit it crosses, not half again past it: its verdict and trap
        // are the same, without the extra CPU time on every run of the tests.
        const report = await judge({
          problem,
          solutionFile,
          followUps: (info) => info.trap === expectation.trap,
          stopAtLimit: true,
          slot,
          ...withRedis,
        });
        const caught = report.cases.filter(
          (c) => c.trap === expectation.trap && c.status !== 'passed',
        );
        expect(report.verdict).toBe(expectation.verdict);
        expect(caught.map((c) => c.trap)).toContain(expectation.trap);
        // The report leads with that trap: its cause, not some other case the bug also broke.
        // Where the failing calls cannot tell two known mistakes apart, both lead, side by side.
        const traps = report.diagnosis?.traps ?? [];
        const tied = report.cases.find((c) => c.lead)?.mimics?.map((m) => m.trap) ?? [];
        expect(
          traps[0] === expectation.trap ||
            (traps.includes(expectation.trap) && tied.includes(expectation.trap)),
          JSON.stringify(report.diagnosis),
        ).toBe(true);
      });
    }
  });
}
