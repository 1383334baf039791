// The leaky-bucket queue reference held to the shared contract, in exact arithmetic. The model says
// only which request the queue accepts (as `admits` over the requests a key accepted before, for
// brute-force.ts to search with) and when it starts; every time is kept as a whole number of
// 1/p ms for a rate of p/q per second, so no rounding can hide a mistake. On random sequences
// (several keys, whole and fractional rates, the clock moving forward and back) every answer of
// the reference must be the model's, startAt within 1e-6 ms and every other field exactly. The
// suite's written-out cases are worked out by the model too, and its long generated ones by an
// exact chain model that the brute force vouches for here as well.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fakeClock } from '../../harness/fixtures.ts';
import {
  decode,
  fromCalls,
  isFixed,
  isFixtureRef,
  isGenerated,
  isProperty,
  isThrows,
  type Call,
  type CallSource,
  type Encoded,
  type FixtureSpec,
} from '../../harness/suite.ts';
import type { Clock } from '../../problems/rate-limiter-contract.ts';
import { LeakyBucketQueue, type QueueResult } from '../../solutions/leaky-bucket-queue/solution.ts';
import suite from '../../solutions/leaky-bucket-queue/suite.ts';
import { decide, type Accepted, type Algorithm } from './brute-force.ts';

const CLASS = 'LeakyBucketQueue';
const TOLERANCE = 1e-6;

/** A decimal rate as a fraction p/q in lowest terms: 0.769 → 769/1000. */
function fraction(rate: number): [p: number, q: number] {
  const text = String(rate);
  expect(text, 'a plain decimal').toMatch(/^\d+(\.\d+)?$/);
  const decimals = text.includes('.') ? (text.split('.')[1] as string).length : 0;
  let p = Number(text.replace('.', ''));
  let q = 10 ** decimals;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = gcd(p, q);
  p /= g;
  q /= g;
  return [p, q];
}

/**
 * Exact time for one queue: a time of t ms is t·p units, and the interval 1000 / (p/q) ms is
 * 1000·q units, both whole numbers.
 */
class Units {
  readonly perMs: number;
  readonly interval: number;
  constructor(rate: number) {
    const [p, q] = fraction(rate);
    this.perMs = p;
    this.interval = 1000 * q;
    expect(Number.isSafeInteger(this.interval * 1e6)).toBe(true);
  }
  of(ms: number): number {
    return ms * this.perMs;
  }
  ms(units: number): number {
    return units / this.perMs;
  }
}

/**
 * The queue as the statement words it, over the requests a key accepted (their effective times):
 * each starts at max(its time, the previous start + I); a request waits while its start is later
 * than now; a new one is accepted when, counting itself if it would wait, at most `capacity` wait.
 */
function queueAlgorithm(capacity: number, units: Units): Algorithm {
  // brute-force.ts asks about the same log thousands of times and only ever appends to a log, so
  // the starts of each log are worked out once and extended when it grows.
  const known = new WeakMap<readonly Accepted[], number[]>();
  const startsOf = (accepted: readonly Accepted[]): number[] => {
    let starts = known.get(accepted);
    if (starts === undefined) known.set(accepted, (starts = []));
    while (starts.length < accepted.length) {
      const at = units.of((accepted[starts.length] as Accepted).at);
      const previous = starts.at(-1);
      starts.push(previous === undefined ? at : Math.max(at, previous + units.interval));
    }
    return starts;
  };
  return {
    admits(accepted, now, cost) {
      if (cost !== 1) throw new Error('a queue has no costs');
      const t = units.of(now);
      const starts = startsOf(accepted);
      let started = 0; // how many start at t or earlier (starts only grow)
      let high = starts.length;
      while (started < high) {
        const mid = (started + high) >> 1;
        if ((starts[mid] as number) <= t) started = mid + 1;
        else high = mid;
      }
      const waiting = starts.length - started;
      const last = starts.at(-1);
      const next = last === undefined ? t : Math.max(t, last + units.interval);
      return waiting + (next > t ? 1 : 0) <= capacity;
    },
    // Beyond capacity + 1 intervals every queue has drained, and stays so.
    horizonMs: Math.ceil(units.ms((capacity + 2) * units.interval)) + 2,
  };
}

/** When the next request of a key would start, in units. */
function nextStart(units: Units, accepted: readonly Accepted[], now: number): number {
  let last: number | undefined;
  for (const a of accepted) {
    const at = units.of(a.at);
    last = last === undefined ? at : Math.max(at, last + units.interval);
  }
  return last === undefined ? units.of(now) : Math.max(units.of(now), last + units.interval);
}

/** The model queue: brute-force answers per key, one high-water mark, validation. */
class Model {
  private readonly algorithm: Algorithm;
  private readonly units: Units;
  private readonly logs = new Map<string, Accepted[]>();
  private mark = -Infinity;

  constructor(
    capacity: number,
    leakPerSecond: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError(String(capacity));
    if (!Number.isFinite(leakPerSecond) || leakPerSecond <= 0) {
      throw new RangeError(String(leakPerSecond));
    }
    this.units = new Units(leakPerSecond);
    this.algorithm = queueAlgorithm(capacity, this.units);
  }

  submit(key: string): QueueResult {
    this.mark = Math.max(this.mark, this.clock.now());
    const now = this.mark;
    const log = this.logs.get(key) ?? [];
    const result = decide(this.algorithm, log, now, 1);
    const startAt = this.units.ms(nextStart(this.units, log, now));
    if (result.allowed) this.logs.set(key, [...log, { at: now, cost: 1 }]);
    return { ...result, startAt };
  }
}

/**
 * The same queue kept as a run of starts per key (an anchor and a count), in exact
 * units: fast enough for the suite's long cases. Checked against the brute force below.
 */
class ChainModel {
  private readonly units: Units;
  private readonly chains = new Map<string, { anchor: number; count: number }>();
  private mark = -Infinity;
  /** The smallest distance, in ms, between a start that is not a whole ms and a whole ms. */
  nearestKnifeEdgeMs = Infinity;

  constructor(
    private readonly capacity: number,
    leakPerSecond: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError(String(capacity));
    if (!Number.isFinite(leakPerSecond) || leakPerSecond <= 0) {
      throw new RangeError(String(leakPerSecond));
    }
    this.units = new Units(leakPerSecond);
  }

  submit(key: string): QueueResult {
    this.mark = Math.max(this.mark, this.clock.now());
    const now = this.units.of(this.mark);
    const u = this.units;
    const at = (c: { anchor: number }, j: number): number => c.anchor + j * u.interval;
    // retryAt and resetAt round a start up; a start that is not exactly whole must not be so
    // close to one that floating point could round it the other way.
    const up = (units: number): number => {
      const rest = units % u.perMs;
      if (rest !== 0) {
        this.nearestKnifeEdgeMs = Math.min(
          this.nearestKnifeEdgeMs,
          u.ms(rest),
          u.ms(u.perMs - rest),
        );
      }
      return Math.ceil(u.ms(units) - 1e-12);
    };
    let chain = this.chains.get(key);
    if (chain === undefined || at(chain, chain.count) <= now) {
      chain = { anchor: now, count: 1 };
      this.chains.set(key, chain);
      return {
        allowed: true,
        remaining: this.capacity,
        resetAt: up(at(chain, 1)),
        retryAt: this.mark,
        startAt: this.mark,
      };
    }
    const start = at(chain, chain.count);
    const ahead = at(chain, chain.count - this.capacity);
    if (ahead > now) {
      return {
        allowed: false,
        remaining: 0,
        resetAt: up(start),
        retryAt: up(ahead),
        startAt: u.ms(start),
      };
    }
    chain.count += 1;
    let waiting = 0;
    for (let j = chain.count - 1; j >= 0 && at(chain, j) > now; j--) waiting += 1;
    return {
      allowed: true,
      remaining: this.capacity - waiting,
      resetAt: up(at(chain, chain.count)),
      retryAt: this.mark,
      startAt: u.ms(start),
    };
  }
}

type Queue = typeof LeakyBucketQueue | typeof Model | typeof ChainModel;

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
  cls: Queue,
  check: (call: Call, actual: unknown, index: number) => void,
): { submit(key: string): QueueResult }[] {
  const made = Object.fromEntries(
    Object.entries(fixtures).map(([name, spec]) => [name, makeFixture(spec)]),
  );
  const instances: { submit(key: string): QueueResult }[] = [];
  let index = 0;
  source((call) => {
    let actual: unknown;
    try {
      if (call.method === 'submit') {
        actual = (instances[call.target ?? 0] as LeakyBucketQueue).submit(call.args[0] as string);
      } else if (call.method === CLASS) {
        const args = call.args.map((a) => (isFixtureRef(a) ? made[a.$fixture]?.handle : a));
        instances[call.target ?? 0] = new cls(...(args as [number, number, Clock]));
        actual = null;
      } else {
        const [name, action] = call.method.split('.') as [string, string];
        actual = (made[name] as Made).control[action]?.(...call.args) ?? null;
      }
    } catch (error) {
      actual = { throws: (error as Error).name };
    }
    check(call, actual, index++);
  });
  return instances;
}

/** The judge's comparison: startAt within 1e-6 ms, every other field exactly. */
function sameAnswer(expected: unknown, actual: unknown): boolean {
  if (expected === null || isThrows(expected)) {
    return JSON.stringify(expected) === JSON.stringify(actual);
  }
  const want = expected as Record<string, unknown>;
  const got = actual as Record<string, unknown>;
  return (
    Object.keys(want).length === Object.keys(got).length &&
    Object.keys(want).every((field) =>
      field === 'startAt'
        ? Math.abs((want[field] as number) - (got[field] as number)) <= TOLERANCE
        : Object.is(want[field], got[field]),
    )
  );
}

/** Plays `source` against two classes and names the first call on which they disagree. */
function firstDifference(
  source: CallSource,
  fixtures: Record<string, FixtureSpec>,
  a: Queue,
  b: Queue,
): string | undefined {
  const theirs: unknown[] = [];
  play(source, fixtures, b, (_, actual) => theirs.push(actual));
  let found: string | undefined;
  play(source, fixtures, a, (call, actual, i) => {
    if (found === undefined && !sameAnswer(theirs[i], actual)) {
      found = `call ${i} ${call.method}(${call.args.join(', ')}): ${JSON.stringify(actual)} vs ${JSON.stringify(theirs[i])}`;
    }
  });
  return found;
}

/** Checks every expected answer a case gives against a class; the first one that differs. */
function firstWrong(
  source: CallSource,
  fixtures: Record<string, FixtureSpec>,
  cls: Queue,
): string | undefined {
  let found: string | undefined;
  play(source, fixtures, cls, (call, actual, i) => {
    if (found === undefined && !sameAnswer(call.expected, actual)) {
      found = `call ${i} ${call.method}(${call.args.join(', ')}): expected ${JSON.stringify(call.expected)}, got ${JSON.stringify(actual)}`;
    }
  });
  return found;
}

const clockAt = (ms: number): Record<string, FixtureSpec> => ({ clock: fakeClock(ms) });

/** Random sequences broader than the suite's: more keys and rates, longer runs, the clock back. */
const sequences: fc.Arbitrary<Encoded> = fc
  .record({
    capacity: fc.integer({ min: 1, max: 5 }),
    rate: fc.constantFrom(1000, 500, 300, 250, 3000, 700, 2500, 333.3, 76.9, 1500, 62.5),
    ops: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: fc.tuple(fc.constant('submit'), fc.constantFrom('a', 'b', 'c')) },
        { weight: 3, arbitrary: fc.tuple(fc.constant('clock.advance'), fc.nat(12)) },
        { weight: 1, arbitrary: fc.tuple(fc.constant('clock.back'), fc.nat(15)) },
      ),
      { maxLength: 60 },
    ),
  })
  .map(({ capacity, rate, ops }) => {
    let time = 500;
    const methods: string[] = [CLASS];
    const args: unknown[][] = [[capacity, rate, { $fixture: 'clock' }]];
    for (const [op, value] of ops) {
      if (op === 'clock.advance') {
        time += value as number;
        methods.push(op);
        args.push([value]);
      } else if (op === 'clock.back') {
        time -= value as number;
        methods.push('clock.set');
        args.push([time]);
      } else {
        methods.push('submit');
        args.push([value]);
      }
    }
    return { methods, args, expected: [] };
  });

describe('the reference against the brute-force model', () => {
  test('answers every call of random sequences as the contract defines it', () => {
    fc.assert(
      fc.property(sequences, (encoded) => {
        const source = fromCalls(decode(encoded));
        expect(firstDifference(source, clockAt(500), LeakyBucketQueue, Model)).toBeUndefined();
        expect(firstDifference(source, clockAt(500), ChainModel, Model)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  test('also on the sequences the suite draws', () => {
    for (const c of suite.cases.filter(isProperty)) {
      for (const encoded of fc.sample(c.property.calls, { numRuns: 25, seed: 7 })) {
        const source = fromCalls(decode(encoded));
        const fixtures = c.fixtures ?? {};
        expect(firstDifference(source, fixtures, LeakyBucketQueue, Model), c.name).toBeUndefined();
      }
    }
  });

  test('every property case moves the clock, and only the follow-up moves it back', () => {
    for (const c of suite.cases.filter(isProperty)) {
      const samples = fc.sample(c.property.calls, { numRuns: 50, seed: 1 });
      const methods = new Set(samples.flatMap((s) => s.methods));
      expect(methods.has('clock.advance'), c.name).toBe(true);
      const back = samples.some((s) => {
        let time = -Infinity;
        return decode(s).some((call) => {
          if (call.method !== 'clock.set') return false;
          const earlier = (call.args[0] as number) < time;
          time = call.args[0] as number;
          return earlier;
        });
      });
      expect(back, c.name).toBe(c.tier === 'follow-up');
    }
  });
});

describe('the suite', () => {
  for (const c of suite.cases.filter(isFixed)) {
    test(`${c.name}: every written answer is the model's, and the reference's`, () => {
      const source = fromCalls(decode(c));
      const fixtures = c.fixtures ?? {};
      // The brute force searches up to (capacity + 2) intervals per call: fine for the cases
      // written by hand, too slow for max-input, which the exact chain model checks instead.
      const model = c.methods.length <= 100 ? Model : ChainModel;
      expect(firstWrong(source, fixtures, model)).toBeUndefined();
      expect(firstWrong(source, fixtures, LeakyBucketQueue)).toBeUndefined();
    });
  }

  for (const c of suite.cases.filter(isGenerated)) {
    test(`${c.name}: every generated answer is the exact model's, and the reference's`, () => {
      const fixtures = c.fixtures ?? {};
      let calls = 0;
      const counting: CallSource = (emit) =>
        c.generate((call) => {
          calls += 1;
          emit(call);
        });
      expect(firstWrong(counting, fixtures, LeakyBucketQueue)).toBeUndefined();
      let found: string | undefined;
      const models = play(c.generate, fixtures, ChainModel, (call, actual, i) => {
        if (found === undefined && !sameAnswer(call.expected, actual)) {
          found = `call ${i}: expected ${JSON.stringify(call.expected)}, got ${JSON.stringify(actual)}`;
        }
      }) as ChainModel[];
      expect(found).toBeUndefined();
      expect(calls).toBeGreaterThan(500);
      // No start that is not a whole millisecond lies within 1e-6 ms of one.
      for (const model of models) expect(model.nearestKnifeEdgeMs).toBeGreaterThan(1e-4);
    });
  }

  test('the busy chain stays busy, far from zero: the interval is added up hundreds of times', () => {
    const c = suite.cases.find((one) => isGenerated(one) && one.trap === 'fractional-rate');
    expect(c).toBeDefined();
    let waited = 0;
    let submits = 0;
    let now = 0;
    if (c === undefined || !isGenerated(c)) return;
    now = c.fixtures?.clock?.args?.[0] as number;
    expect(now).toBeGreaterThan(2 ** 29);
    c.generate((call) => {
      if (call.method === 'clock.advance') now += call.args[0] as number;
      if (call.method !== 'submit') return;
      submits += 1;
      if ((call.expected as QueueResult).startAt > now) waited += 1;
    });
    expect(waited / submits).toBeGreaterThan(0.9);
  });

  test('the idle-eviction case ends with the reference holding the busy key and little else', () => {
    const c = suite.cases.find((one) => one.trap === 'idle-eviction');
    if (c === undefined || !isGenerated(c)) throw new Error('no idle-eviction case');
    const [queue] = play(c.generate, c.fixtures ?? {}, LeakyBucketQueue, () => {});
    const kept = (queue as unknown as { nexts: Map<string, unknown> }).nexts;
    expect(kept.has('GET /queue?tenant=acme&user=busy')).toBe(true);
    expect(kept.size).toBeLessThanOrEqual(50);
  });
});

describe('hand-checked behaviour', () => {
  const clock = { time: 0, now: () => clock.time };
  const fresh = (capacity: number, rate: number, at = 0): LeakyBucketQueue => {
    clock.time = at;
    return new LeakyBucketQueue(capacity, rate, clock);
  };

  test('a new key takes capacity + 1 at one instant, spaced one interval apart', () => {
    const queue = fresh(3, 4);
    expect([1, 2, 3, 4, 5].map(() => queue.submit('k').startAt)).toEqual([0, 250, 500, 750, 1000]);
    clock.time = 0;
    const refused = fresh(3, 4);
    const answers = [1, 2, 3, 4, 5].map(() => refused.submit('k').allowed);
    expect(answers).toEqual([true, true, true, true, false]);
  });

  test('a third of a second apart, the fourth start is exactly one second later', () => {
    const queue = fresh(5, 3);
    for (let i = 0; i < 3; i++) queue.submit('k');
    expect(queue.submit('k').startAt).toBe(1000);
    clock.time = 1000;
    // At 1000 every one of those has started, the one of 1000 too: this one is the only one waiting.
    expect(queue.submit('k')).toMatchObject({ allowed: true, remaining: 4, resetAt: 1667 });
  });

  test('no drift: 10^4 back-to-back starts at 3 per second end on a whole second', () => {
    const queue = fresh(1, 3, 5_000_000);
    for (let i = 1; i <= 10_000; i++) {
      clock.time = 5_000_000 + Math.floor((i * 1000) / 3);
      queue.submit('k');
    }
    clock.time = 5_000_000 + Math.floor((10_000 * 1000) / 3);
    const answer = queue.submit('k');
    expect(answer.allowed).toBe(false);
    // The closed form is within an ulp (2e-9 ms here); adding 1000 / 3 up 10^4 times is not.
    expect(Math.abs(answer.startAt - (5_000_000 + (10_001 * 1000) / 3))).toBeLessThan(1e-8);
    let added = 5_000_000;
    for (let i = 0; i < 10_001; i++) added += 1000 / 3;
    expect(Math.abs(added - (5_000_000 + (10_001 * 1000) / 3))).toBeGreaterThan(1e-6);
  });

  test('a start that is a whole millisecond by the decimal rate is due at that very millisecond', () => {
    // At these rates j · 1000 / rate in floating point comes out a hair above a whole millisecond
    // that is exact by the decimal (145000 / 9.28 = 15625.000000000002, 9000 / 0.009 =
    // 1000000.0000000001). A client keeps one place full, and also knocks a millisecond early;
    // every answer must be the exact chain model's.
    for (const rate of [9.28, 2.32, 4.64, 1.16, 0.58, 0.576, 0.009, 0.288]) {
      const [p, q] = fraction(rate);
      const s: Call[] = [{ method: CLASS, args: [1, rate, { $fixture: 'clock' }], expected: null }];
      const submit: Call = { method: 'submit', args: ['k'], expected: null };
      s.push(submit, submit);
      let late = 0;
      for (let j = 1; j <= 600; j++) {
        const start = (j * 1000 * q) / p;
        if (Number.isInteger(start) && (j * 1000) / rate > start) late += 1;
        s.push({ method: 'clock.set', args: [Math.ceil(start) - 1], expected: null }, submit);
        s.push({ method: 'clock.set', args: [Math.ceil(start)], expected: null }, submit);
      }
      expect(late, `${rate}: floating point is late somewhere`).toBeGreaterThan(0);
      const source: CallSource = (emit) => s.forEach(emit);
      expect(firstDifference(source, clockAt(0), LeakyBucketQueue, ChainModel), String(rate)).toBe(
        undefined,
      );
    }
  });

  test('rates written with an exponent, or with many digits, are read exactly too', () => {
    // 2.5e-7 a second: one request every 4·10^9 ms, exactly.
    const slow = fresh(1, 2.5e-7);
    expect(slow.submit('k')).toEqual({
      allowed: true,
      remaining: 1,
      resetAt: 4e9,
      retryAt: 0,
      startAt: 0,
    });
    expect(slow.submit('k')).toMatchObject({
      allowed: true,
      remaining: 0,
      resetAt: 8e9,
      startAt: 4e9,
    });
    expect(slow.submit('k')).toMatchObject({ allowed: false, retryAt: 4e9, startAt: 8e9 });
    clock.time = 4e9;
    expect(slow.submit('k')).toMatchObject({
      allowed: true,
      remaining: 0,
      startAt: 8e9,
      resetAt: 12e9,
    });
    // 10^21 a second: the interval is 10^-18 ms, yet the next start is still after now, so the
    // queue is busy and resetAt is the next whole millisecond.
    const quick = fresh(1, 1e21, 1000);
    expect(quick.submit('k')).toMatchObject({ allowed: true, remaining: 1, resetAt: 1001 });
    expect(quick.submit('k')).toMatchObject({ allowed: true, remaining: 0, resetAt: 1001 });
    expect(quick.submit('k')).toMatchObject({ allowed: false, retryAt: 1001, resetAt: 1001 });
    clock.time = 1001;
    expect(quick.submit('k')).toMatchObject({ allowed: true, remaining: 1, startAt: 1001 });
    // 0.1 + 0.2 is 0.30000000000000004: 3 · 10^16 + 4 over 10^17, an interval just under 3333.33 ms.
    const odd = fresh(1, 0.1 + 0.2);
    odd.submit('k');
    const second = odd.submit('k');
    expect(Math.abs(second.startAt - 1000 / (0.1 + 0.2))).toBeLessThan(1e-9);
    expect(second.resetAt).toBe(Math.ceil(2000 / (0.1 + 0.2)));
  });

  test('bad settings throw RangeError; fractional rates are fine', () => {
    for (const [capacity, rate] of [
      [0, 1],
      [-1, 1],
      [1.5, 1],
      [NaN, 1],
      [Infinity, 1],
      [1, 0],
      [1, -2],
      [1, NaN],
      [1, Infinity],
    ] as const) {
      expect(() => new LeakyBucketQueue(capacity, rate, clock)).toThrow(RangeError);
    }
    expect(() => new LeakyBucketQueue(1, 0.001, clock)).not.toThrow();
  });

  test('drained keys are dropped as calls go by; a key with requests waiting never is', () => {
    const queue = fresh(50, 10);
    const kept = (queue as unknown as { nexts: Map<string, unknown> }).nexts;
    for (let i = 0; i < 51; i++) queue.submit('busy');
    for (let i = 0; i < 1000; i++) queue.submit(`k${i}`);
    expect(kept.size).toBe(1001);
    clock.time = 200; // the 1000 have drained; busy waits until 5000
    for (let i = 0; i < 10; i++) queue.submit(`n${i}`);
    expect(kept.size).toBeLessThanOrEqual(12);
    clock.time = 4999;
    for (let i = 0; i < 10; i++) queue.submit(`m${i}`);
    expect(kept.has('busy')).toBe(true);
    // At 4999 the start of 5000 still waits; 5100 joins it.
    expect(queue.submit('busy')).toMatchObject({ allowed: true, startAt: 5100, remaining: 48 });
  });
});
