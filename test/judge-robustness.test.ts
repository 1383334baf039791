// The judge survives whatever learner code does, and says what it did: loops, memory hogs, throws,
// a child that dies, syntax errors, missing exports, forbidden imports.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ChildSession, cpuTimeMs } from '../harness/judge/child-session.ts';
import { runnerBundle, workerBundle } from '../harness/judge/compile.ts';
import { judge, killDeadline, type JudgeOptions } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';
import { correctPing, recentCounter, scratchDir, writeLearnerFile } from './helpers.ts';

const problem = findProblem(loadProblems(), '933')!;
const dir = scratchDir('robustness');

/** Judges `source` as a learner's file named `name`, with any of the judge's options. */
async function judgeSource(
  name: string,
  source: string,
  options: Pick<JudgeOptions, 'budgetMs' | 'followUps' | 'stopAtLimit'> = {},
) {
  return judge({ problem, solutionFile: writeLearnerFile(dir, `${name}.ts`, source), ...options });
}

describe('untrusted learner code', () => {
  test('a child killed by the judge is dead at once: talking to it fails softly, never the judge', async () => {
    const session = new ChildSession(await workerBundle());
    session.open({
      runner: await runnerBundle(problem.suiteFile),
      learnerFile: problem.referenceFile,
      className: problem.className,
    });
    session.kill();
    expect(session.alive).toBe(false);
    // Sent before its exit is seen: the write fails (EPIPE), which must not end this process.
    const outcome = await session.load('');
    expect(outcome.kind).toBe('died');
  });

  test('an infinite loop in a method is a time limit, and later cases still run', async () => {
    // Budget for the hung case and the one after it, not for every case that pings 100.
    const report = await judgeSource(
      'loop-method',
      recentCounter(`if (t === 100) { for (;;) {} } ${correctPing}`),
      { budgetMs: killDeadline(1000) + 500 },
    );
    expect(report.verdict).toBe('time-limit-exceeded');
    const statuses = report.cases.map((c) => c.status);
    expect(statuses).toContain('time-limit-exceeded');
    // The case after the hung one ran in a fresh child and passed.
    expect(report.cases[1]?.status).toBe('passed');
    // A stopped case reports the CPU time it really took: at least its kill deadline.
    const stopped = report.cases.find((c) => c.status === 'time-limit-exceeded');
    expect(stopped?.ms).toBeGreaterThanOrEqual(killDeadline(1000));
  });

  test('with stopAtLimit, a loop is stopped at the limit itself, and its verdict is the same', async () => {
    const report = await judgeSource(
      'loop-at-limit',
      recentCounter(`if (t === 100) { for (;;) {} } ${correctPing}`),
      { budgetMs: 1000 + 500, stopAtLimit: true },
    );
    expect(report.verdict).toBe('time-limit-exceeded');
    const stopped = report.cases.find((c) => c.status === 'time-limit-exceeded');
    expect(stopped?.ms).toBeGreaterThanOrEqual(1000);
    expect(stopped?.ms).toBeLessThan(killDeadline(1000));
    expect(stopped?.message).toMatch(/no answer within 1000 ms \(stopped after 1000 ms\)/);
  });

  test('an infinite loop in the constructor is a time limit within the problem budget', async () => {
    const source = `export class RecentCounter { constructor() { for (;;) {} } ping(t: number) { return t; } }`;
    // A budget of two hung cases rather than the default's four: what counts is that it stops.
    const report = await judgeSource('loop-ctor', source, { budgetMs: 2 * killDeadline(1000) });
    expect(report.verdict).toBe('time-limit-exceeded');
    // Stopped by the budget, which counts CPU time, and not by the problem's wall-time backstop
    // (PROBLEM_WALL_MS), which a busy machine may reach: the test once held the wall time under
    // 60 s, the backstop itself, and so said nothing a loaded machine could not break.
    const skipped = report.cases.filter((c) => c.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) expect(c.message).toMatch(/budget of CPU time was spent/);
  });

  test('a loop at the top level of the file is a time limit', async () => {
    const report = await judgeSource('loop-top', `for (;;) {}\n${recentCounter(correctPing)}`);
    expect(report.verdict).toBe('time-limit-exceeded');
    expect(report.message).toMatch(/did not finish loading/);
  });

  test('unbounded allocation is a memory limit', async () => {
    // The verdict is the first case's: no budget for the hogs after it.
    const report = await judgeSource(
      'hog',
      recentCounter(`const hog: number[][] = []; for (;;) hog.push(new Array(1000).fill(t));`),
      { budgetMs: 1 },
    );
    expect(report.verdict).toBe('memory-limit-exceeded');
  });

  test('process.exit is not there: calling it is a runtime error, never accepted', async () => {
    // `process` is no name TypeScript knows here either: the check is opted out of, to see it run.
    const report = await judgeSource('exit', recentCounter(`process.exit(0);`, '// @ts-nocheck'));
    expect(report.verdict).toBe('runtime-error');
    expect(report.cases[0]?.message).toBe('ReferenceError: process is not defined');
  });

  test('a child that dies during a case is run again once; dying twice is a runtime error', async () => {
    const solutionFile = writeLearnerFile(dir, 'dies.ts', recentCounter(`for (;;) {}`));
    const judging = judge({ problem, solutionFile, budgetMs: 1 });
    // Kill the child from outside, as the kernel's OOM killer would, once its case is looping;
    // and the fresh child the case is run again in, too.
    let kills = 0;
    const killed = (): boolean => kills >= 2;
    for (let i = 0; i < 400 && !killed(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const workers = spawnSync('pgrep', ['-P', String(process.pid), '-f', 'worker-'], {
        encoding: 'utf8',
      })
        .stdout.split('\n')
        .filter(Boolean)
        .map(Number);
      for (const pid of workers) {
        if ((cpuTimeMs(pid) ?? 0) < 500) continue;
        process.kill(pid, 'SIGKILL');
        kills += 1;
      }
    }
    const report = await judging;
    expect(kills).toBe(2);
    expect(report.verdict).toBe('runtime-error');
    expect(report.cases[0]?.message).toMatch(/process ended \(SIGKILL\)/);
  });

  test('a thrown exception is a runtime error with the stack cut to the learner file', async () => {
    const report = await judgeSource(
      'throws',
      recentCounter(`throw new RangeError('boom at ' + t);`),
    );
    expect(report.verdict).toBe('runtime-error');
    const first = report.cases[0]!;
    expect(first.message).toBe('RangeError: boom at 1');
    expect(first.stack).toMatch(/throws\.ts:\d+/);
    expect(first.stack).not.toMatch(/harness/);
  });

  test('a syntax error is a compile error naming file and line', async () => {
    const report = await judgeSource(
      'syntax',
      `export class RecentCounter {\n  ping(t: number): number {\n    return t +;\n  }\n}\n`,
    );
    expect(report.verdict).toBe('compile-error');
    expect(report.message).toMatch(/syntax\.ts:3:\d+/);
    expect(report.cases.every((c) => c.status === 'skipped')).toBe(true);
  });

  test('a missing or misnamed class is a compile error', async () => {
    const report = await judgeSource('misnamed', `export class Counter { ping() { return 1; } }`);
    expect(report.verdict).toBe('compile-error');
    expect(report.message).toMatch(
      /must export a class named RecentCounter \(it exports: Counter\)/,
    );
  });

  test('importing the reference or the judge is a compile error saying why', async () => {
    const spoiler = path.relative(dir, problem.referenceFile);
    const report = await judgeSource(
      'cheat',
      `export { RecentCounter } from ${JSON.stringify(spoiler)};`,
    );
    expect(report.verdict).toBe('compile-error');
    expect(report.message).toMatch(/may not import anything/);
    const judgeFile = path.relative(
      dir,
      path.join(problem.referenceFile, '../../../harness/suite.ts'),
    );
    const report2 = await judgeSource(
      'cheat2',
      `import ${JSON.stringify(judgeFile)};\n${recentCounter(correctPing)}`,
    );
    expect(report2.message).toMatch(/may not import anything/);
  });

  test('a throw while loading the file is a runtime error', async () => {
    const report = await judgeSource(
      'top-throw',
      `throw new Error('at load');\n${recentCounter(correctPing)}`,
    );
    expect(report.verdict).toBe('runtime-error');
    expect(report.message).toMatch(/at load/);
  });

  test('what the learner prints is captured, not mixed into the report', async () => {
    // Without the follow-ups: printing on each of their million pings proves nothing more.
    const report = await judgeSource(
      'prints',
      recentCounter(`console.log('debug', t); ${correctPing}`),
      { followUps: () => false },
    );
    expect(report.verdict).toBe('accepted');
    expect(report.output).toMatch(/debug 1/);
  });

  test('a solution shaped as on LeetCode (no window parameter, export added) is accepted', async () => {
    const leetCode = `export class RecentCounter {
    queue: number[];
    constructor() {
        this.queue = [];
    }

    ping(t: number): number {
        this.queue.push(t);
        while (this.queue[0] < t - 3000) {
            this.queue.shift();
        }
        return this.queue.length;
    }
}
`;
    const report = await judgeSource('leetcode', leetCode);
    expect(report.verdict).toBe('accepted');
    // It ignores the window, so the custom-window follow-up catches it; the verdict does not care.
    expect(report.cases.find((c) => c.trap === 'custom-window')?.status).toBe('failed');
  });

  test('an empty budget skips the remaining cases', async () => {
    const solutionFile = writeLearnerFile(dir, 'budget.ts', recentCounter(correctPing));
    const report = await judge({ problem, solutionFile, budgetMs: 0 });
    expect(report.cases.every((c) => c.status === 'skipped')).toBe(true);
    expect(report.verdict).toBe('time-limit-exceeded');
  });

  test('follow-ups can be picked; the others are skipped and the verdict stands', async () => {
    const report = await judge({
      problem,
      solutionFile: problem.referenceFile,
      followUps: (info) => info.trap === 'custom-window',
    });
    expect(report.verdict).toBe('accepted');
    const followUps = report.cases.filter((c) => c.tier === 'follow-up');
    expect(followUps.filter((c) => c.status === 'passed').map((c) => c.trap)).toEqual([
      'custom-window',
    ]);
    expect(followUps.filter((c) => c.status === 'skipped').length).toBe(followUps.length - 1);
  });
});
