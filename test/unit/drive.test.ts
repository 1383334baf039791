// drive(): plays calls against a class through a Port, records how each went, and keeps only what a
// report shows. Every drive test runs twice: against the class run directly (as the reference is)
// and against the same class sealed in a learner realm (as a learner's class is).
import { describe, expect, test } from 'vitest';
import {
  answerEquals,
  CONTEXT,
  deepEquals,
  differingFields,
  drive,
  isNotImplemented,
} from '../../harness/judge/child/drive.ts';
import { directPort, type LearnerError, type Port } from '../../harness/sandbox/port.ts';
import { LEARNER_GLOBAL, LearnerRealm } from '../../harness/sandbox/realm.ts';
import {
  fromCalls,
  type AnyClass,
  type Call,
  type CallSource,
  type FixtureSpec,
} from '../../harness/suite.ts';

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
  /** An answer that is an object: the total and a fraction of it. */
  state(): { total: number; half: number } {
    return { total: this.total, half: this.total / 2 };
  }
  fail(kind: string): never {
    if (kind === 'range') throw new RangeError('out of range');
    if (kind === 'stub') throw new Error('Not implemented: Tally.fail');
    throw 'a string';
  }
}

/** A clock the calls can set, which says its time after every call. */
const CLOCK: FixtureSpec = {
  source: String((start: number) => {
    let now = start;
    return {
      handle: { now: () => now },
      control: {
        set: (t: number) => {
          now = t;
          return null;
        },
      },
      status: () => `t=${now}`,
    };
  }),
  args: [0],
};

/** The class, compiled from its own text into a fresh learner realm, as the judge runs a learner's. */
function sealed(cls: AnyClass, fixtures: FixtureSpec[] = []): Port {
  const realm = new LearnerRealm(fixtures.map((f) => f.source));
  const loaded = realm.load(
    `var ${LEARNER_GLOBAL} = { ${cls.name}: ${String(cls)} };`,
    'tally.js',
    cls.name,
  );
  if (!loaded.ok) throw new Error(`the class did not load: ${JSON.stringify(loaded)}`);
  return realm;
}

/** Wraps a port to count what was constructed on it. */
function counting(port: Port): Port & { constructed: number[] } {
  const constructed: number[] = [];
  return {
    constructed,
    reset: (fixtures) => port.reset(fixtures),
    construct(target, args) {
      constructed.push(target);
      return port.construct(target, args);
    },
    call: (target, method, args) => port.call(target, method, args),
    hasFixture: (name) => port.hasFixture(name),
    fixtureCall: (name, method, args) => port.fixtureCall(name, method, args),
    status: () => port.status(),
    dropInstances: () => port.dropInstances(),
  };
}

const ports: { name: string; make: (fixtures?: FixtureSpec[]) => Port; notConstructed: string }[] =
  [
    {
      name: 'run directly',
      make: () => directPort(Tally),
      notConstructed: 'the suite called inc before constructing Tally',
    },
    {
      name: 'sealed in a realm',
      make: (fixtures) => sealed(Tally, fixtures),
      notConstructed: 'the suite called inc before constructing Tally',
    },
  ];

const options = {
  className: 'Tally',
  equals: answerEquals(),
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

const learnerError = (message: string, name = 'Error'): LearnerError => ({
  isError: true,
  name,
  message,
  stack: '',
});

describe('deepEquals', () => {
  test('null and undefined are different values (a void method is answerEquals’ business)', () => {
    // Deliberate change: deepEquals no longer lets null match undefined, at any depth.
    expect(deepEquals(null, undefined)).toBe(false);
    expect(deepEquals(undefined, null)).toBe(false);
    expect(deepEquals(null, 0)).toBe(false);
    expect(deepEquals(null, null)).toBe(true);
  });

  test('compares arrays item by item, nested, and length first', () => {
    expect(deepEquals([1, [2, 3]], [1, [2, 3]])).toBe(true);
    expect(deepEquals([1, [2, 3]], [1, [2, 4]])).toBe(false);
    expect(deepEquals([1, 2], [1, 2, 3])).toBe(false);
    expect(deepEquals([null], [undefined])).toBe(false);
    expect(deepEquals([1], 1)).toBe(false);
  });

  test('NaN equals NaN, strings and numbers never mix', () => {
    expect(deepEquals(NaN, NaN)).toBe(true);
    expect(deepEquals('1', 1)).toBe(false);
    expect(deepEquals(true, true)).toBe(true);
  });
});

describe('answerEquals', () => {
  test('an expected null (LeetCode’s void) is not compared at all', () => {
    const equals = answerEquals();
    expect(equals(null, undefined)).toBe(true);
    expect(equals(null, 0)).toBe(true);
    expect(equals(null, 'anything')).toBe(true);
    // Only the expected side is void: a method that should answer must not answer null.
    expect(equals(undefined, null)).toBe(false);
    expect(equals(0, null)).toBe(false);
  });

  test('an expected object is compared on its own fields, numbers within their tolerance', () => {
    const equals = answerEquals({ at: 0.01 });
    expect(equals({ ok: true, at: 1 }, { ok: true, at: 1.005, extra: 'fine' })).toBe(true);
    expect(equals({ ok: true, at: 1 }, { ok: true, at: 1.02 })).toBe(false);
    expect(equals({ ok: true, at: 1 }, { ok: true })).toBe(false);
    // Arrays and other values stay strict.
    expect(equals([1, 2], [1, 2, 3])).toBe(false);
    expect(equals(1, 1.005)).toBe(false);
  });

  test('differingFields names the wrong and the missing fields', () => {
    expect(differingFields({ a: 1, b: 2, c: 3 }, { a: 1, b: 5 })).toEqual(['b', 'c']);
    expect(differingFields({ a: 1 }, { a: 1.5 }, { a: 0.5 })).toEqual([]);
    expect(differingFields({ a: NaN }, { a: NaN }, { a: 0.5 })).toEqual([]);
    expect(differingFields({ a: 'x' }, { a: 'y' }, { a: 0.5 })).toEqual(['a']);
  });
});

test('isNotImplemented recognises only Errors whose message starts with the stub prefix', () => {
  expect(isNotImplemented(learnerError('Not implemented: X.y'))).toBe(true);
  expect(isNotImplemented(learnerError('it is Not implemented'))).toBe(false);
  // A thrown string that merely reads the same is not the stub's Error.
  expect(
    isNotImplemented({ isError: false, name: '', message: 'Not implemented: X.y', stack: '' }),
  ).toBe(false);
});

describe.each(ports)('drive, the class $name', ({ make, notConstructed }) => {
  test('a passing sequence keeps every record when asked to, formatted', () => {
    const port = counting(make());
    const result = drive(
      fromCalls([
        call('Tally', [], null),
        call('inc', [2], 2),
        call('inc', [], 3),
        call('reset', [], null),
      ]),
      port,
      options,
    );
    expect(result.divergedAt).toBeUndefined();
    expect(result.thrown).toBeUndefined();
    expect(result.totalCalls).toBe(4);
    // One instance was made, and it is the one the calls went to.
    expect(port.constructed).toEqual([0]);
    expect(port.call(0, 'inc', [0])).toEqual({ ok: true, value: 0 });
    expect(result.records).toEqual([
      { index: 0, method: 'Tally', args: '', expected: 'null', actual: 'null', ok: true },
      { index: 1, method: 'inc', args: '2', expected: '2', actual: '2', ok: true },
      { index: 2, method: 'inc', args: '', expected: '3', actual: '3', ok: true },
      { index: 3, method: 'reset', args: '', expected: 'null', actual: 'undefined', ok: true },
    ]);
  });

  test('a method expected to answer null is not compared, whatever it returns', () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('inc', [], null), call('inc', [], 2)]),
      make(),
      options,
    );
    expect(result.divergedAt).toBeUndefined();
    expect(result.records[1]).toMatchObject({ expected: 'null', actual: '1', ok: true });
  });

  test('a short case with keepAll runs every call past the divergence and marks it', () => {
    const result = drive(
      fromCalls([
        call('Tally', [2], null),
        call('inc', [], 1),
        call('inc', [], 2),
        call('inc', [], 3),
      ]),
      make(),
      options,
    );
    expect(result.divergedAt).toBe(2);
    expect(result.totalCalls).toBe(4);
    expect(result.records.map((r) => r.ok)).toEqual([true, true, false, false]);
    expect(result.records[2]).toMatchObject({ expected: '2', actual: '-1' });
  });

  test('without keepAll nothing is recorded while the calls pass', () => {
    const result = drive(longSource(100, Infinity), make(), {
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
    const result = drive(longSource(100, 60), make(), {
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
    const result = drive(source, make(), { ...options, keepAll: false, stopAfterDivergence: true });
    expect(result.divergedAt).toBe(8);
    expect(result.records.map((r) => r.args)).toEqual(['5', '6', '7', '8', '9', '10']);
    // Ran to the end of the source: fewer than CONTEXT calls followed the divergence.
    expect(result.totalCalls).toBe(11);
  });

  test('a divergence near the start shows only the calls that exist before it', () => {
    const result = drive(longSource(20, 1), make(), {
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
      make(),
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

  test('an unexpected exception stops the case and is handed back, described as text', () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('fail', ['range'], 1), call('inc', [], 1)]),
      make(),
      options,
    );
    expect(result.totalCalls).toBe(2);
    expect(result.divergedAt).toBe(1);
    expect(result.thrown?.error).toEqual({
      isError: true,
      name: 'RangeError',
      message: 'out of range',
      stack: expect.stringMatching(/^RangeError: out of range\n\s+at /),
    });
    expect(result.thrown?.notImplemented).toBe(false);
    expect(result.records[1]).toMatchObject({
      actual: 'throws RangeError: out of range',
      ok: false,
    });
  });

  test("the stub's Not implemented error is flagged", () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('fail', ['stub'], 1)]),
      make(),
      options,
    );
    expect(result.thrown?.notImplemented).toBe(true);
  });

  test('a thrown non-Error is still caught and stops the case', () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('fail', ['x'], 1)]),
      make(),
      options,
    );
    expect(result.thrown).toEqual({
      error: { isError: false, name: '', message: 'a string', stack: '' },
      notImplemented: false,
    });
    expect(result.records[1]?.actual).toBe('throws a string');
  });

  test('calling a method the class lacks is a TypeError naming it', () => {
    const result = drive(fromCalls([call('Tally', [], null), call('dec', [], 0)]), make(), options);
    expect(result.thrown?.error).toMatchObject({
      isError: true,
      name: 'TypeError',
      message: 'Tally has no method dec()',
    });
  });

  test('calling before constructing is an error that blames the suite', () => {
    const result = drive(fromCalls([call('inc', [], 1)]), make(), options);
    expect(result.thrown?.error.message).toBe(notConstructed);
    expect(result.divergedAt).toBe(0);
  });

  test('target sends each call to its own instance', () => {
    const port = counting(make());
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
      port,
      options,
    );
    expect(result.divergedAt).toBeUndefined();
    expect(port.constructed).toEqual([0, 1]);
    // A realm refills one reply object on every call: read each reply before the next call.
    const totals = [0, 1].map((target) => {
      const reply = port.call(target, 'inc', [0]);
      return reply.ok ? reply.value : reply.error;
    });
    expect(totals).toEqual([7, 2]);
  });

  test('each drive starts from no instances at all', () => {
    const port = make();
    drive(fromCalls([call('Tally', [], null), call('inc', [], 1)]), port, options);
    const again = drive(fromCalls([call('inc', [], 2)]), port, options);
    expect(again.thrown?.error.message).toBe(notConstructed);
  });

  test('a custom comparison decides what passes', () => {
    const loose = (expected: unknown, actual: unknown) => Number(expected) === Number(actual);
    const calls = fromCalls([call('Tally', [], null), call('inc', [], '1')]);
    expect(drive(calls, make(), { ...options, equals: loose }).divergedAt).toBeUndefined();
    expect(drive(calls, make(), options).divergedAt).toBe(1);
  });

  test('a wrong object answer names the fields that differ, within the tolerance given', () => {
    const tolerance = { half: 0.25 };
    const result = drive(
      fromCalls([
        call('Tally', [], null),
        call('inc', [3], 3),
        call('state', [], { total: 3, half: 1.6 }),
        call('state', [], { total: 4, half: 2 }),
      ]),
      make(),
      { ...options, equals: answerEquals(tolerance), tolerance },
    );
    expect(result.divergedAt).toBe(3);
    expect(result.records[2]).toMatchObject({ ok: true });
    expect(result.records[2]).not.toHaveProperty('fields');
    expect(result.records[3]).toMatchObject({
      expected: '{total:4,half:2}',
      actual: '{total:3,half:1.5}',
      ok: false,
      fields: ['total', 'half'],
    });
  });

  test("each record notes what the case's fixtures say after its call", () => {
    const result = drive(
      fromCalls([call('Tally', [], null), call('clock.set', [5], null), call('inc', [], 1)]),
      make([CLOCK]),
      { ...options, fixtures: { clock: CLOCK } },
    );
    expect(result.divergedAt).toBeUndefined();
    expect(result.records.map((r) => [r.method, r.note])).toEqual([
      ['Tally', 't=0'],
      ['clock.set', 't=5'],
      ['inc', 't=5'],
    ]);
  });

  test('an error thrown by the source itself escapes', () => {
    const broken: CallSource = () => {
      throw new Error('bad generator');
    };
    expect(() => drive(broken, make(), options)).toThrow('bad generator');
  });
});
