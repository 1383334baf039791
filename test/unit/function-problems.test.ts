// Function problems: the learner exports a function, and every call of a case calls it afresh. The
// judge drives it as it drives a class (a call named as the export goes to `construct`, which then
// calls the function), so verdicts, property cases, diagnosis and limits all carry over.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { directPort } from '../../harness/judge/child/port.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/judge/child/realm.ts';
import { runCase, type RunContext } from '../../harness/judge/child/run-case.ts';
import type { KnownWrong } from '../../harness/judge/child/runner.ts';
import { parseExamples } from '../../harness/learner/statement.ts';
import {
  functionCalls,
  withinTolerance,
  type AnyFunction,
  type Case,
  type Suite,
} from '../../harness/suite.ts';

/** The reference: the sum of each pair of neighbours. */
const pairs = (nums: number[]): number[] => nums.slice(1).map((n, i) => n + (nums[i] as number));

/** Wrong: drops the last pair. */
const short = (nums: number[]): number[] => pairs(nums).slice(0, -1);

const fixed: Case = {
  name: 'two calls',
  tier: 'core',
  trap: 'pairs',
  hint: 'neighbours, added up',
  ...functionCalls('pairs', [
    { args: [[1, 2, 3]], expected: [3, 5] },
    { args: [[4, 4]], expected: [8] },
  ]),
};

function context(learner: AnyFunction | LearnerRealm, extra: Partial<Suite> = {}): RunContext {
  return {
    suite: { reference: pairs, exports: 'function', cases: [], ...extra },
    learner: typeof learner === 'function' ? directPort(learner, undefined, true) : learner,
    className: 'pairs',
    learnerFile: '/nowhere/solution.ts',
  };
}

/** A realm holding `source` (the body of a module exporting `pairs`), loaded as a function. */
function realmWith(source: string): LearnerRealm {
  const realm = new LearnerRealm();
  const code = `var ${LEARNER_GLOBAL} = (() => {${source}})();`;
  expect(realm.load(code, 'learner.js', 'pairs', true)).toEqual({ ok: true });
  return realm;
}

describe('a function problem', () => {
  test('each call is judged on its answer, shown with its arguments', () => {
    expect(runCase(fixed, context(pairs)).status).toBe('passed');
    const failed = runCase(fixed, context(short));
    expect(failed).toMatchObject({ status: 'failed', divergedAt: 0 });
    expect(failed.calls?.[0]).toMatchObject({
      method: 'pairs',
      args: '[1,2,3]',
      expected: '[3,5]',
      actual: '[3]',
      ok: false,
    });
  });

  test('a long answer cut short where it looks right says where it differs', () => {
    const long: Case = {
      name: 'long',
      tier: 'core',
      trap: 'long',
      hint: 'a long list of pairs',
      ...functionCalls('pairs', [
        { args: [Array.from({ length: 60 }, (_, i) => i)], expected: [] },
      ]),
    };
    const wrongAt = (nums: number[]): number[] => pairs(nums).map((n, i) => (i === 40 ? -1 : n));
    const expected = pairs(Array.from({ length: 60 }, (_, i) => i));
    const c = { ...long, expected: [expected] } as Case;
    expect(runCase(c, context(wrongAt)).calls?.[0]?.differences).toEqual([
      { field: '[40]', expected: '81', actual: '-1' },
    ]);
    expect(runCase(c, context(short)).calls?.[0]?.differences).toEqual([
      { field: 'length', expected: '59', actual: '58' },
    ]);
  });

  test('in its realm, it is called plainly, and changing its arguments changes nothing of the judge', () => {
    const realm = realmWith(
      'function pairs(nums) { "use strict"; const self = this; nums.push(0); nums.pop(); nums[0] = 99; ' +
        'return self === undefined ? [nums.length] : null; } return { pairs };',
    );
    const args = [[1, 2, 3]];
    expect(realm.construct(0, args)).toEqual({ ok: true, value: [3] });
    expect(args).toEqual([[1, 2, 3]]);
    expect(realm.construct(0, [[5]])).toEqual({ ok: true, value: [1] });
  });

  test('the reference and known-wrong functions get copies too', () => {
    const sorting = (nums: number[]): number[] => nums.sort((a, b) => b - a).slice(0, 1);
    const args = [[1, 3, 2]];
    expect(directPort(sorting, undefined, true).construct(0, args)).toEqual({
      ok: true,
      value: [3],
    });
    expect(args).toEqual([[1, 3, 2]]);
  });

  test('a property case shrinks to a one-call counterexample, and the known mistake is named', () => {
    const property: Case = {
      name: 'random',
      tier: 'core',
      trap: 'random-core',
      hint: 'random arrays against the reference',
      property: {
        calls: fc
          .array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 })
          .map((nums) => functionCalls('pairs', [{ args: [nums], expected: null }])),
      },
    };
    const wrongs: KnownWrong[] = [
      { file: 'short.ts', trap: 'drops-last', verdict: 'wrong-answer', find: () => short },
    ];
    const result = runCase(property, { ...context(short), wrongs });
    expect(result.status).toBe('failed');
    expect(result.calls).toHaveLength(1);
    expect(result.calls?.[0]?.args).toBe('[0,0]');
    expect(result.mimics).toEqual([{ file: 'short.ts', trap: 'drops-last' }]);
  });

  test('loaded from a realm, a missing function is told by name', () => {
    const realm = new LearnerRealm();
    const code = `var ${LEARNER_GLOBAL} = (() => ({ other: 1 }))();`;
    expect(realm.load(code, 'learner.js', 'pairs', true)).toEqual({
      ok: false,
      missing: 'it exports: other',
    });
  });
});

test('withinTolerance compares numbers in lists loosely, -0 as 0, and the rest exactly', () => {
  const equals = withinTolerance(1e-5);
  expect(equals([1.5, -0, 2], [1.500001, 0, 2])).toBe(true);
  expect(equals([[0.5]], [[0.5000001]])).toBe(true);
  expect(equals([1.5], [1.6])).toBe(false);
  expect(equals([1, 2], [1])).toBe(false);
  expect(equals(['1'], [1])).toBe(false);
});

test("a statement's function example is one call, with its arguments and answer", () => {
  const markdown = [
    '```text',
    'call:    maxSlidingWindow([1, 3, -1], 2)',
    'returns: [3, 3]',
    '```',
  ].join('\n');
  expect(parseExamples(markdown)).toEqual([
    { methods: ['maxSlidingWindow'], args: [[[1, 3, -1], 2]], expected: [[3, 3]] },
  ]);
});
