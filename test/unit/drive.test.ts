// drive(): plays calls against a class, records how each went, and keeps only what a report shows.
import { describe, expect, test } from 'vitest';
import { CONTEXT, deepEquals, drive, isNotImplemented } from '../../harness/judge/child/drive.ts';
import { fromCalls, type Call, type CallSource } from '../../harness/suite.ts';

/** Counts calls; `inc(n)` adds n (1 by default). Goes wrong once the total reaches `breakAt`. */
class Tally {
  total = 0;
  constructor(private readonly breakAt = Infinity) {}
  inc(n = 1): number {
    this.total += n;
    return this.total >= this.breakAt ? -1 : this.total;
  }
  reset(): void {
    this.total = 0;
  }
  fail(kind: string): never {
    if (kind === 'range') throw new RangeError('out of range');
    if (kind === 'stub') throw new Error('Not implemented: Tally.fail');
    throw 'a string';
  }
}

const options = {
  className: 'Tally',
  equals: deepEquals,
  keepAll: true,
  stopAfterDivergence: false,
};

const call = (method: string, args: unknown[], expected: unknown, target?: number): Call =>
  target === undefined ? { method, args, expected } : { method, args, expected, target };

/** Tally(breakAt), then `n` calls inc() expecting 1, 2, …, n; one Call object reused throughout. */
function longSource(n: number, breakAt: number): CallSource {
  return (emit) => {
    emit({ method: 'Tally', args: [breakAt], expected: null });
    const shared: Call = { method: 'inc', args: [1], expected: 0 };
    for (let i = 1; i <= n; i++) {
      shared.expected = i;
      emit(shared);
    }
  };
}

describe('deepEquals', () => {
  test('null expected matches undefined (a void method), but not the other way round', () => {
    expect(deepEquals(null, undefined)).toBe(true);
    expect(deepEquals(undefined, null)).toBe(false);
    expect(deepEquals(null, 0)).toBe(false);
  });

  test('compares arrays item by item, nested, and length first', () => {
    expect(deepEquals([1, [2, 3]], [1, [2, 3]])).toBe(true);
    expect(deepEquals([1, [2, 3]], [1, [2, 4]])).toBe(false);
    expect(deepEquals([1, 2], [1, 2, 3])).toBe(false);
    expect(deepEquals([null], [undefined])).toBe(true);
    expect(deepEquals([1], 1)).toBe(false);
  });

  test('NaN equals NaN, strings and numbers never mix', () => {
    expect(deepEquals(NaN, NaN)).toBe(true);
    expect(deepEquals('1', 1)).toBe(false);
    expect(deepEquals(true, true)).toBe(true);
  });
});

test('isNotImplemented recognises only Errors whose message starts with the stub prefix', () => {
  expect(isNotImplemented(new Error('Not implemented: X.y'))).toBe(true);
  expect(isNotImplemented(new Error('it is Not implemented'))).toBe(false);
  expect(isNotImplemented('Not implemented')).toBe(false);
});

describe('drive', () => {
  test('a passing sequence keeps every record when asked to, formatted', () => {
    const result = drive(
      fromCalls([
        call('Tally', [], null),
        call('inc', [2], 2),
        call('inc', [], 3),
        call('reset', [], null),
      ]),
      Tally,
      options,
    );
    expect(result.divergedAt).toBeUndefined();
    expect(result.thrown).toBeUndefined();
    expect(result.totalCalls).toBe(4);
    expect(result.instances).toHaveLength(1);
    expect(result.instances[0]).toBeInstanceOf(Tally);
    expect(result.records).toEqual([
      { index: 0, method: 'Tally', args: '', expected: 'null', actual: 'null', ok: true },
      { index: 1, method: 'inc', args: '2', expected: '2', actual: '2', ok: true },
      { index: 2, method: 'inc', args: '', expected: '3', actual: '3', ok: true },
      { index: 3, method: 'reset', args: '', expected: 'null', actual: 'undefined', ok: true },
    ]);
  });

  test('a short case with keepAll runs every call past the divergence and marks it', () => {
    const result = drive(
      fromCalls([
        call('Tally', [2], null),
        call('inc', [], 1),
        call('inc', [], 2),
        call('inc', [], 3),
      ]),
      Tally,
      options,
    );
    expect(result.divergedAt).toBe(2);
    expect(result.totalCalls).toBe(4);
    expect(result.records.map((r) => r.ok)).toEqual([true, true, false, false]);
    expect(result.records[2]).toMatchObject({ expected: '2', actual: '-1' });
  });

  test('without keepAll nothing is recorded while the calls pass', () => {
    const result = drive(longSource(100, Infinity), Tally, {
      ...options,
      keepAll: false,
      stopAfterDivergence: true,
    });
    expect(result.totalCalls).toBe(101);
    expect(result.records).toEqual([]);
    expect(result.divergedAt).toBeUndefined();
  });

  test('a long case shows CONTEXT calls before the divergence (played again) and stops CONTEXT after', () => {
    // inc() returns -1 from the 60th call on: call index 60 is the first that diverges.
    const result = drive(longSource(100, 60), Tally, {
      ...options,
      keepAll: false,
      stopAfterDivergence: true,
    });
    expect(CONTEXT).toBe(3);
    expect(result.divergedAt).toBe(60);
    expect(result.totalCalls).toBe(60 + CONTEXT + 1);
    expect(result.records.map((r) => r.index)).toEqual([57, 58, 59, 60, 61, 62, 63]);
    // The calls before were played again from the source: what they returned is what was expected.
    expect(result.records.slice(0, 3).map((r) => [r.expected, r.actual, r.ok])).toEqual([
      ['57', '57', true],
      ['58', '58', true],
      ['59', '59', true],
    ]);
    // The source reused one Call object; each record kept its own copy.
    expect(result.records.slice(3).map((r) => [r.expected, r.actual, r.ok])).toEqual([
      ['60', '-1', false],
      ['61', '-1', false],
      ['62', '-1', false],
      ['63', '-1', false],
    ]);
  });

  test('args of a reused Call object are copied, not shared', () => {
    const source: CallSource = (emit) => {
      emit({ method: 'Tally', args: [], expected: null });
      const shared: Call = { method: 'inc', args: [0], expected: 0 };
      let total = 0;
      for (let i = 1; i <= 10; i++) {
        shared.args[0] = i;
        total += i;
        shared.expected = i === 8 ? 0 : total;
        emit(shared);
      }
    };
    const result = drive(source, Tally, { ...options, keepAll: false, stopAfterDivergence: true });
    expect(result.divergedAt).toBe(8);
    expect(result.records.map((r) => r.args)).toEqual(['5', '6', '7', '8', '9', '10']);
    // Ran to the end of the source: fewer than CONTEXT calls followed the divergence.
    expect(result.totalCalls).toBe(11);
  });

  test('a divergence near the start shows only the calls that exist before it', () => {
    const result = drive(longSource(20, 1), Tally, {
      ...options,
      keepAll: false,
      stopAfterDivergence: true,
    });
    expect(result.divergedAt).toBe(1);
    expect(result.records.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(result.records[0]).toMatchObject({ method: 'Tally', expected: 'null', ok: true });
  });

  test('an expected exception with the right name passes, any other outcome diverges', () => {
    const result = drive(
      fromCalls([
        call('Tally', [], null),
        call('fail', ['range'], { throws: 'RangeError' }),
        call('fail', ['range'], { throws: 'TypeError' }),
        call('inc', [], { throws: 'RangeError' }),
        call('fail', ['string'], { throws: 'Error' }),
      ]),
      Tally,
      options,
    );
    expect(result.records.map((r) => r.ok)).toEqual([true, true, false, false, false]);
    expect(result.divergedAt).toBe(2);
    // Expected exceptions never stop a case, even when they did not match.
    expect(result.thrown).toBeUndefined();
    expect(result.totalCalls).toBe(5);
    expect(result.records[1]).toMatchObject({
      expected: 'throws RangeError',
      actual: 'throws RangeError: out of range',
    });
    expect(result.records[3]).toMatchObject({ expected: 'throws RangeError', actual: '1' });
  });

  test('an unexpected exception stops the case and is handed back', () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('fail', ['range'], 1), call('inc', [], 1)]),
      Tally,
      options,
    );
    expect(result.totalCalls).toBe(2);
    expect(result.divergedAt).toBe(1);
    expect(result.thrown?.error).toBeInstanceOf(RangeError);
    expect(result.thrown?.notImplemented).toBe(false);
    expect(result.records[1]).toMatchObject({
      actual: 'throws RangeError: out of range',
      ok: false,
    });
  });

  test("the stub's Not implemented error is flagged", () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('fail', ['stub'], 1)]),
      Tally,
      options,
    );
    expect(result.thrown?.notImplemented).toBe(true);
  });

  test('a thrown non-Error is still caught and stops the case', () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('fail', ['x'], 1)]),
      Tally,
      options,
    );
    expect(result.thrown).toEqual({ error: 'a string', notImplemented: false });
    expect(result.records[1]?.actual).toBe('throws "a string"');
  });

  test('calling a method the class lacks is a TypeError naming it', () => {
    const result = drive(fromCalls([call('Tally', [], null), call('dec', [], 0)]), Tally, options);
    expect(result.thrown?.error).toBeInstanceOf(TypeError);
    expect((result.thrown?.error as Error).message).toBe('Tally has no method dec()');
  });

  test('calling before constructing is an error that blames the suite', () => {
    const result = drive(fromCalls([call('inc', [], 1)]), Tally, options);
    expect((result.thrown?.error as Error).message).toBe(
      'the suite called inc before constructing Tally',
    );
    expect(result.divergedAt).toBe(0);
  });

  test('target sends each call to its own instance', () => {
    const result = drive(
      fromCalls([
        call('Tally', [], null, 0),
        call('Tally', [], null, 1),
        call('inc', [5], 5, 0),
        call('inc', [1], 1, 1),
        call('inc', [], 6, 0),
        call('inc', [], 2, 1),
        call('inc', [], 7),
      ]),
      Tally,
      options,
    );
    expect(result.divergedAt).toBeUndefined();
    expect(result.instances.map((t) => (t as Tally).total)).toEqual([7, 2]);
  });

  test('a custom comparison decides what passes', () => {
    const loose = (expected: unknown, actual: unknown) => Number(expected) === Number(actual);
    const calls = fromCalls([call('Tally', [], null), call('inc', [], '1')]);
    expect(drive(calls, Tally, { ...options, equals: loose }).divergedAt).toBeUndefined();
    expect(drive(calls, Tally, options).divergedAt).toBe(1);
  });

  test('an error thrown by the source itself escapes', () => {
    const broken: CallSource = () => {
      throw new Error('bad generator');
    };
    expect(() => drive(broken, Tally, options)).toThrow('bad generator');
  });
});
