// Naming the known mistake behind a failure: the replay against known-wrong implementations
// (mimic.ts) and the runner that carries them (runner.ts), run in this process.
import { describe, expect, test } from 'vitest';
import { answerEquals } from '../../harness/judge/child/drive.ts';
import {
  knownMistakes,
  MIMIC_MAX_CALLS,
  replayMistakes,
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

describe("replayMistakes: known mistakes of the case's own trap unlike the learner", () => {
  /** Right at the first call, then one too many: wrong at the second, as OffByOne is. */
  class TooManyLater {
    private sum = 0;
    add(n: number): number {
      this.sum += n;
      return this.sum + (this.sum > 3 ? 1 : 0);
    }
  }
  const three = {
    methods: ['Acc', 'add', 'add', 'add'],
    args: [[], [1], [2], [3]],
    expected: [null, 1, 3, 6],
  };
  const base = { ...request, source: fromCalls(decode(three)), trap: 'off' };

  test('one that goes wrong on the same answers is not unlike', () => {
    const { found, unlike } = replayMistakes({
      ...base,
      wrongs: [wrong('off-by-one.ts', 'off', OffByOne)],
      divergedAt: 2,
      diverged: { actual: 4 },
      after: [{ ok: false, actual: 7 }],
    });
    expect(found).toEqual([{ file: 'off-by-one.ts', trap: 'off' }]);
    expect(unlike).toEqual([]);
  });

  test('one that never gets wrong what the learner got wrong is unlike; other traps are not asked', () => {
    const { unlike } = replayMistakes({
      ...base,
      wrongs: [
        wrong('too-many-later.ts', 'off', TooManyLater),
        wrong('other-trap.ts', 'elsewhere', Acc),
      ],
      divergedAt: 1,
      diverged: {
        actual: undefined,
        threw: { isError: true, name: 'TypeError', message: 'x', stack: '' },
      },
      after: [],
    });
    expect(unlike).toEqual(['too-many-later.ts']);
  });

  test('on objects, field by field: a wrong field the mistake never gets wrong makes it unlike', () => {
    class Pair {
      private n = 0;
      next(): { count: number; at: number } {
        this.n += 1;
        return { count: this.n, at: this.n * 10 };
      }
    }
    class CountOff extends Pair {
      override next(): { count: number; at: number } {
        const answer = super.next();
        return { ...answer, count: answer.count + 1 };
      }
    }
    const calls = {
      methods: ['Pair', 'next', 'next'],
      args: [[], [], []],
      expected: [null, { count: 1, at: 10 }, { count: 2, at: 20 }],
    };
    const asked = {
      ...request,
      className: 'Pair',
      source: fromCalls(decode(calls)),
      trap: 'count',
      wrongs: [wrong('count-off.ts', 'count', CountOff)],
      divergedAt: 1,
    };
    // Wrong on count only: like CountOff. Wrong on `at` as well, later: unlike it.
    expect(
      replayMistakes({ ...asked, diverged: { actual: { count: 2, at: 10 } }, after: [] }).unlike,
    ).toEqual([]);
    expect(
      replayMistakes({
        ...asked,
        diverged: { actual: { count: 2, at: 10 } },
        after: [{ ok: false, actual: { count: 3, at: 10 } }],
      }).unlike,
    ).toEqual(['count-off.ts']);
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
