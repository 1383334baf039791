// Pasted JavaScript that assigns a variable it never declared: sloppy scripts allow it, modules (and
// so the judge) throw "x is not defined". The report adds that modules are strict and the variable
// needs `let`, for an error thrown in a case and for one thrown while the file loads; a name that
// is a global somewhere (process, window, require, …) gets no such advice.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileLearner, runnerBundle } from '../../harness/judge/compile.ts';
import type { ChildMessage, ParentMessage } from '../../harness/judge/child/protocol.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/sandbox/realm.ts';
import { runCase, undeclaredAdvice } from '../../harness/judge/child/run-case.ts';
import { findProblem, loadProblems } from '../../harness/judge/problems.ts';
import type { Case } from '../../harness/suite.ts';
import { scratchDir, writeLearnerFile } from '../helpers.ts';

const referenceError = (message: string) => ({
  isError: true,
  name: 'ReferenceError',
  message,
});

describe('undeclaredAdvice', () => {
  test('a name that is no global is a missing declaration: `let` (or `const`)', () => {
    const advice = undeclaredAdvice(referenceError('count is not defined'));
    expect(advice).toContain('modules are strict');
    expect(advice).toContain('count needs `let` (or `const`)');
    expect(undeclaredAdvice(referenceError('$seen_1 is not defined'))).toContain('$seen_1 needs');
  });

  test("a host's global, missing from the sealed realm, needs no declaration", () => {
    for (const name of [
      'process',
      'Buffer',
      'performance',
      'structuredClone',
      'require',
      'window',
    ]) {
      expect(undeclaredAdvice(referenceError(`${name} is not defined`)), name).toBe('');
    }
  });

  test('other errors are left as they are', () => {
    expect(undeclaredAdvice({ ...referenceError('x is not defined'), name: 'TypeError' })).toBe('');
    expect(undeclaredAdvice({ ...referenceError('x is not defined'), isError: false })).toBe('');
    expect(undeclaredAdvice(referenceError("Cannot access 'x' before initialization"))).toBe('');
  });
});

/** The reference: a running sum (the learner's class below assigns `total` undeclared). */
class Acc {
  sum = 0;
  add(n: number): number {
    this.sum += n;
    return this.sum;
  }
}

const fixed: Case = {
  name: 'one addition',
  tier: 'example',
  trap: null,
  methods: ['Acc', 'add'],
  args: [[], [1]],
  expected: [null, 1],
};

test('a case that throws it says so, in the strict realm the judge runs learner code in', () => {
  const realm = new LearnerRealm();
  const loaded = realm.load(
    `var ${LEARNER_GLOBAL} = (() => {\nclass Acc {\n  add(n) {\n    total = n;\n    return total;\n  }\n}\nreturn { Acc };\n})();`,
    'learner.js',
    'Acc',
  );
  expect(loaded).toEqual({ ok: true });
  const result = runCase(fixed, {
    suite: { reference: Acc, cases: [fixed] },
    learner: realm,
    className: 'Acc',
    learnerFile: '/nowhere/solution.ts',
  });
  expect(result.status).toBe('runtime-error');
  expect(result.message).toMatch(/^ReferenceError: total is not defined\. .*modules are strict/);
  expect(result.message).toContain('total needs `let` (or `const`).');
});

describe('at load', () => {
  const problem = findProblem(loadProblems(), '933')!;
  const dir = scratchDir('undeclared');
  const originalSend = process.send;
  let sent: ChildMessage[] = [];
  let handleMessage: (message: ParentMessage) => void;

  beforeAll(async () => {
    // worker.ts takes process.send when it is first imported: it sees only this one.
    process.send = ((message: ChildMessage) => {
      sent.push(message);
      return true;
    }) as typeof process.send;
    ({ handleMessage } = await import('../../harness/judge/child/worker.ts'));
  });

  afterAll(() => {
    handleMessage({ type: 'close' });
    process.send = originalSend;
  });

  async function load(name: string, source: string): Promise<string> {
    const learnerFile = writeLearnerFile(dir, `${name}.ts`, source);
    const compiled = await compileLearner(learnerFile);
    if (!compiled.ok) throw new Error(compiled.message);
    const runner = await runnerBundle(problem.suiteFile);
    sent = [];
    handleMessage({ type: 'open', runner, learnerFile, className: 'RecentCounter' });
    handleMessage({ type: 'load', code: compiled.code, libraries: compiled.libraries });
    const failed = sent.find((m) => m.type === 'load-failed') as { message: string } | undefined;
    return failed?.message ?? '';
  }

  test('an undeclared variable at the top level gets the advice', async () => {
    const message = await load(
      'top-level',
      'limit = 3000;\nexport class RecentCounter { ping(t: number) { return t; } }\n',
    );
    expect(message).toMatch(/^loading the solution threw ReferenceError: limit is not defined\. /);
    expect(message).toContain('limit needs `let` (or `const`).');
  });

  test("a host's global at the top level does not", async () => {
    const message = await load(
      'host-global',
      'const exit = process.exit;\nexport class RecentCounter { ping(t: number) { return t; } }\n',
    );
    expect(message).toBe('loading the solution threw ReferenceError: process is not defined');
  });
});
