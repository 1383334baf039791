// The design round's contract as the limiter katas share it. Some of its cases are asked in every
// kata in the same words (two limiters on one clock, a clock far from today, peek again and again,
// keys named like object properties, random calls against the reference): their name, tier and hint
// are here, with the word or two in which one kata's differs (what a limiter keeps: counts, buckets)
// given by the suite, which gives the calls. Here too are the builders behind the calls the suites
// share: the random steps a property case draws, the largest core input's traffic, and a
// CallScript that writes the shared cases' calls (keys taking turns, two limiters on one clock,
// peeks, keys named like object properties, settings and costs out of range).
import fc from 'fast-check';
import { fakeClock } from './fixtures.ts';
import {
  CallScript,
  draws,
  HeldClock,
  mixedTraffic,
  THROWS,
  type RandomStep,
  type ReferenceLimiter,
} from './limiter-script.ts';
import type { Encoded, FixedCase, PropertyCase, Tier } from './suite.ts';

/** The words a kata puts in the shared hints. */
export interface ContractWords {
  /** What the class is called: `limiter`, `queue`. */
  thing: string;
  /** What each instance keeps of its own (instance-isolation): `counts`, `buckets`. */
  keeps?: string;
  /** What each key has of its own (key-isolation): `quota`, `bucket`. */
  perKey?: string;
}

interface Header {
  name: string;
  tier: Tier;
  hint: string;
}

/** A word a header needs; a suite that asks for the case without giving it is told at load. */
function word(words: ContractWords, which: 'keeps' | 'perKey', trap: string): string {
  const given = words[which];
  if (given === undefined) throw new Error(`the ${trap} case needs the word "${which}"`);
  return given;
}

/** The cases asked alike, by trap. */
const HEADERS = {
  'instance-isolation': (w: ContractWords): Header => ({
    name: `two ${w.thing}s on one clock`,
    tier: 'core',
    hint: `Each ${w.thing} must keep its own ${word(w, 'keeps', 'instance-isolation')}. Is any of your state shared by every instance?`,
  }),
  'key-isolation': (w: ContractWords): Header => ({
    name: 'two keys take turns',
    tier: 'core',
    hint: `Every key has its own ${word(w, 'perKey', 'key-isolation')}: what one key spends never changes the answers for another.`,
  }),
  'injected-clock': (w: ContractWords): Header => ({
    name: 'a clock far from today',
    tier: 'core',
    hint: `The ${w.thing} is given a clock; that clock is the only time there is. Anything that reads the real time gives answers no test can predict.`,
  }),
  'peek-is-pure': (): Header => ({
    name: 'peek again and again',
    tier: 'core',
    hint: 'peek gives the answer allow would give at this instant (remaining and resetAt as if the request were taken) and then changes nothing: any number of peeks, then an allow, must look like the allow alone.',
  }),
  'random-core': (): Header => ({
    name: 'random calls against the reference',
    tier: 'core',
    hint: 'A short random sequence of calls disagrees with the reference; the counterexample shows the smallest one found.',
  }),
  'prototype-keys': (): Header => ({
    name: 'keys named like object properties',
    tier: 'follow-up',
    hint: 'Follow-up: a key can be any string, including names every JavaScript object already answers to. Is your store really empty when it is created?',
  }),
};

/** A trap whose case the limiter katas ask in the same words. */
export type SharedTrap = keyof typeof HEADERS;

/** A case's calls: written out, or drawn at random (the reference answers). */
type Body = Encoded | Pick<PropertyCase, 'property'>;

/**
 * The shared cases of a kata whose hints say `words`: `contract(trap, start, calls)` is the case
 * of `trap`, on a fake clock that starts at `start`.
 */
export function contractCases(
  words: ContractWords,
): (trap: SharedTrap, start: number, body: Body) => FixedCase | PropertyCase {
  return (trap, start, body) => {
    const { name, tier, hint } = HEADERS[trap](words);
    return { name, tier, trap, hint, fixtures: { clock: fakeClock(start) }, ...body };
  };
}

/**
 * A request's cost in a random sequence: in the core none or 1; in a follow-up none, 1 to `max`
 * (past the limit), or now and then a huge one.
 */
export function randomCost(followUp: boolean, max: number): fc.Arbitrary<number | undefined> {
  if (!followUp) return fc.constantFrom(undefined, 1);
  return fc.option(
    fc.oneof(
      { weight: 5, arbitrary: fc.integer({ min: 1, max }) },
      { weight: 1, arbitrary: fc.constant(1e15) },
    ),
    { nil: undefined },
  );
}

/** What a random sequence's steps are drawn from. */
export interface StepRanges {
  /** The methods a call is one of: allow and peek unless said (a queue's submit). */
  methods?: readonly string[];
  keys: readonly string[];
  /** A call's cost (`fc.constant(undefined)`: none). */
  cost: fc.Arbitrary<number | undefined>;
  /** How far a `clock.advance` moves the clock. */
  advance: fc.Arbitrary<number>;
  /** Where a `clock.set` puts it, in a follow-up (it may step back); the core has none. */
  set?: fc.Arbitrary<number> | undefined;
  maxLength: number;
}

/**
 * A random sequence of 1 to `maxLength` steps for `CallScript.steps`: calls, five in eight (seven
 * without sets), clock moves, two in eight, and sets, one in eight. The reference answers them.
 */
export function randomSteps(r: StepRanges): fc.Arbitrary<RandomStep[]> {
  const call = fc.record({
    method: fc.constantFrom(...(r.methods ?? ['allow', 'peek'])),
    key: fc.constantFrom(...r.keys),
    cost: r.cost,
  });
  const advance = fc.record({ method: fc.constant('clock.advance' as const), ms: r.advance });
  const set = r.set && fc.record({ method: fc.constant('clock.set' as const), ms: r.set });
  return fc.array<RandomStep>(
    fc.oneof(
      { weight: 5, arbitrary: call },
      { weight: 2, arbitrary: advance },
      ...(set ? [{ weight: 1, arbitrary: set }] : []),
    ),
    { minLength: 1, maxLength: r.maxLength },
  );
}

/**
 * The largest core input: a limiter for each of `knobs` (its settings) on one clock, answered by
 * `reference(knob, clock)`, then `mixedTraffic` of draws from `seed` until `s` holds `calls` calls.
 */
export function maxTraffic<Knob extends readonly unknown[]>(
  s: CallScript,
  knobs: readonly Knob[],
  reference: (knob: Knob, clock: HeldClock) => ReferenceLimiter,
  seed: number,
  calls: number,
): Encoded {
  const clock = new HeldClock();
  const refs = knobs.map((knob) => {
    s.build([...knob]);
    return reference(knob, clock);
  });
  mixedTraffic(s, refs, clock, draws(seed), calls);
  return s.done();
}

/** Keys every JavaScript object already answers to. */
export const PROPERTY_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** Values a setting that is a positive whole number must refuse. */
export const BAD_WHOLE = [0, -1, 2.5, NaN, Infinity];

/** Values a setting that is a positive finite rate (fractions allowed) must refuse. */
export const BAD_RATES = [0, -1, NaN, Infinity, -Infinity];

/** Three answers of a key spending a quota of two: allowed, allowed, refused. */
type Spent = readonly [unknown, unknown, unknown];

/** The calls of a limiter kata's cases, with those of the cases every limiter kata asks alike. */
export class LimiterScript extends CallScript {
  /**
   * key-isolation's calls on a limiter of two: "alice" spends it (her answers `alice`), `after` ms
   * later "bob", peeked and then allowed, spends his own (`bob`), while alice, peeked between, is
   * still refused.
   */
  keysTakeTurns(turns: { alice: Spent; after: number; bob: Spent }): this {
    const { alice, after, bob } = turns;
    this.allow('alice', alice[0]).allow('alice', alice[1]).allow('alice', alice[2]).advance(after);
    this.peek('bob', bob[0]).allow('bob', bob[0]).peek('alice', alice[2]);
    return this.allow('bob', bob[1]).allow('bob', bob[2]);
  }

  /**
   * instance-isolation's calls on two limiters already built, a limit of one and of two, key "k"
   * on both in turn: the first answers `first` (allowed, then refused, and still refused at the
   * end), the second `second` (allowed twice, and once more 500 ms later).
   */
  twoOnOneClock(answers: {
    first: readonly [unknown, unknown];
    second: readonly [unknown, unknown, unknown];
  }): this {
    const { first, second } = answers;
    this.on(0).allow('k', first[0]).on(1).allow('k', second[0]).allow('k', second[1]);
    this.on(0).allow('k', first[1]).advance(500).on(1).allow('k', second[2]);
    return this.on(0).allow('k', first[1]);
  }

  /**
   * peek-is-pure's calls on a limiter of two: three peeks and an allow, all answered `first`;
   * 10 ms later two peeks and an allow answered `second`; then a peek and an allow answered
   * `refused`.
   */
  peeksLikeAllow(first: unknown, second: unknown, refused: unknown): this {
    this.peek('k', first).peek('k', first).peek('k', first).allow('k', first).advance(10);
    this.peek('k', second).peek('k', second).allow('k', second);
    return this.peek('k', refused).allow('k', refused);
  }

  /**
   * A request that can never fit: allows of `cost` (just past what a key can ever hold) and of
   * 10^15, and a peek of 2^60, on key "k", each answered `answer`.
   */
  neverFits(cost: number, answer: unknown): this {
    return this.allow('k', answer, cost)
      .allow('k', answer, 1e15)
      .peek('k', answer, 2 ** 60);
  }

  /**
   * prototype-keys' calls: on each of PROPERTY_KEYS a peek and an allow, both answered `first`,
   * then on each an allow answered `again`.
   */
  propertyKeys(first: unknown, again: unknown): this {
    for (const key of PROPERTY_KEYS) this.peek(key, first).allow(key, first);
    for (const key of PROPERTY_KEYS) this.allow(key, again);
    return this;
  }

  /**
   * Settings out of range: for each position i of `base`, a constructor with the value there
   * replaced by each of `bad[i]` in turn, which must throw a RangeError (each takes an instance
   * index of its own: a constructor that throws leaves none).
   */
  badSettings(base: readonly unknown[], bad: readonly (readonly unknown[])[]): this {
    bad.forEach((values, i) => {
      for (const value of values)
        this.build(
          base.map((v, j) => (j === i ? value : v)),
          THROWS,
        );
    });
    return this;
  }

  /** Costs out of range on `key`: each allow and peek throws a RangeError. */
  badCosts(key: string): this {
    for (const cost of [0, -1, 1.5, NaN, Infinity, -Infinity]) this.allow(key, THROWS, cost);
    for (const cost of [0, 0.25, NaN]) this.peek(key, THROWS, cost);
    return this;
  }
}
