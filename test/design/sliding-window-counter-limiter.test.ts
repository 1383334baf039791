// Holds the sliding-window-counter reference, and every answer its hidden suite expects, to a
// brute-force model: the algorithm is written only as "would this request be admitted, given what
// the key was granted before?", and remaining, resetAt and retryAt come from brute-force.ts, which
// finds them by trying millisecond after millisecond. The high-water mark of the clock is the
// driver's business, as the contract describes it.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decide, remainingAt, type Accepted, type Algorithm } from './brute-force.ts';
import {
  decode,
  isFixed,
  isFixtureRef,
  isGenerated,
  isProperty,
  isThrows,
  type Call,
  type Encoded,
} from '../../harness/suite.ts';
import type { RateLimitResult } from '../../problems/rate-limiter-contract.ts';
import { SlidingWindowCounterLimiter } from '../../solutions/sliding-window-counter-limiter/solution.ts';
import suite from '../../solutions/sliding-window-counter-limiter/suite.ts';

const CLASS = 'SlidingWindowCounterLimiter';

/**
 * The algorithm as the statement gives it: fixed windows [k·W, (k+1)·W); at e ms into window k,
 * weighted = prev · (W − e) / W + curr, where prev and curr are what the key was granted in windows
 * k − 1 and k; a request of `cost` is admitted iff weighted + cost − 1 < limit. Compared multiplied
 * through by W, so that it is exact.
 */
function slidingCounter(limit: number, W: number): Algorithm {
  // Sums per window of a log, remembered per array: the search calls admits on the same (growing)
  // arrays over and over, and logs are only ever appended to.
  const sums = new WeakMap<readonly Accepted[], { seen: number; byWindow: Map<number, number> }>();
  const granted = (log: readonly Accepted[], window: number): number => {
    let entry = sums.get(log);
    if (!entry) {
      entry = { seen: 0, byWindow: new Map() };
      sums.set(log, entry);
    }
    for (; entry.seen < log.length; entry.seen++) {
      const { at, cost } = log[entry.seen] as Accepted;
      const k = Math.floor(at / W);
      entry.byWindow.set(k, (entry.byWindow.get(k) ?? 0) + cost);
    }
    return entry.byWindow.get(window) ?? 0;
  };
  return {
    // Two windows after the current one starts, both counts are 0: nothing changes after that.
    horizonMs: 2 * W + 1,
    admits(accepted, now, cost) {
      const k = Math.floor(now / W);
      const e = now - k * W;
      const prev = granted(accepted, k - 1);
      const curr = granted(accepted, k);
      return prev * (W - e) + (curr + cost - 1) * W < limit * W;
    },
  };
}

/** One limiter as the contract describes it, on top of the model: the mark, and a log per key. */
class Model {
  private mark = -Infinity;
  private readonly logs = new Map<string, Accepted[]>();
  private readonly algorithm: Algorithm;

  constructor(limit: number, windowMs: number) {
    this.algorithm = slidingCounter(limit, windowMs);
  }

  /**
   * The model's answer. With `quick`, only allowed and remaining are worked out (resetAt and retryAt
   * are NaN): the search for them takes a step per millisecond, too slow for a window of a minute.
   */
  call(
    method: 'allow' | 'peek',
    reading: number,
    key: string,
    cost = 1,
    quick = false,
  ): RateLimitResult {
    this.mark = Math.max(this.mark, reading);
    const log = this.logs.get(key) ?? [];
    let answer: RateLimitResult;
    if (quick) {
      const allowed = this.algorithm.admits(log, this.mark, cost);
      const after = allowed ? [...log, { at: this.mark, cost }] : log;
      answer = {
        allowed,
        remaining: remainingAt(this.algorithm, after, this.mark),
        resetAt: NaN,
        retryAt: NaN,
      };
    } else {
      answer = decide(this.algorithm, log, this.mark, cost);
    }
    if (method === 'allow' && answer.allowed) {
      this.logs.set(key, [...log, { at: this.mark, cost }]);
    }
    return answer;
  }
}

const validCost = (cost: unknown): boolean =>
  cost === undefined || (Number.isInteger(cost) && (cost as number) > 0);
const validSetting = (value: unknown): boolean => Number.isInteger(value) && (value as number) > 0;

/**
 * Plays a case's calls against the model and returns its answer to each (null for the constructor
 * and the clock, `{ throws: 'RangeError' }` for bad input), with the clock starting at `start`.
 */
function modelAnswers(calls: Call[], start: number, quick = false): unknown[] {
  let time = start;
  const models: (Model | undefined)[] = [];
  return calls.map((call) => {
    const target = call.target ?? 0;
    if (call.method === CLASS) {
      const [limit, windowMs] = call.args as [number, number];
      if (!validSetting(limit) || !validSetting(windowMs)) return { throws: 'RangeError' };
      models[target] = new Model(limit, windowMs);
      return null;
    }
    if (call.method === 'clock.set' || call.method === 'clock.advance') {
      const [ms] = call.args as [number];
      time = call.method === 'clock.set' ? ms : time + ms;
      return null;
    }
    const [key, cost] = call.args as [string, number | undefined];
    if (!validCost(cost)) return { throws: 'RangeError' };
    return (models[target] as Model).call(call.method as 'allow' | 'peek', time, key, cost, quick);
  });
}

/** The same calls played against the reference, with a clock that the calls move. */
function referenceAnswers(calls: Call[], start: number): unknown[] {
  let time = start;
  const clock = { now: () => time };
  const limiters: SlidingWindowCounterLimiter[] = [];
  return calls.map((call) => {
    const target = call.target ?? 0;
    try {
      if (call.method === CLASS) {
        const [limit, windowMs, handle] = call.args as [number, number, unknown];
        expect(isFixtureRef(handle)).toBe(true);
        limiters[target] = new SlidingWindowCounterLimiter(limit, windowMs, clock);
        return null;
      }
      if (call.method === 'clock.set' || call.method === 'clock.advance') {
        const [ms] = call.args as [number];
        time = call.method === 'clock.set' ? ms : time + ms;
        return null;
      }
      const [key, cost] = call.args as [string, number | undefined];
      const limiter = limiters[target] as SlidingWindowCounterLimiter;
      return call.method === 'allow' ? limiter.allow(key, cost) : limiter.peek(key, cost);
    } catch (error) {
      return { throws: (error as Error).name };
    }
  });
}

describe('the reference against the brute-force model', () => {
  test('a key granted once at 0 (limit 10, window 1000 ms) answers like a new key from 1001', () => {
    const model = new Model(10, 1000);
    expect(model.call('allow', 0, 'a')).toEqual({
      allowed: true,
      remaining: 9,
      resetAt: 1001,
      retryAt: 0,
    });
    // At 1000 the weight of that one request is still a whole request: remaining 8, not 9.
    expect(model.call('peek', 1000, 'a').remaining).toBe(8);
    expect(model.call('peek', 1001, 'a').remaining).toBe(9);
    const reference = new SlidingWindowCounterLimiter(10, 1000, { now: () => 0 });
    expect(reference.allow('a').resetAt).toBe(1001);
  });

  test('42 in the previous minute, 18 in this one, 15 s in: weighted 49.5 admits one more', () => {
    let time = 0;
    const reference = new SlidingWindowCounterLimiter(50, 60_000, { now: () => time });
    for (let i = 0; i < 42; i++) reference.allow('a');
    time = 75_000;
    for (let i = 0; i < 18; i++) expect(reference.allow('a').allowed).toBe(true);
    // 42 · 45/60 + 18 = 49.5 < 50: allowed, and then 50.5 leaves nothing.
    expect(reference.allow('a')).toEqual({
      allowed: true,
      remaining: 0,
      // Next minute the 19 weigh 19 · (60000 − e)/60000, below 1 from e = 56843 on.
      resetAt: 120_000 + 56_843,
      retryAt: 75_000,
    });
    // 42 · (60000 − e)/60000 + 19 < 50 from e = 15715 on.
    expect(reference.allow('a')).toEqual({
      allowed: false,
      remaining: 0,
      resetAt: 176_843,
      retryAt: 75_715,
    });
    // The same decisions on the model, scaled down by 15000 (only e / W matters to them).
    const model = new Model(50, 4);
    for (let i = 0; i < 42; i++) model.call('allow', 0, 'a');
    for (let i = 0; i < 18; i++) model.call('allow', 5, 'a');
    expect(model.call('allow', 5, 'a')).toMatchObject({ allowed: true, remaining: 0 });
    expect(model.call('allow', 5, 'a')).toMatchObject({ allowed: false, remaining: 0 });
  });

  test('50 at full weight, 340 ms in, 17 more: exactly 50, refused (a float sum says 49.99…)', () => {
    expect(50 * (1 - 340 / 1000) + 17).toBeLessThan(50);
    let time = 0;
    const reference = new SlidingWindowCounterLimiter(50, 1000, { now: () => time });
    const model = new Model(50, 1000);
    for (let i = 0; i < 50; i++) {
      expect(reference.allow('a')).toEqual(model.call('allow', time, 'a'));
    }
    time = 1340;
    for (let i = 0; i < 17; i++) {
      expect(reference.allow('a')).toEqual(model.call('allow', time, 'a'));
    }
    const refused = model.call('allow', time, 'a');
    expect(refused.allowed).toBe(false);
    expect(reference.allow('a')).toEqual(refused);
  });

  test('weighted 2.8 against a limit of 5: two more pass, not floor(5 − 2.8 − 1) = 1', () => {
    let time = 0;
    const reference = new SlidingWindowCounterLimiter(5, 1000, { now: () => time });
    for (let i = 0; i < 4; i++) reference.allow('a');
    time = 1300;
    // 4 · 0.7 = 2.8; once this one is counted, 3.8 and 4.8 are both still below 5.
    expect(reference.allow('a')).toMatchObject({ allowed: true, remaining: 2 });
    expect(reference.allow('a')).toMatchObject({ allowed: true, remaining: 1 });
    expect(reference.allow('a')).toMatchObject({ allowed: true, remaining: 0 });
    expect(reference.allow('a')).toMatchObject({ allowed: false, remaining: 0 });
  });

  test('random keys, costs and clock moves, backwards too: every answer is the model’s', () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constantFrom('allow' as const, 'peek' as const),
        key: fc.constantFrom('a', 'b', 'c'),
        cost: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant('clock' as const), delta: fc.integer({ min: -40, max: 40 }) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(step, { maxLength: 30 }),
        (limit, windowMs, start, steps) => {
          let time = start;
          const reference = new SlidingWindowCounterLimiter(limit, windowMs, { now: () => time });
          const model = new Model(limit, windowMs);
          for (const s of steps) {
            if (s.kind === 'clock') {
              time = Math.max(0, time + s.delta);
              continue;
            }
            const expected = model.call(s.kind, time, s.key, s.cost);
            const actual =
              s.kind === 'allow' ? reference.allow(s.key, s.cost) : reference.peek(s.key, s.cost);
            expect(actual).toEqual(expected);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  test('a cost that can never pass, and bad input', () => {
    const reference = new SlidingWindowCounterLimiter(3, 1000, { now: () => 0 });
    const model = new Model(3, 1000);
    for (const cost of [4, 1e21, Number.MAX_SAFE_INTEGER]) {
      expect(reference.allow('a', cost)).toEqual(model.call('allow', 0, 'a', cost));
      expect(reference.allow('a', cost).retryAt).toBe(Infinity);
    }
    for (const cost of [0, -1, 1.5, NaN, Infinity, -Infinity]) {
      expect(() => reference.allow('a', cost)).toThrow(RangeError);
      expect(() => reference.peek('a', cost)).toThrow(RangeError);
    }
    for (const bad of [0, -1, 1.5, NaN, Infinity]) {
      expect(() => new SlidingWindowCounterLimiter(bad, 1000, { now: () => 0 })).toThrow(
        RangeError,
      );
      expect(() => new SlidingWindowCounterLimiter(3, bad, { now: () => 0 })).toThrow(RangeError);
    }
    expect(reference.allow('a')).toEqual(model.call('allow', 0, 'a'));
  });
});

describe('the hidden suite against the brute-force model', () => {
  const start = (c: { fixtures?: Record<string, { args?: unknown[] }> }): number =>
    (c.fixtures?.clock?.args?.[0] as number | undefined) ?? 0;

  for (const c of suite.cases.filter(isFixed)) {
    test(`${c.tier} · ${c.name}: every expected answer is the model's`, () => {
      const calls = decode(c);
      // The weighted-edge case has a 60 s window, too wide to search millisecond by millisecond
      // (its resetAt and retryAt are worked out by hand above); the model decides allowed and
      // remaining there all the same.
      const wide = calls.some((call) => call.method === CLASS && (call.args[1] as number) > 1000);
      const model = modelAnswers(calls, start(c), wide);
      for (const [i, call] of calls.entries()) {
        if (wide && !isThrows(call.expected) && call.expected !== null) {
          const { allowed, remaining } = call.expected as RateLimitResult;
          expect({ allowed, remaining }, `call ${i}`).toEqual({
            allowed: (model[i] as RateLimitResult).allowed,
            remaining: (model[i] as RateLimitResult).remaining,
          });
        } else if (!wide) {
          expect(call.expected, `call ${i}`).toEqual(model[i]);
        }
      }
      expect(referenceAnswers(calls, start(c))).toEqual(calls.map((call) => call.expected));
    });
  }

  for (const c of suite.cases.filter(isProperty)) {
    test(`${c.tier} · ${c.name}: sampled sequences, the reference against the model`, () => {
      for (const encoded of fc.sample(c.property.calls as fc.Arbitrary<Encoded>, {
        seed: 7,
        numRuns: 60,
      })) {
        const calls = decode(encoded);
        expect(referenceAnswers(calls, start(c))).toEqual(modelAnswers(calls, start(c)));
      }
    });
  }

  for (const c of suite.cases.filter(isGenerated)) {
    test(`${c.tier} · ${c.name}: every key is new, and every answer a new key's`, () => {
      // Each call is on a key not seen before, so the model's answer is a new key's at that time.
      // The algorithm only sees times through windows of W, so a new key's answer at t is its answer
      // at t mod W, moved by the whole windows in between: the model runs once per offset.
      const byOffset = new Map<number, RateLimitResult>();
      let time = start(c);
      let settings: [number, number] = [0, 0];
      let calls = 0;
      const keys = new Set<string>();
      c.generate((call) => {
        calls++;
        if (call.method === CLASS) {
          settings = [call.args[0] as number, call.args[1] as number];
          return;
        }
        if (call.method === 'clock.advance') {
          time += call.args[0] as number;
          return;
        }
        const key = call.args[0] as string;
        // Keys are "k<i>" then "n<i>"; checking a sample keeps the Set small.
        if (calls % 97 === 0) {
          expect(keys.has(key)).toBe(false);
          keys.add(key);
        }
        const [limit, W] = settings;
        const offset = time % W;
        if (!byOffset.has(offset))
          byOffset.set(offset, new Model(limit, W).call('peek', offset, key));
        const atOffset = byOffset.get(offset) as RateLimitResult;
        const shift = time - offset;
        const expected = call.expected as RateLimitResult;
        if (
          expected.allowed !== atOffset.allowed ||
          expected.remaining !== atOffset.remaining ||
          expected.resetAt !== atOffset.resetAt + shift ||
          expected.retryAt !== atOffset.retryAt + shift
        ) {
          expect(expected, `call ${calls - 1}`).toEqual({
            ...atOffset,
            resetAt: atOffset.resetAt + shift,
            retryAt: atOffset.retryAt + shift,
          });
        }
      });
      expect(calls).toBeGreaterThan(10_000);
    });
  }
});
