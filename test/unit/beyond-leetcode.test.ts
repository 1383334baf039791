// Cases stricter than LeetCode on purpose: a suite marks them `beyondLeetCode`, the mark travels with
// the case (CaseInfo, then the parent puts it on the result), and a failing one says in the report
// that LeetCode's own tests miss it.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createRunner } from '../../harness/judge/child/runner.ts';
import { judge } from '../../harness/judge/judge.ts';
import type { CaseResult, ProblemReport } from '../../harness/judge/outcome.ts';
import { findProblem, loadProblems } from '../../harness/judge/problems.ts';
import { formatReport } from '../../harness/terminal/report.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import type { Case, Suite } from '../../harness/suite.ts';

const problems = loadProblems();
const plain = makeStyle(false);
const LINE = "LeetCode's own tests miss this; an interviewer may not.";

class Acc {
  sum = 0;
  add(n: number): number {
    return (this.sum += n);
  }
}

const accCase = (name: string, trap: string, extra: Partial<Case> = {}): Case => ({
  name,
  tier: 'core',
  trap,
  hint: 'Each accumulator keeps its own sum.',
  methods: ['Acc', 'add'],
  args: [[], [1]],
  expected: [null, 1],
  ...extra,
});

test('the mark is carried into CaseInfo, false when the suite does not set it', () => {
  const cases = [
    accCase('marked', 'instance-isolation', { beyondLeetCode: true }),
    accCase('plain', 'some-trap'),
  ];
  const runner = createRunner({ reference: Acc, cases });
  expect(runner.cases.map((c) => [c.name, c.beyondLeetCode])).toEqual([
    ['marked', true],
    ['plain', false],
  ]);
});

describe('the report', () => {
  const problem = findProblem(problems, '933')!;
  const failing = (values: Partial<CaseResult>): CaseResult => ({
    name: 'two counters interleaved',
    tier: 'core',
    trap: 'instance-isolation',
    hint: 'Is any of your state shared by every instance?',
    status: 'failed',
    ms: 1,
    message: 'call 5 returned a wrong value',
    ...values,
  });
  const render = (result: CaseResult): string => {
    const report: ProblemReport = {
      dir: problem.dir,
      verdict: result.status === 'skipped' ? 'accepted' : 'wrong-answer',
      cases: [result],
      followUps: { passed: 0, total: 0 },
      output: '',
      ms: 5,
    };
    return formatReport(problem, report, { reveal: false, style: plain });
  };

  test('a failing case marked beyond LeetCode says so, after its hint', () => {
    const text = render(failing({ beyondLeetCode: true }));
    expect(text).toContain(`\n  ${LINE}\n`);
    expect(text.indexOf(LINE)).toBeGreaterThan(text.indexOf('Hint:'));
  });

  test('an unmarked failure, or a marked case that was skipped, does not', () => {
    expect(render(failing({}))).not.toContain(LINE);
    expect(render(failing({ beyondLeetCode: true, status: 'skipped' }))).not.toContain(LINE);
  });
});

describe('the suites', () => {
  const suiteOf = async (id: string): Promise<Suite> =>
    ((await import(findProblem(problems, id)!.suiteFile)) as { default: Suite }).default;
  const marked = (suite: Suite): string[] =>
    suite.cases.filter((c) => c.beyondLeetCode).map((c) => c.trap ?? '');

  test("LeetCode's problems mark instance isolation, and 359 and 981 keys named like object properties", async () => {
    for (const id of ['933', '362', '346', '703', '1352', '2034']) {
      expect(marked(await suiteOf(id)), id).toEqual(['instance-isolation']);
    }
    for (const id of ['359', '981']) {
      expect(marked(await suiteOf(id)).sort(), id).toEqual([
        'instance-isolation',
        'prototype-keys',
      ]);
    }
  });

  test('only core cases are marked: a follow-up never decides the verdict anyway', async () => {
    for (const problem of problems) {
      const suite = await suiteOf(problem.dir);
      for (const c of suite.cases.filter((c) => c.beyondLeetCode)) {
        expect(c.tier, `${problem.dir}: ${c.name}`).toBe('core');
      }
    }
  });
});

test('the judge puts the mark on the case result, and only on that case', async () => {
  const problem = findProblem(problems, '933')!;
  const report = await judge({
    problem,
    solutionFile: path.join(problem.mistakesDir, 'module-queue.ts'),
    followUps: () => false,
  });
  const isolation = report.cases.find((c) => c.trap === 'instance-isolation');
  expect(isolation).toMatchObject({ status: 'failed', beyondLeetCode: true });
  const others = report.cases.filter((c) => c !== isolation && c.beyondLeetCode);
  expect(others).toEqual([]);
  expect(formatReport(problem, report, { reveal: false, style: plain })).toContain(LINE);
});
