// The sliding-window log reference held to the shared contract: a brute-force model (the algorithm
// as `admits`, everything else searched for by brute-force.ts) must give the very same answer on every
// call of random sequences, and every answer the hidden suite writes out by hand or by formula.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  decode,
  fromCalls,
  isFixed,
  isFixtureRef,
  isGenerated,
  isProperty,
  type Call,
  type CallSource,
  type Encoded,
  type FixtureSpec,
} from '../../harness/suite.ts';
import { fakeClock } from '../../harness/fixtures.ts';
import type { Clock, RateLimitResult } from '../../problems/rate-limiter-contract.ts';
import { SlidingWindowLogLimiter } from '../../solutions/sliding-window-log-limiter/solution.ts';
import suite from '../../solutions/sliding-window-log-limiter/suite.ts';
import { decide, type Accepted, type Algorithm } from './brute-force.ts';

const CLASS = 'SlidingWindowLogLimiter';

/** The algorithm, and nothing else: a request fits when the units of the last W ms plus its own do. */
function slidingLog(limit: number, windowMs: number): Algorithm {
  return {
    horizonMs: windowMs,
    admits(accepted, now, cost) {
      let used = 0;
      // Accepted at `a`, a request counts while now < a + W: the window is (now − W, now].
      for (const a of accepted) if (a.at > now - windowMs) used += a.cost;
      return used + cost <= limit;
    },
  };
}

/**
 * The model limiter: brute-force answers per key, plus what the contract adds around the algorithm
 * (validation, one high-water mark of the clock, keys and instances independent).
 */
class Model {
  private readonly algorithm: Algorithm;
  private readonly logs = new Map<string, Accepted[]>();
  private mark = -Infinity;

  constructor(
    limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    for (const value of [limit, windowMs]) {
      if (!Number.isInteger(value) || value <= 0) throw new RangeError(String(value));
    }
    this.algorithm = slidingLog(limit, windowMs);
  }

  allow(key: string, cost = 1): RateLimitResult {
    return this.answer(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.answer(key, cost, false);
  }

  private answer(key: string, cost: number, consume: boolean): RateLimitResult {
    if (!Number.isInteger(cost) || cost <= 0) throw new RangeError(String(cost));
    this.mark = Math.max(this.mark, this.clock.now());
    const now = this.mark;
    // Entries W or more old never count again (time never goes back), so the model may drop them.
    const accepted = (this.logs.get(key) ?? []).filter((a) => a.at > now - this.windowMs);
    const result = decide(this.algorithm, accepted, now, cost);
    if (consume && result.allowed) accepted.push({ at: now, cost });
    this.logs.set(key, accepted);
    return result;
  }
}

type Limiter = typeof SlidingWindowLogLimiter | typeof Model;

interface Made {
  handle: unknown;
  control: Record<string, (...args: unknown[]) => unknown>;
}

/** Builds a fixture from its source, as the judge does (the source is self-contained). */
function makeFixture(spec: FixtureSpec): Made {
  const factory = new Function(`return (${spec.source})`)() as (...args: unknown[]) => Made;
  return factory(...(spec.args ?? []));
}

/** Plays calls against a class with fresh fixtures; `check` sees each call and what it gave. */
function play(
  source: CallSource,
  fixtures: Record<string, FixtureSpec>,
  cls: Limiter,
  check: (call: Call, actual: unknown, index: number) => void,
): void {
  const made = Object.fromEntries(
    Object.entries(fixtures).map(([name, spec]) => [name, makeFixture(spec)]),
  );
  const instances: (SlidingWindowLogLimiter | Model)[] = [];
  let index = 0;
  source((call) => {
    let actual: unknown;
    try {
      const method = call.method;
      if (method === 'allow' || method === 'peek') {
        const instance = instances[call.target ?? 0] as SlidingWindowLogLimiter;
        actual = instance[method](...(call.args as [string, number?]));
      } else if (method === CLASS) {
        const args = call.args.map((a) => (isFixtureRef(a) ? made[a.$fixture]?.handle : a));
        instances[call.target ?? 0] = new cls(...(args as [number, number, Clock]));
        actual = null;
      } else {
        const [name, action] = method.split('.') as [string, string];
        actual = (made[name] as Made).control[action]?.(...call.args) ?? null;
      }
    } catch (error) {
      actual = { throws: (error as Error).name };
    }
    check(call, actual, index++);
  });
}

/** What each call of a sequence answers, played against a class. */
function answers(encoded: Encoded, fixtures: Record<string, FixtureSpec>, cls: Limiter): unknown[] {
  const out: unknown[] = [];
  play(fromCalls(decode(encoded)), fixtures, cls, (_, actual) => out.push(actual));
  return out;
}

const clockAt = (ms: number): Record<string, FixtureSpec> => ({ clock: fakeClock(ms) });

/** Random sequences broader than the suite's: more keys, bigger costs and windows, longer runs. */
const sequences: fc.Arbitrary<Encoded> = fc
  .record({
    limit: fc.integer({ min: 1, max: 6 }),
    windowMs: fc.constantFrom(1, 2, 3, 7, 20, 50),
    ops: fc.array(
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc.tuple(
            fc.constantFrom('allow', 'peek'),
            fc.constantFrom('a', 'b', 'c', 'd'),
            fc.oneof(
              fc.constant(undefined),
              fc.integer({ min: 1, max: 8 }),
              fc.constant(Number.MAX_SAFE_INTEGER),
            ),
          ),
        },
        { weight: 3, arbitrary: fc.tuple(fc.constant('clock.advance'), fc.nat(70)) },
        { weight: 1, arbitrary: fc.tuple(fc.constant('clock.back'), fc.nat(80)) },
      ),
      { maxLength: 60 },
    ),
  })
  .map(({ limit, windowMs, ops }) => {
    let time = 500;
    const methods: string[] = [CLASS];
    const args: unknown[][] = [[limit, windowMs, { $fixture: 'clock' }]];
    for (const op of ops) {
      if (op[0] === 'clock.advance') {
        time += op[1] as number;
        methods.push('clock.advance');
        args.push([op[1]]);
      } else if (op[0] === 'clock.back') {
        time -= op[1] as number;
        methods.push('clock.set');
        args.push([time]);
      } else {
        methods.push(op[0]);
        args.push(op[2] === undefined ? [op[1]] : [op[1], op[2]]);
      }
    }
    return { methods, args, expected: [] };
  });

describe('the reference against the brute-force model', () => {
  test('answers every call of random sequences as the contract defines it', () => {
    fc.assert(
      fc.property(sequences, (encoded) => {
        const fixtures = clockAt(500);
        expect(answers(encoded, fixtures, SlidingWindowLogLimiter)).toEqual(
          answers(encoded, fixtures, Model),
        );
      }),
      { numRuns: 400 },
    );
  });

  test('also on the sequences the suite draws', () => {
    for (const c of suite.cases.filter(isProperty)) {
      for (const encoded of fc.sample(c.property.calls, { numRuns: 150, seed: 7 })) {
        const fixtures = c.fixtures ?? {};
        expect(answers(encoded, fixtures, SlidingWindowLogLimiter)).toEqual(
          answers(encoded, fixtures, Model),
        );
      }
    }
  });
});

describe('the suite', () => {
  for (const c of suite.cases.filter(isFixed)) {
    test(`${c.name}: every written answer is the model's, and the reference's`, () => {
      const fixtures = c.fixtures ?? {};
      expect(answers(c, fixtures, Model)).toEqual(c.expected);
      expect(answers(c, fixtures, SlidingWindowLogLimiter)).toEqual(c.expected);
    });
  }

  for (const c of suite.cases.filter(isGenerated)) {
    test(`${c.name}: the generated answers are the reference's`, () => {
      // The reference only: the brute-force model counts remaining one unit at a time, far too slow
      // for the scale case's half a million units.
      let wrong: string | undefined;
      let calls = 0;
      play(c.generate, c.fixtures ?? {}, SlidingWindowLogLimiter, (call, actual, i) => {
        calls += 1;
        if (wrong === undefined && !sameAnswer(call.expected, actual)) {
          wrong = `call ${i} ${call.method}(${call.args.join(', ')}): expected ${JSON.stringify(call.expected)}, got ${JSON.stringify(actual)}`;
        }
      });
      expect(wrong).toBeUndefined();
      expect(calls).toBeGreaterThan(2000);
    });
  }

  test('every property case moves the clock, and the follow-up one moves it back', () => {
    for (const c of suite.cases.filter(isProperty)) {
      const samples = fc.sample(c.property.calls, { numRuns: 50, seed: 1 });
      const methods = new Set(samples.flatMap((s) => s.methods));
      expect(methods.has('clock.advance'), c.name).toBe(true);
      expect(methods.has('clock.set'), c.name).toBe(c.tier === 'follow-up');
    }
  });
});

describe('hand-checked examples', () => {
  const clock = { time: 0, now: () => clock.time };
  const fresh = (limit: number, windowMs: number) => {
    clock.time = 0;
    return new SlidingWindowLogLimiter(limit, windowMs, clock);
  };

  test('the window is (now − W, now]: an entry exactly W old no longer counts', () => {
    const limiter = fresh(1, 10);
    expect(limiter.allow('k')).toEqual({ allowed: true, remaining: 0, resetAt: 10, retryAt: 0 });
    clock.time = 9;
    expect(limiter.allow('k')).toEqual({ allowed: false, remaining: 0, resetAt: 10, retryAt: 10 });
    clock.time = 10;
    expect(limiter.allow('k')).toEqual({ allowed: true, remaining: 0, resetAt: 20, retryAt: 10 });
  });

  test('a cost-3 request waits for three units to age out, oldest first', () => {
    const limiter = fresh(3, 100);
    limiter.allow('k'); // t=0
    clock.time = 10;
    limiter.allow('k'); // t=10
    clock.time = 20;
    limiter.allow('k'); // t=20
    clock.time = 30;
    expect(limiter.allow('k', 3)).toEqual({
      allowed: false,
      remaining: 0,
      resetAt: 120,
      retryAt: 120,
    });
    expect(limiter.allow('k', 2)).toMatchObject({ allowed: false, retryAt: 110 });
    expect(limiter.allow('k', 1)).toMatchObject({ allowed: false, retryAt: 100 });
    expect(limiter.allow('k', 4)).toMatchObject({ allowed: false, retryAt: Infinity });
  });

  test('a denial with room left says how much room is left', () => {
    const limiter = fresh(5, 100);
    limiter.allow('k', 3);
    expect(limiter.allow('k', 3)).toEqual({
      allowed: false,
      remaining: 2,
      resetAt: 100,
      retryAt: 100,
    });
    expect(limiter.peek('k', 2)).toEqual({ allowed: true, remaining: 0, resetAt: 100, retryAt: 0 });
  });

  test('a clock stepping back acts as the latest reading, peek included', () => {
    const limiter = fresh(1, 100);
    clock.time = 50;
    limiter.peek('other'); // raises the mark to 50
    clock.time = 0;
    expect(limiter.allow('k')).toEqual({ allowed: true, remaining: 0, resetAt: 150, retryAt: 50 });
    clock.time = 149;
    expect(limiter.allow('k')).toMatchObject({ allowed: false, retryAt: 150 });
  });

  test('bad settings and costs throw RangeError and change nothing', () => {
    for (const [limit, windowMs] of [
      [0, 1],
      [1, 0],
      [1.5, 1],
      [1, NaN],
      [Infinity, 1],
    ] as const) {
      expect(() => new SlidingWindowLogLimiter(limit, windowMs, clock)).toThrow(RangeError);
    }
    const limiter = fresh(1, 100);
    for (const cost of [0, -1, 0.5, NaN, Infinity]) {
      expect(() => limiter.allow('k', cost)).toThrow(RangeError);
      expect(() => limiter.peek('k', cost)).toThrow(RangeError);
    }
    expect(limiter.allow('k')).toMatchObject({ allowed: true, remaining: 0 });
  });

  test('keys whose logs have aged out are forgotten, and busy keys are kept', () => {
    const limiter = fresh(2, 100);
    for (let i = 0; i < 1000; i++) limiter.allow(`old${i}`);
    limiter.allow('busy');
    clock.time = 99;
    limiter.allow('busy');
    clock.time = 100;
    // The clean-up visits two keys per call, so 501 calls have visited all 1001.
    for (let i = 0; i < 501; i++) limiter.peek(`new${i}`);
    const logs = (limiter as unknown as { logs: Map<string, unknown> }).logs;
    expect([...logs.keys()]).toEqual(['busy']);
    expect(limiter.peek('busy')).toEqual({
      allowed: true,
      remaining: 0,
      resetAt: 200,
      retryAt: 100,
    });
  });
});

/** A generated case's expected answer against an actual one, quickly (a million of them). */
function sameAnswer(expected: unknown, actual: unknown): boolean {
  if (expected === null || actual === null || typeof expected !== 'object') {
    return Object.is(expected, actual ?? null);
  }
  const e = expected as RateLimitResult;
  const a = actual as RateLimitResult;
  return (
    e.allowed === a.allowed &&
    e.remaining === a.remaining &&
    e.resetAt === a.resetAt &&
    e.retryAt === a.retryAt
  );
}
