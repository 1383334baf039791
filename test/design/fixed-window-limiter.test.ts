// The fixed-window reference against the contract's definitions. The model says only which
// request a fixed window admits; brute-force.ts derives remaining, resetAt and retryAt from that by
// search, and the driver below keeps the limiter-wide high-water mark of the clock. On random
// sequences (several keys, costs above the limit, the clock moving forward and back, allow and
// peek) every answer of the reference must be the model's. The suite's written-out cases are
// checked against the model too, so their expected answers do not rest on the reference alone.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decode, isFixed, isThrows, type FixedCase } from '../../harness/suite.ts';
import type { Clock, RateLimitResult } from '../../problems/rate-limiter-contract.ts';
import { FixedWindowLimiter } from '../../solutions/fixed-window-limiter/solution.ts';
import suite from '../../solutions/fixed-window-limiter/suite.ts';
import { decide, type Accepted, type Algorithm } from './brute-force.ts';

/** A fixed window: at most `limit` units per window [k·W, (k+1)·W), over the accepted requests. */
function fixedWindow(limit: number, windowMs: number): Algorithm {
  const windowOf = (t: number): number => Math.floor(t / windowMs);
  return {
    admits(accepted, now, cost) {
      let used = 0;
      for (const a of accepted) if (windowOf(a.at) === windowOf(now)) used += a.cost;
      return used + cost <= limit;
    },
    // Every window is over within W of now, and the next one starts empty.
    horizonMs: windowMs,
  };
}

/** The contract, played by hand: per-key logs of accepted requests and one high-water mark. */
class Model {
  private mark = -Infinity;
  private readonly logs = new Map<string, Accepted[]>();

  constructor(private readonly algorithm: Algorithm) {}

  call(method: 'allow' | 'peek', key: string, cost: number, reading: number): RateLimitResult {
    const now = Math.max(this.mark, reading);
    this.mark = now;
    const log = this.logs.get(key) ?? [];
    const answer = decide(this.algorithm, log, now, cost);
    if (answer.allowed && method === 'allow') this.logs.set(key, [...log, { at: now, cost }]);
    return answer;
  }
}

class TestClock implements Clock {
  constructor(public time: number) {}
  now(): number {
    return this.time;
  }
}

const answer = (
  allowed: boolean,
  remaining: number,
  resetAt: number,
  retryAt: number,
): RateLimitResult => ({ allowed, remaining, resetAt, retryAt });

const scenario = fc
  .record({
    limit: fc.integer({ min: 1, max: 4 }),
    windowMs: fc.constantFrom(1, 2, 3, 5, 8, 13),
    start: fc.integer({ min: -20, max: 40 }),
  })
  .chain(({ limit, windowMs, start }) =>
    fc.record({
      limit: fc.constant(limit),
      windowMs: fc.constant(windowMs),
      start: fc.constant(start),
      steps: fc.array(
        fc.oneof(
          {
            weight: 6,
            arbitrary: fc.record({
              kind: fc.constantFrom('allow' as const, 'peek' as const),
              key: fc.constantFrom('a', 'b', 'c'),
              cost: fc.option(
                fc.oneof(
                  fc.integer({ min: 1, max: limit + 2 }),
                  fc.constant(Number.MAX_SAFE_INTEGER),
                ),
                { nil: undefined },
              ),
            }),
          },
          {
            weight: 2,
            arbitrary: fc.record({
              kind: fc.constant('advance' as const),
              ms: fc.integer({ min: 0, max: 2 * windowMs + 1 }),
            }),
          },
          {
            weight: 1,
            arbitrary: fc.record({
              kind: fc.constant('set' as const),
              ms: fc.integer({ min: start - 10, max: start + 60 }),
            }),
          },
        ),
        { minLength: 1, maxLength: 60 },
      ),
    }),
  );

describe('FixedWindowLimiter against the brute-force contract', () => {
  test('every answer on random sequences is the model’s', () => {
    fc.assert(
      fc.property(scenario, ({ limit, windowMs, start, steps }) => {
        const clock = new TestClock(start);
        const limiter = new FixedWindowLimiter(limit, windowMs, clock);
        const model = new Model(fixedWindow(limit, windowMs));
        for (const step of steps) {
          if (step.kind === 'advance') clock.time += step.ms;
          else if (step.kind === 'set') clock.time = step.ms;
          else {
            const actual =
              step.cost === undefined
                ? limiter[step.kind](step.key)
                : limiter[step.kind](step.key, step.cost);
            const expected = model.call(step.kind, step.key, step.cost ?? 1, clock.time);
            expect(actual).toEqual(expected);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  test('the contract’s worked example, call by call', () => {
    const clock = new TestClock(0);
    const limiter = new FixedWindowLimiter(3, 1000, clock);
    const model = new Model(fixedWindow(3, 1000));
    const rows: [
      time: number,
      method: 'allow' | 'peek',
      key: string,
      cost: number,
      RateLimitResult,
    ][] = [
      [0, 'peek', 'a', 1, answer(true, 2, 1000, 0)],
      [0, 'allow', 'a', 1, answer(true, 2, 1000, 0)],
      [400, 'allow', 'a', 2, answer(true, 0, 1000, 400)],
      [600, 'allow', 'a', 1, answer(false, 0, 1000, 1000)],
      [1000, 'allow', 'a', 1, answer(true, 2, 2000, 1000)],
      [1200, 'allow', 'a', 3, answer(false, 2, 2000, 2000)],
      [1200, 'allow', 'a', 4, answer(false, 2, 2000, Infinity)],
      [2500, 'peek', 'a', 1, answer(true, 2, 3000, 2500)],
      [2500, 'peek', 'b', 5, answer(false, 3, 2500, Infinity)],
      // The clock steps back to 1500: everything acts at the mark, 2500.
      [1500, 'allow', 'a', 1, answer(true, 2, 3000, 2500)],
      [2600, 'allow', 'a', 1, answer(true, 1, 3000, 2600)],
    ];
    for (const [time, method, key, cost, expected] of rows) {
      clock.time = time;
      expect(limiter[method](key, cost), `${method}(${key}, ${cost}) at ${time}`).toEqual(expected);
      expect(model.call(method, key, cost, time), `model at ${time}`).toEqual(expected);
    }
  });

  test('the window edge belongs to the next window, and a burst may straddle it', () => {
    const clock = new TestClock(997);
    const limiter = new FixedWindowLimiter(2, 1000, clock);
    expect(limiter.allow('k')).toEqual(answer(true, 1, 1000, 997));
    clock.time = 999;
    expect(limiter.allow('k')).toEqual(answer(true, 0, 1000, 999));
    expect(limiter.allow('k')).toEqual(answer(false, 0, 1000, 1000));
    clock.time = 1000;
    expect(limiter.allow('k')).toEqual(answer(true, 1, 2000, 1000));
    expect(limiter.allow('k')).toEqual(answer(true, 0, 2000, 1000));
    expect(limiter.peek('k')).toEqual(answer(false, 0, 2000, 2000));
  });

  test('windows are aligned to the clock, also below zero', () => {
    const clock = new TestClock(-1);
    const limiter = new FixedWindowLimiter(1, 10, clock);
    expect(limiter.allow('k')).toEqual(answer(true, 0, 0, -1));
    clock.time = 0;
    expect(limiter.allow('k')).toEqual(answer(true, 0, 10, 0));
  });

  test('bad settings and bad costs throw RangeError, and change nothing', () => {
    const clock = new TestClock(0);
    for (const [limit, windowMs] of [
      [0, 1000],
      [-1, 1000],
      [1.5, 1000],
      [NaN, 1000],
      [Infinity, 1000],
      [3, 0],
      [3, -5],
      [3, 0.5],
      [3, NaN],
      [3, Infinity],
    ] as const) {
      expect(() => new FixedWindowLimiter(limit, windowMs, clock)).toThrow(RangeError);
    }
    const limiter = new FixedWindowLimiter(2, 1000, clock);
    for (const cost of [0, -1, 0.5, NaN, Infinity, -Infinity]) {
      expect(() => limiter.allow('k', cost)).toThrow(RangeError);
      expect(() => limiter.peek('k', cost)).toThrow(RangeError);
    }
    expect(limiter.allow('k', 1e20)).toEqual(answer(false, 2, 0, Infinity));
    expect(limiter.allow('k', 2)).toEqual(answer(true, 0, 1000, 0));
  });

  test('peek on many new keys keeps nothing, and a new window lets the old counts go', () => {
    const clock = new TestClock(0);
    const limiter = new FixedWindowLimiter(1, 100, clock);
    const used = (): number => (limiter as unknown as { used: Map<string, number> }).used.size;
    for (let i = 0; i < 50; i++) limiter.peek(`p${i}`);
    expect(used()).toBe(0);
    for (let i = 0; i < 50; i++) limiter.allow(`a${i}`);
    expect(used()).toBe(50);
    clock.time = 100;
    expect(limiter.peek('a0')).toEqual(answer(true, 0, 200, 100));
    expect(used()).toBe(0);
  });
});

/** The hand-written cases' expected answers, worked out again by the model, not the reference. */
describe('the suite’s written-out cases agree with the model', () => {
  const written = suite.cases.filter((c): c is FixedCase => isFixed(c) && c.methods.length <= 100);
  test.each(written.map((c) => [c.name, c] as const))('%s', (_, c) => {
    let time = c.fixtures?.clock?.args?.[0] as number;
    const models: Model[] = [];
    for (const call of decode(c)) {
      const target = call.target ?? 0;
      if (call.method === 'clock.set') time = call.args[0] as number;
      else if (call.method === 'clock.advance') time += call.args[0] as number;
      else if (isThrows(call.expected))
        continue; // bad input: the model validates nothing
      else if (call.method === 'FixedWindowLimiter') {
        const [limit, windowMs] = call.args as [number, number];
        models[target] = new Model(fixedWindow(limit, windowMs));
      } else {
        const [key, cost] = call.args as [string, number | undefined];
        const model = models[target] as Model;
        const method = call.method as 'allow' | 'peek';
        expect(model.call(method, key, cost ?? 1, time), `${c.name}: ${method}`).toEqual(
          call.expected,
        );
      }
    }
  });
});
