// Verdicts from case results, and the examples read out of a statement.
import { describe, expect, test } from 'vitest';
import type { CaseResult, CaseStatus } from '../../harness/judge/outcome.ts';
import { parseExamples } from '../../harness/learner/statement.ts';
import type { Tier } from '../../harness/suite.ts';
import { byTier, countFollowUps, decideVerdict, verdictOf } from '../../harness/judge/verdict.ts';

function result(tier: Tier, status: CaseStatus, extra: Partial<CaseResult> = {}): CaseResult {
  return { name: `${tier} ${status}`, tier, trap: null, hint: null, status, ms: 0, ...extra };
}

describe('byTier', () => {
  test('orders examples, core, then follow-ups, keeping the order within a tier', () => {
    const items = [
      { tier: 'follow-up' as Tier, n: 1 },
      { tier: 'core' as Tier, n: 2 },
      { tier: 'example' as Tier, n: 3 },
      { tier: 'core' as Tier, n: 4 },
      { tier: 'example' as Tier, n: 5 },
      { tier: 'follow-up' as Tier, n: 6 },
    ];
    expect(byTier(items).map((i) => i.n)).toEqual([3, 5, 2, 4, 1, 6]);
    // It returns a new array and leaves its input alone.
    expect(items.map((i) => i.n)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('decideVerdict', () => {
  test('every example and core case passing is accepted, whatever the follow-ups did', () => {
    expect(
      decideVerdict([
        result('example', 'passed'),
        result('core', 'passed'),
        result('follow-up', 'failed'),
        result('follow-up', 'time-limit-exceeded'),
      ]),
    ).toBe('accepted');
  });

  test('the first failing case in tier order decides, not the first in the list', () => {
    expect(
      decideVerdict([
        result('core', 'runtime-error'),
        result('example', 'failed'),
        result('core', 'time-limit-exceeded'),
      ]),
    ).toBe('wrong-answer');
    expect(
      decideVerdict([
        result('example', 'passed'),
        result('core', 'memory-limit-exceeded'),
        result('core', 'failed'),
      ]),
    ).toBe('memory-limit-exceeded');
  });

  test('a skipped case means the time ran out: time limit exceeded', () => {
    expect(decideVerdict([result('example', 'passed'), result('core', 'skipped')])).toBe(
      'time-limit-exceeded',
    );
  });

  test('not started only when every deciding case hit the stub', () => {
    const stub = { notImplemented: true };
    expect(
      decideVerdict([
        result('example', 'runtime-error', stub),
        result('core', 'runtime-error', stub),
        result('follow-up', 'passed'),
      ]),
    ).toBe('not-started');
    expect(
      decideVerdict([result('example', 'runtime-error', stub), result('core', 'passed')]),
    ).toBe('runtime-error');
  });

  test('with no deciding case at all there is nothing to fail', () => {
    expect(decideVerdict([])).toBe('accepted');
    expect(decideVerdict([result('follow-up', 'failed')])).toBe('accepted');
  });

  test('verdictOf maps each case status', () => {
    expect(
      (
        [
          'passed',
          'failed',
          'time-limit-exceeded',
          'memory-limit-exceeded',
          'runtime-error',
          'skipped',
        ] as CaseStatus[]
      ).map(verdictOf),
    ).toEqual([
      'accepted',
      'wrong-answer',
      'time-limit-exceeded',
      'memory-limit-exceeded',
      'runtime-error',
      'time-limit-exceeded',
    ]);
  });
});

test('countFollowUps counts only follow-ups', () => {
  expect(
    countFollowUps([
      result('example', 'passed'),
      result('follow-up', 'passed'),
      result('follow-up', 'failed'),
      result('follow-up', 'passed'),
      result('core', 'failed'),
    ]),
  ).toEqual({ passed: 2, total: 3 });
  expect(countFollowUps([])).toEqual({ passed: 0, total: 0 });
});

describe('parseExamples', () => {
  test('reads calls, args and returns from each text block', () => {
    const md = [
      '# Title',
      '```text',
      'calls:   ["A", "f"]',
      'args:    [[], [1]]',
      'returns: [null, 2]',
      '```',
      'Between.',
      '```text',
      '  calls: ["A", "A", "g"]',
      '  args: [[], [], ["x"]]',
      '  targets: [0, 1, 1]',
      '  returns: [null, null, true]',
      '```',
    ].join('\n');
    expect(parseExamples(md)).toEqual([
      { methods: ['A', 'f'], args: [[], [1]], expected: [null, 2] },
      {
        methods: ['A', 'A', 'g'],
        args: [[], [], ['x']],
        expected: [null, null, true],
        targets: [0, 1, 1],
      },
    ]);
    expect(parseExamples(md)[0]).not.toHaveProperty('targets');
  });

  test('ignores other blocks, incomplete examples and other lines', () => {
    const md = [
      '```ts',
      'calls: ["Not", "this"]',
      'args: [[], []]',
      'returns: [null, 1]',
      '```',
      '```text',
      'calls: ["Only", "calls"]',
      'args: [[], []]',
      '```',
      '```text',
      'Explanation: ignored',
      'calls: ["B"]',
      'args: [[]]',
      'returns: [null]',
      '```',
      'calls: ["Outside"]',
    ].join('\n');
    expect(parseExamples(md)).toEqual([{ methods: ['B'], args: [[]], expected: [null] }]);
    expect(parseExamples('no examples here')).toEqual([]);
  });

  test('a line that is not JSON is an error, not a silent skip', () => {
    expect(() => parseExamples('```text\ncalls: [oops\nargs: []\nreturns: []\n```')).toThrow(
      SyntaxError,
    );
  });
});
