// The runner's side of async suites: which cases are async, the mistakes a suite can make with
// them, and an async case run to a CaseResult against the reference run directly.
import { describe, expect, test } from 'vitest';
import { directPort } from '../../harness/sandbox/port.ts';
import { createRunner } from '../../harness/judge/child/runner.ts';
import { defineSuite, parallel, PARALLEL, type Case } from '../../harness/suite.ts';

class Echo {
  async say(word: string): Promise<string> {
    await null;
    return word;
  }
  async fail(): Promise<never> {
    await null;
    throw new RangeError('no');
  }
}

const fixed = (name: string, over: Partial<Case> = {}): Case =>
  ({
    name,
    tier: 'core',
    trap: name,
    hint: 'say it back',
    methods: ['Echo', 'say', 'say'],
    args: [[], ['a'], ['b']],
    expected: [null, 'a', 'b'],
    ...over,
  }) as Case;

describe('async suites in the runner', () => {
  test('a case is async by its own flag, else by its suite’s', () => {
    const runner = createRunner(
      defineSuite({
        reference: Echo,
        async: true,
        cases: [fixed('inherits'), fixed('opts out', { async: false })],
      }),
    );
    expect([runner.isAsync(0), runner.isAsync(1), runner.isAsync(9)]).toEqual([true, false, false]);
    const plain = createRunner(
      defineSuite({ reference: Echo, cases: [fixed('plain'), fixed('opts in', { async: true })] }),
    );
    expect([plain.isAsync(0), plain.isAsync(1)]).toEqual([false, true]);
  });

  test('a parallel step in a synchronous case, or an async property case, is refused at once', () => {
    const step = fixed('burst', {
      methods: ['Echo', PARALLEL],
      args: [[], [{ method: 'say', args: ['a'] }]],
      expected: [null, { where: 'a', between: [1, 1] }],
    } as Partial<Case>);
    expect(() => createRunner(defineSuite({ reference: Echo, cases: [step] }))).toThrow(
      'case "burst": a parallel step needs an async case',
    );
    expect(() =>
      createRunner(defineSuite({ reference: Echo, async: true, cases: [step] })),
    ).not.toThrow();
    const property = {
      name: 'random',
      tier: 'core',
      trap: 'random',
      async: true,
      property: { calls: null },
    } as unknown as Case;
    expect(() => createRunner(defineSuite({ reference: Echo, cases: [property] }))).toThrow(
      'a property case cannot be async',
    );
  });

  test('runAsync awaits the reference’s promises and classifies as runCase does', async () => {
    const runner = createRunner(
      defineSuite({
        reference: Echo,
        async: true,
        cases: [
          fixed('echo'),
          fixed('wrong', { expected: [null, 'a', 'c'] }),
          fixed('rejects', { methods: ['Echo', 'fail'], args: [[], []], expected: [null, null] }),
          fixed('burst', {
            methods: ['Echo', PARALLEL],
            args: [
              [],
              parallel(
                [
                  { method: 'say', args: ['a'] },
                  { method: 'say', args: ['b'] },
                ],
                'a',
                [1, 1],
              ).args,
            ],
            expected: [null, { where: 'a', between: [1, 1] }],
          } as Partial<Case>),
        ],
      }),
    );
    const run = (index: number) =>
      runner.runAsync(index, directPort(Echo), 'Echo', 'echo.ts', (s) => s);
    expect(await run(0)).toMatchObject({ status: 'passed', totalCalls: 3 });
    expect(await run(1)).toMatchObject({
      status: 'failed',
      divergedAt: 2,
      message: 'call 2 returned a wrong value',
    });
    expect(await run(2)).toMatchObject({ status: 'runtime-error', message: 'RangeError: no' });
    const burst = await run(3);
    expect(burst.status).toBe('passed');
    expect(burst.calls?.[1]).toMatchObject({
      method: 'parallel',
      args: 'say("a"), say("b")',
      expected: '1 of 2 match "a"',
      actual: '1 of 2 match "a"',
    });
  });
});
