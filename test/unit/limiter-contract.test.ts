// The limiter katas' shared contract (harness/limiter-contract.ts): the headers it fills in, the
// words it needs, and the calls its builders write. The suites that use it are held to what they
// were by test/suite-snapshot.ts; this is what the builders promise on their own.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  BAD_WHOLE,
  contractCases,
  LimiterScript,
  randomSteps,
} from '../../harness/limiter-contract.ts';
import { THROWS } from '../../harness/limiter-script.ts';
import { decode } from '../../harness/suite.ts';

const script = (): LimiterScript => new LimiterScript('L');

test('a shared case gets its header in the kata’s words, then its clock, then its calls', () => {
  const contract = contractCases({ thing: 'queue', keeps: 'queues' });
  const calls = script().build([1]).done();
  const made = contract('instance-isolation', 7, calls);
  expect(Object.keys(made)).toEqual([
    'name',
    'tier',
    'trap',
    'hint',
    'fixtures',
    ...Object.keys(calls),
  ]);
  expect(made).toMatchObject({
    name: 'two queues on one clock',
    tier: 'core',
    trap: 'instance-isolation',
    hint: 'Each queue must keep its own queues. Is any of your state shared by every instance?',
    fixtures: { clock: { args: [7] } },
  });
});

test('a shared case whose hint needs a word the kata did not give is refused at load', () => {
  const contract = contractCases({ thing: 'limiter' });
  expect(() => contract('key-isolation', 0, script().done())).toThrow(/needs the word "perKey"/);
});

test('bad settings replace one position at a time, each constructor expected to throw', () => {
  const calls = decode(
    script()
      .badSettings([2, 1000], [[0], BAD_WHOLE.slice(0, 2)])
      .done(),
  );
  expect(calls.map((c) => [c.args.slice(0, 2), c.expected, c.target])).toEqual([
    [[0, 1000], THROWS, 0],
    [[2, 0], THROWS, 1],
    [[2, -1], THROWS, 2],
  ]);
});

test('random steps are calls of the given methods, clock moves, and sets only when asked', () => {
  const steps = fc.sample(
    randomSteps({
      methods: ['submit'],
      keys: ['k'],
      cost: fc.constant(undefined),
      advance: fc.integer({ min: 0, max: 5 }),
      maxLength: 10,
    }),
    { seed: 1, numRuns: 50 },
  );
  const methods = new Set(steps.flat().map((step) => step.method));
  expect([...methods].sort()).toEqual(['clock.advance', 'submit']);
  expect(steps.every((s) => s.length >= 1 && s.length <= 10)).toBe(true);
});
