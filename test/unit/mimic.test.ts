// Naming the known mistake behind a failure: the replay against known-wrong implementations
// (mimic.ts) and the runner that carries them (runner.ts), run in this process.
import { describe, expect, test } from 'vitest';
import { answerEquals } from '../../harness/judge/child/drive.ts';
import {
  knownMistakes,
  MIMIC_MAX_CALLS,
  type KnownWrong,
} from '../../harness/judge/child/mimic.ts';
import { directPort } from '../../harness/sandbox/port.ts';
import { cpuMs } from '../../harness/judge/child/run-case.ts';
import { createRunner } from '../../harness/judge/child/runner.ts';
import { decode, defineSuite, fromCalls, type AnyClass } from '../../harness/suite.ts';

class Acc {
  private sum = 0;
  add(n: number): number {
    this.sum += n;
    return this.sum;
  }
}
class OffByOne {
  private sum = 0;
  add(n: number): number {
    this.sum += n;
    return this.sum + (this.sum > 1 ? 1 : 0);
  }
}
class Throws {
  add(n: number): number {
    if (n > 1) throw new TypeError('no');
    return n;
  }
}

const wrong = (file: string, trap: string, cls: AnyClass | undefined, verdict = 'wrong-answer') =>
  ({ file, trap, verdict, find: () => cls }) as KnownWrong;

const encoded = { methods: ['Acc', 'add', 'add'], args: [[], [1], [2]], expected: [null, 1, 3] };
const request = {
  className: 'Acc',
  source: fromCalls(decode(encoded)),
  fixtures: undefined,
  equals: answerEquals(),
  budgetMs: 1000,
  cpuMs,
};

describe('knownMistakes', () => {
  test('names the mistakes that fail at the same call with the same answer', () => {
    const found = knownMistakes({
      ...request,
      wrongs: [
        wrong('off-by-one.ts', 'off', OffByOne),
        wrong('right.ts', 'none', Acc),
        wrong('throws.ts', 'throwing', Throws),
        wrong('hangs.ts', 'slow', OffByOne, 'time-limit-exceeded'),
        wrong('missing.ts', 'gone', undefined),
      ],
      divergedAt: 2,
      diverged: { actual: 4 },
    });
    expect(found).toEqual([{ file: 'off-by-one.ts', trap: 'off' }]);
  });

  test('an exception matches one of the same kind at the same call', () => {
    const found = knownMistakes({
      ...request,
      wrongs: [wrong('off-by-one.ts', 'off', OffByOne), wrong('throws.ts', 'throwing', Throws)],
      divergedAt: 2,
      diverged: {
        actual: undefined,
        threw: { isError: true, name: 'TypeError', message: 'x', stack: '' },
      },
    });
    expect(found).toEqual([{ file: 'throws.ts', trap: 'throwing' }]);
  });

  test('replays nothing past its call limit or its CPU budget', () => {
    const wrongs = [wrong('off-by-one.ts', 'off', OffByOne)];
    const diverged = { actual: 4 };
    expect(
      knownMistakes({ ...request, wrongs, divergedAt: MIMIC_MAX_CALLS + 1, diverged }),
    ).toEqual([]);
    expect(knownMistakes({ ...request, wrongs, divergedAt: 2, diverged, budgetMs: -1 })).toEqual(
      [],
    );
  });
});

describe('the runner', () => {
  const suite = defineSuite({
    reference: Acc,
    sharedStateTrap: 'shared',
    cases: [{ name: 'sums', tier: 'core', trap: 'off', hint: 'Add it up.', ...encoded }],
  });
  const runner = createRunner(suite, [
    {
      file: 'off-by-one.ts',
      module: { expectation: { verdict: 'wrong-answer', trap: 'off' }, Acc: OffByOne },
    },
    {
      file: 'default.ts',
      module: { expectation: { verdict: 'wrong-answer', trap: 'dflt' }, default: OffByOne },
    },
    { file: 'no-expectation.ts', module: { Acc: OffByOne } },
  ]);

  test('a failing case names the known mistakes it matches, from the modules it was given', () => {
    const result = runner.run(0, directPort(OffByOne), 'Acc', '/x.ts', (s) => s);
    expect(result.status).toBe('failed');
    expect(result.mimics).toEqual([
      { file: 'off-by-one.ts', trap: 'off' },
      { file: 'default.ts', trap: 'dflt' },
    ]);
  });

  test('a failure that does not repeat on a fresh module is put down to shared state', () => {
    const result = runner.run(
      0,
      directPort(OffByOne),
      'Acc',
      '/x.ts',
      (s) => s,
      () => directPort(Acc),
    );
    expect(result.mimics?.map((m) => m.trap)).toContain('shared');
  });
});
