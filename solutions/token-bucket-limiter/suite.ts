// Hidden suite for token-bucket-limiter. Examples must match the statement (a test checks it);
// hidden cases each aim at one trap and carry a hint that points at the idea without giving the
// code.
//
// Every case gets a fake clock (`fixture('clock')` in the constructor's arguments) and moves it
// with `clock.advance` / `clock.set`. Core cases keep to the contract's core: cost 1, whole-number
// rates, one key (two for key-isolation and new-key-full), several instances only for
// instance-isolation and the long no-drift case, and a clock that only moves forward. Costs above
// 1, decimal rates, many keys, long idleness, a clock that steps back, bad input and memory are
// follow-ups.
//
// Expected answers of the long generated cases come from `Exact` below, the bucket's closed form
// in whole numbers (no floating point, no tolerance), never from the reference. The written-out
// cases are checked against a brute-force model in test/design/token-bucket-limiter.test.ts.
import fc from 'fast-check';
import { fakeClock } from '../../harness/fixtures.ts';
import { defineSuite, fixture, type Call, type Encoded } from '../../harness/suite.ts';
import type { RateLimitResult } from '../../problems/rate-limiter-contract.ts';
import {
  limiterPicture,
  longKey,
  draws,
  no,
  ok,
  type LimiterPicture,
  type Settings,
} from '../../harness/limiter-script.ts';
import {
  BAD_RATES,
  BAD_WHOLE,
  contractCases,
  LimiterScript,
  randomCost,
  randomSteps,
} from '../../harness/limiter-contract.ts';
import { TokenBucketLimiter } from './solution.ts';

const CLASS = 'TokenBucketLimiter';
const CLOCK = fixture('clock');

/** The calls of a case, on token-bucket limiters. */
class Script extends LimiterScript {
  /** A new limiter on the case's clock; later calls go to it. */
  limiter(capacity: number, refillPerSecond: number, expected: unknown = null): this {
    return this.build([capacity, refillPerSecond], expected);
  }
}

const script = (): Script => new Script(CLASS);

/** The contract's cases asked alike in every limiter kata, in this kata's words. */
const contract = contractCases({ thing: 'limiter', keeps: 'buckets', perKey: 'bucket' });

/** Units of a token in `Exact`: a rate with at most three decimals adds a whole number per ms. */
const UNITS = 1_000_000;

/**
 * The bucket's closed form in whole numbers, for answers too many to write by hand. A token is
 * UNITS units, so a rate of at most three decimals adds `rate · 1000` units, a whole number, every
 * millisecond, and every level and every comparison is exact. The clock only moves forward here.
 */
class Exact {
  private readonly cap: number;
  private readonly perMs: number;
  private readonly buckets = new Map<string, { level: number; last: number }>();

  constructor(
    private readonly capacity: number,
    refillPerSecond: number,
  ) {
    this.cap = capacity * UNITS;
    this.perMs = Math.round(refillPerSecond * 1000);
    if (this.perMs / 1000 !== refillPerSecond) throw new Error(`${refillPerSecond}: 3 decimals`);
  }

  /** The answer at `now`; with `take`, an allowed request is recorded. */
  answer(key: string, cost: number, take: boolean, now: number): RateLimitResult {
    const bucket = this.buckets.get(key);
    const level =
      bucket === undefined
        ? this.cap
        : Math.min(this.cap, bucket.level + (now - bucket.last) * this.perMs);
    const need = cost * UNITS;
    const allowed = cost <= this.capacity && level >= need;
    const after = allowed ? level - need : level;
    if (allowed && take) this.buckets.set(key, { level: after, last: now });
    return {
      allowed,
      remaining: Math.floor(after / UNITS),
      resetAt: now + this.msFor(this.cap - after),
      retryAt: allowed ? now : cost > this.capacity ? Infinity : now + this.msFor(need - level),
    };
  }

  /** Whole milliseconds to gain `units` (the quotient of two whole numbers, rounded up). */
  private msFor(units: number): number {
    return units <= 0 ? 0 : Math.ceil(units / this.perMs);
  }
}

/**
 * Long runs of one key per limiter, several limiters on one clock, with irregular steps: most calls
 * a few milliseconds apart (less than a token's worth of time), some far apart, and clients that
 * were refused coming back exactly at their retryAt, or a millisecond before it. Answers from
 * `Exact`. `calls` counts every call, the constructors and the clock's included.
 */
function irregularSteps(
  knobs: readonly (readonly [capacity: number, refillPerSecond: number])[],
  calls: number,
  seed: number,
): (emit: (call: Call) => void) => void {
  return (emit) => {
    const next = draws(seed);
    const models = knobs.map(([capacity, rate], target) => {
      emit({ method: CLASS, args: [capacity, rate, CLOCK], expected: null, target });
      return new Exact(capacity, rate);
    });
    /** Per limiter: the retryAt of its last refusal, while it is still ahead. */
    const pending: number[] = knobs.map(() => -1);
    let now = 0;
    let emitted = knobs.length;
    const advance = (ms: number): void => {
      now += ms;
      emit({ method: 'clock.advance', args: [ms], expected: null, target: 0 });
      emitted++;
    };
    const call = (method: 'allow' | 'peek', target: number): void => {
      const answer = (models[target] as Exact).answer('user', 1, method === 'allow', now);
      if (method === 'allow') pending[target] = answer.allowed ? -1 : answer.retryAt;
      emit({ method, args: ['user'], expected: answer, target });
      emitted++;
    };
    while (emitted < calls) {
      const roll = next(100);
      const target = next(knobs.length);
      if (roll < 12) {
        advance(roll < 8 ? next(10) : roll < 11 ? next(2000) : 60_000 + next(60_000));
      } else if (roll < 24 && (pending[target] as number) > now && emitted < calls - 1) {
        // Back at retryAt, or one millisecond early (then refused, with the same retryAt).
        const early = next(4) === 0 && (pending[target] as number) - 1 > now ? 1 : 0;
        advance((pending[target] as number) - early - now);
        call('allow', target);
      } else {
        call(roll < 36 ? 'peek' : 'allow', target);
      }
    }
  };
}

/**
 * Whole-number rates for the core's long case, buckets of 1 to 60 tokens. At 4 tokens a second
 * every wait is a whole number of milliseconds, which floating point likes to land a hair above.
 * (The issue asked for 10^4 steps: the known drifting designs all fail within the first ~100 calls
 * with any seed tried, and 2000 keep the case within the grade's budget of ~150 ms per problem.)
 */
const DRIFT_KNOBS = [
  [1, 1],
  [3, 7],
  [10, 3],
  [60, 4],
] as const;
const DRIFT_CALLS = 2000;

/**
 * Decimal rates, a real bug report's 0.769 among them, and buckets big enough that the rounding
 * errors of a level of tens of tokens show: exact ties come out a hair short or long. (A design
 * that counts exact thousandths of a token, right for every whole-number rate, fails here within
 * ~100 calls with any seed tried.)
 */
const DECIMAL_KNOBS = [
  [5, 0.769],
  [50, 0.3],
  [40, 1.3],
  [90, 2.7],
] as const;
const DECIMAL_CALLS = 1000;

/**
 * Random sequences on one limiter. Core: one key, cost 1, a whole-number rate, the clock only
 * moving forward (a first `clock.set` picks the start). Follow-up: several keys (one of them named
 * like an inherited object property), costs up to capacity + 2 and huge ones, decimal rates, and
 * `clock.set` stepping back as well.
 */
function randomCalls(followUp: boolean): fc.Arbitrary<Encoded> {
  const keys = followUp ? ['a', 'b', '__proto__'] : ['k'];
  const rates = followUp ? [1, 3, 0.769, 2.5, 0.1, 1.3, 250] : [1, 2, 3, 4, 7, 250];
  return fc
    .record({
      capacity: fc.integer({ min: 1, max: 4 }),
      rate: fc.constantFrom(...rates),
      start: fc.integer({ min: 0, max: 5000 }),
    })
    .chain(({ capacity, rate, start }) => {
      // A step a little longer than it takes to fill the bucket from empty.
      const fill = Math.ceil((capacity * 1000) / rate) + 1;
      return randomSteps({
        keys,
        cost: randomCost(followUp, capacity + 2),
        advance: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: fill })),
        set: followUp ? fc.integer({ min: 0, max: start + 2 * fill }) : undefined,
        maxLength: 30,
      }).map((steps) => script().limiter(capacity, rate).set(start).steps(steps).done());
    });
}

// The memory case. A limiter of capacity EVICT_CAPACITY, EVICT_RATE tokens a second. First one
// key, "short", spends its whole bucket. Then FRESH allows on new keys, FRESH_PER_STEP of them in
// each STEP_MS; once those are all full again, KEYS other keys spend one token each, KEYS_PER_STEP
// in each STEP_MS, and the case ends in the middle of that stream. Each of them is full again 200
// ms (two steps) after it came, so a limiter that drops full buckets holds about fifty at a time,
// at the end too, and one that does not holds them all. A sweep that passes a single short bucket
// per call falls behind for good: the map gains a bucket on every call as fast as its cursor
// moves, buckets stay short across steps, so it never gets round to the ones behind it. "short"
// is asked every SHORT_EVERY calls along the way, and at the end: it is short of tokens
// throughout (its bucket needs EVICT_CAPACITY / EVICT_RATE = 100 s to fill, more than the case
// lasts), and it is quiet for longer than a limiter that forgets keys after half a minute of
// silence would keep it.
//
// Keys are long (KEY_LENGTH characters, about a bearer token's length), so that a limiter which
// keeps every key it has seen keeps ~1.3 KB for each judged call: the ~9000 keys a one-bucket
// sweep keeps show it 10× over a limit of 1 MB. (The issue asked for 10^6 keys and at least 10^5
// calls after them: at ~1 µs per judged call that is far beyond the grade's budget of ~150 ms per
// problem. A limit under ~1 MB is not safe: the memory gauge reads up to ~0.3 MB of noise now and
// then.)
const EVICT_CAPACITY = 500;
const EVICT_RATE = 5;
const EVICT_START = 1000;
const KEYS = 10_000;
const KEYS_PER_STEP = 25;
const STEP_MS = 100;
const FRESH = 1000;
const FRESH_PER_STEP = 20;
const SHORT_EVERY = 1000;
const MEMORY_LIMIT_MB = 1;
const KEY_LENGTH = 1200;
/** No digits in them, so that no two keys can be equal. */
const OLD_FILLER = 'Bearer eyJhbGciOiJIUzINiJ.eyJzdWIiOiJ';
const NEW_FILLER = 'Bearer eyJhbGciOiJFUzINiJ.eyJpcMiOiJ';

/** Key number j, KEY_LENGTH characters (see longKey). */
const tokenKey = (j: number, filler: string): string => longKey(j, filler, KEY_LENGTH);

/**
 * A bucket's tokens over time as the reference's answers make it (full at first, refilled at the
 * rate up to the capacity, less each allowed request's cost): what a failing case's picture plots.
 */
export const TOKENS: NonNullable<LimiterPicture['level']> = {
  name: 'tokens',
  capacity: ([capacity]: Settings) => capacity as number,
  start([capacity, perSecond]: Settings) {
    const cap = capacity as number;
    const rate = (perSecond as number) / 1000;
    let tokens = cap;
    let last = -Infinity;
    const at = (t: number): number =>
      last === -Infinity ? cap : Math.min(cap, tokens + Math.max(0, t - last) * rate);
    return {
      took(t, cost) {
        tokens = Math.max(0, at(t) - cost);
        last = t;
      },
      at,
    };
  },
};

const picture = limiterPicture({ level: TOKENS });

export default defineSuite({
  reference: TokenBucketLimiter,
  picture,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  // The limiter must read the clock it is handed, never the real time.
  realTimeTrap: 'injected-clock',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(3, 1)
        .allow('alice', ok(2, 1000, 0))
        .allow('alice', ok(1, 2000, 0))
        .allow('alice', ok(0, 3000, 0))
        .allow('alice', no(0, 3000, 1000))
        .advance(1500)
        .allow('alice', ok(0, 4000, 1500))
        .allow('alice', no(0, 4000, 2000))
        .done(),
    },
    {
      name: 'peek, two keys, and a long pause',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(5000) },
      ...script()
        .limiter(2, 4)
        .peek('a', ok(1, 5250, 5000))
        .allow('a', ok(1, 5250, 5000))
        .allow('a', ok(0, 5500, 5000))
        .peek('a', no(0, 5500, 5250))
        .allow('b', ok(1, 5250, 5000))
        .set(60_000)
        .allow('a', ok(1, 60_250, 60_000))
        .done(),
    },
    {
      name: 'a key seen for the first time has a full bucket',
      tier: 'core',
      trap: 'new-key-full',
      hint: 'A key the limiter has never seen must be treated as if it had been quiet forever. How many tokens does a bucket hold after a very long rest?',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(4, 1)
        .allow('a', ok(3, 1000, 0))
        .allow('a', ok(2, 2000, 0))
        .allow('a', ok(1, 3000, 0))
        .allow('a', ok(0, 4000, 0))
        .allow('a', no(0, 4000, 1000))
        .advance(2500)
        .allow('b', ok(3, 3500, 2500))
        .allow('b', ok(2, 4500, 2500))
        .done(),
    },
    {
      name: 'an hour of rest fills the bucket, and no more',
      tier: 'core',
      trap: 'refill-cap',
      hint: 'However long a key rests, its bucket holds at most capacity tokens: the burst it may send after a pause is capacity, not the rate times the pause.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(3, 2)
        .allow('k', ok(2, 500, 0))
        .allow('k', ok(1, 1000, 0))
        .allow('k', ok(0, 1500, 0))
        .advance(3_600_000)
        .peek('k', ok(2, 3_600_500, 3_600_000))
        .allow('k', ok(2, 3_600_500, 3_600_000))
        .allow('k', ok(1, 3_601_000, 3_600_000))
        .allow('k', ok(0, 3_601_500, 3_600_000))
        .allow('k', no(0, 3_601_500, 3_600_500))
        .done(),
    },
    {
      name: 'refused again and again while the bucket refills',
      tier: 'core',
      trap: 'denied-is-free',
      hint: 'A refused request must leave the bucket exactly as it was: it takes no tokens, and it must not lose the refill the bucket earned since it was last charged either. Where does your code write when it refuses?',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(2, 4)
        .allow('k', ok(1, 250, 0))
        .allow('k', ok(0, 500, 0))
        .advance(100)
        .allow('k', no(0, 500, 250))
        .advance(100)
        .allow('k', no(0, 500, 250))
        .peek('k', no(0, 500, 250))
        .advance(49)
        .allow('k', no(0, 500, 250))
        .advance(1)
        .allow('k', ok(0, 750, 250))
        .done(),
    },
    {
      name: `${DRIFT_CALLS} calls on four limiters, a few milliseconds apart`,
      tier: 'core',
      trap: 'no-drift',
      hint: {
        wrong:
          'A request that is due by the formula must be allowed, however the time was cut into steps. Keep every fraction of a token the bucket has earned: rounding the level down while moving the last-refill time to now throws a fraction away on every call. And whole-number rates still give fractions of a token in floating point, so a level that is exactly enough may be computed a hair short.',
        slow: 'The largest core input: a few thousand calls, each of which should cost a few operations on two numbers.',
      },
      describe: `${DRIFT_KNOBS.map(([c, r]) => `TokenBucketLimiter(${c}, ${r}, clock)`).join(', ')} on one clock from 0, one key each; ${DRIFT_CALLS} calls in all: allow and peek at steps of 0 to 9 ms mostly, some of up to 2 s and a few of a minute or two, and refused clients coming back exactly at their retryAt, or a millisecond before it`,
      fixtures: { clock: fakeClock(0) },
      generate: irregularSteps(DRIFT_KNOBS, DRIFT_CALLS, 2024),
    },
    {
      name: 'waiting until retryAt, and a millisecond less',
      tier: 'core',
      trap: 'retry-at-is-exact',
      hint: 'retryAt is the first whole millisecond at which the bucket holds enough for this request: a client that waits until then must get in, and one that comes a millisecond earlier must not. Round up, from the exact level, and mind rounding errors that push a whole number just above itself.',
      fixtures: { clock: fakeClock(1000) },
      ...script()
        .limiter(3, 3)
        .allow('k', ok(2, 1334, 1000))
        .allow('k', ok(1, 1667, 1000))
        .allow('k', ok(0, 2000, 1000))
        .allow('k', no(0, 2000, 1334))
        .set(1333)
        .allow('k', no(0, 2000, 1334))
        .set(1334)
        .allow('k', ok(0, 2334, 1334))
        .allow('k', no(0, 2334, 1667))
        .set(1666)
        .peek('k', no(0, 2334, 1667))
        .set(1667)
        .allow('k', ok(0, 2667, 1667))
        .done(),
    },
    {
      name: 'resetAt is when the bucket is full again',
      tier: 'core',
      trap: 'reset-and-retry',
      hint: 'resetAt is the first millisecond at which the bucket is full again (from then on the key answers like a new one), not when the next token comes. retryAt is now when allowed, and otherwise when this request would fit. Both are rounded up to a whole millisecond, from the exact level.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(3, 4)
        .allow('k', ok(2, 250, 0))
        .allow('k', ok(1, 500, 0))
        .advance(43)
        .allow('k', ok(0, 750, 43))
        .allow('k', no(0, 750, 250))
        .peek('k', no(0, 750, 250))
        .set(250)
        .allow('k', ok(0, 1000, 250))
        .advance(500)
        .peek('k', ok(1, 1250, 750))
        .advance(250)
        .peek('k', ok(2, 1250, 1000))
        .advance(5000)
        .peek('k', ok(2, 6250, 6000))
        .done(),
    },
    contract(
      'key-isolation',
      0,
      script()
        .limiter(2, 1)
        .keysTakeTurns({
          alice: [ok(1, 1000, 0), ok(0, 2000, 0), no(0, 2000, 1000)],
          after: 300,
          bob: [ok(1, 1300, 300), ok(0, 2300, 300), no(0, 2300, 1300)],
        })
        .done(),
    ),
    contract(
      'instance-isolation',
      0,
      script()
        .limiter(1, 1)
        .limiter(2, 10)
        .twoOnOneClock({
          first: [ok(0, 1000, 0), no(0, 1000, 1000)],
          second: [ok(1, 100, 0), ok(0, 200, 0), ok(1, 600, 500)],
        })
        .done(),
    ),
    contract(
      'injected-clock',
      7,
      script()
        .limiter(2, 1)
        .allow('k', ok(1, 1007, 7))
        .advance(999)
        .allow('k', ok(0, 2007, 1006))
        .allow('k', no(0, 2007, 1007))
        .advance(1)
        .allow('k', ok(0, 3007, 1007))
        .done(),
    ),
    contract(
      'peek-is-pure',
      0,
      script()
        .limiter(2, 1)
        .peeksLikeAllow(ok(1, 1000, 0), ok(0, 2000, 10), no(0, 2000, 1000))
        .done(),
    ),
    contract('random-core', 0, { property: { calls: randomCalls(false), numRuns: 40 } }),
    {
      name: 'requests of different costs',
      tier: 'follow-up',
      trap: 'weighted-cost',
      hint: 'Follow-up: a request of cost c needs c tokens and, when allowed, takes c. Its retryAt is when c tokens will be there, not one.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(5, 2)
        .allow('k', ok(3, 1000, 0), 2)
        .allow('k', ok(0, 2500, 0), 3)
        .advance(1000)
        .allow('k', no(2, 2500, 1500), 3)
        .peek('k', ok(0, 3500, 1000), 2)
        .allow('k', ok(1, 3000, 1000), 1)
        .peek('k', no(1, 3000, 3000), 5)
        .done(),
    },
    {
      name: 'a heavy request is refused and takes nothing',
      tier: 'follow-up',
      trap: 'denied-is-free',
      hint: 'Follow-up: a refused request takes nothing, whatever its cost, and remaining still counts the whole tokens left (cost-1 requests that would pass now), even when they are too few for this one.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(4, 1)
        .allow('k', ok(1, 3000, 0), 3)
        .allow('k', no(1, 3000, 1000), 2)
        .allow('k', no(1, 3000, 3000), 4)
        .peek('k', no(1, 3000, 1000), 2)
        .allow('k', ok(0, 4000, 0), 1)
        .done(),
    },
    {
      name: 'a request bigger than the bucket',
      tier: 'follow-up',
      trap: 'cost-over-capacity',
      hint: 'Follow-up: a request that costs more than the capacity never fits, however long it waits. It is refused at once, takes nothing, and retryAt says never.',
      fixtures: { clock: fakeClock(500) },
      ...script()
        .limiter(3, 1)
        .neverFits(4, no(3, 500, Infinity))
        .allow('k', ok(0, 3500, 500), 3)
        .allow('k', no(0, 3500, Infinity), 4)
        .advance(600)
        .allow('k', no(0, 3500, Infinity), 1000)
        .allow('k', no(0, 3500, 1500), 1)
        .done(),
    },
    {
      name: 'a bucket of 10^9, and rates of 0.00001 and 10^9 tokens a second',
      tier: 'follow-up',
      trap: 'extreme-settings',
      hint: 'Follow-up: at 0.001 tokens a second a millisecond adds only 10^-6 tokens, and a bucket of 10^9 is so big that 10^-9 of it is a whole token. A tolerance for rounding errors must stay far below anything real: below a millionth of a token, below what the bucket gains in 10 µs, never added to remaining, never taken off a wait so far that the time comes early.',
      fixtures: { clock: fakeClock(5407) },
      ...script()
        // A token a million ms: a slack of 1e-9 × capacity tokens is a whole millisecond here.
        .limiter(1000, 0.001)
        .allow('k', ok(999, 1_005_407, 5407))
        .allow('k', ok(0, 1_000_005_407, 5407), 999)
        .peek('k', no(0, 1_000_005_407, 1_005_407))
        // The same ratio of capacity to rate with a whole-number rate.
        .limiter(1_000_000, 1)
        .allow('k', ok(999_999, 6407, 5407))
        // 1e-9 × capacity is a whole token: remaining, resetAt and the decision all feel it.
        .limiter(1_000_000_000, 1)
        .peek('k', ok(999_999_999, 6407, 5407))
        .peek('k', no(1_000_000_000, 5407, Infinity), 1_000_000_001)
        .allow('k', ok(0, 1_000_000_005_407, 5407), 1_000_000_000)
        .peek('k', no(0, 1_000_000_005_407, 6407))
        // A million tokens a millisecond: a token back takes a millionth of one, rounded up to 1.
        .limiter(5, 1e9)
        .peek('k', ok(4, 5408, 5407))
        .allow('k', ok(0, 5408, 5407), 5)
        .peek('k', no(0, 5408, 5408), 2)
        // A token a day and more: 10^8 ms.
        .limiter(1, 0.00001)
        .allow('k', ok(0, 100_005_407, 5407))
        .peek('k', no(0, 100_005_407, 100_005_407))
        // A millisecond before the first bucket's token is back, and then on time.
        .on(0)
        .set(1_005_406)
        .peek('k', no(0, 1_000_005_407, 1_005_407))
        .set(1_005_407)
        .allow('k', ok(0, 1_001_005_407, 1_005_407))
        .done(),
    },
    {
      name: '0.769 tokens a second',
      tier: 'follow-up',
      trap: 'fractional-rate',
      hint: 'Follow-up: the rate may be a decimal such as 0.769: a setting that is a rate, not a count. A token then takes 1300.39… ms, so retryAt and resetAt round up to 1301, 2601, …; and a request that is due by exact decimal arithmetic is allowed, rounding errors or not.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(5, 0.769)
        .allow('k', ok(4, 1301, 0))
        .allow('k', ok(3, 2601, 0))
        .allow('k', ok(2, 3902, 0))
        .allow('k', ok(1, 5202, 0))
        .allow('k', ok(0, 6502, 0))
        .allow('k', no(0, 6502, 1301))
        .set(1300)
        .allow('k', no(0, 6502, 1301))
        .set(1301)
        .allow('k', ok(0, 7803, 1301))
        .set(10_000)
        .peek('k', ok(4, 11_301, 10_000))
        .done(),
    },
    {
      name: 'decimal rates, and clients that come back at retryAt',
      tier: 'follow-up',
      trap: 'fractional-rate',
      hint: 'Follow-up: with rates such as 0.1 or 1.3 tokens a second, floating point cannot hold a refill exactly, and a level that is exactly enough may come out a hair short. A request that is due by exact decimal arithmetic must be allowed: compare with a small tolerance (1e-9 × capacity is enough), and round retryAt and resetAt up from the exact level, not from its rounding error.',
      describe: `${DECIMAL_KNOBS.map(([c, r]) => `TokenBucketLimiter(${c}, ${r}, clock)`).join(', ')} on one clock from 0, one key each; ${DECIMAL_CALLS} calls in all: allow and peek at irregular steps, and refused clients coming back exactly at their retryAt, or a millisecond before it`,
      fixtures: { clock: fakeClock(0) },
      generate: irregularSteps(DECIMAL_KNOBS, DECIMAL_CALLS, 769),
    },
    {
      name: 'thirty days of rest',
      tier: 'follow-up',
      trap: 'long-idle',
      hint: 'Follow-up: a month is about 2.6 · 10^9 ms, more than a 32-bit integer holds. The time elapsed, and the tokens it is worth, must be computed without overflow, and the bucket is then simply full.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(10, 2)
        .allow('k', ok(0, 5000, 0), 10)
        .set(2_592_000_000)
        .peek('k', ok(9, 2_592_000_500, 2_592_000_000))
        .allow('k', ok(0, 2_592_005_000, 2_592_000_000), 10)
        .allow('k', no(0, 2_592_005_000, 2_592_000_500))
        .done(),
    },
    {
      name: 'the clock steps back',
      tier: 'follow-up',
      trap: 'clock-backwards',
      hint: 'Follow-up: keep one high-water mark of the clock for the whole limiter, raised by every call (peek too). A reading below it acts as the mark: time that goes back takes no tokens away, and time that comes back again pays no tokens twice.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(2, 1)
        .allow('a', ok(1, 1000, 0))
        .set(1500)
        .allow('a', ok(1, 2500, 1500))
        .allow('a', ok(0, 3500, 1500))
        .set(900)
        .allow('a', no(0, 3500, 2500))
        .peek('b', ok(1, 2500, 1500))
        .set(1600)
        .allow('a', no(0, 3500, 2500))
        .set(2500)
        .allow('a', ok(0, 4500, 2500))
        .set(1000)
        .allow('a', no(0, 4500, 3500))
        .set(2000)
        .peek('a', no(0, 4500, 3500))
        .allow('b', ok(1, 3500, 2500))
        .set(3500)
        .allow('a', ok(0, 5500, 3500))
        .done(),
    },
    contract(
      'prototype-keys',
      0,
      script()
        .limiter(1, 1)
        .propertyKeys(ok(0, 1000, 0), no(0, 1000, 1000))
        .done(),
    ),
    {
      name: 'settings and costs out of range',
      tier: 'follow-up',
      trap: 'bad-input',
      hint: 'Follow-up: a capacity and a cost are positive whole numbers, and a rate is a positive finite number (a decimal is fine). Throw a RangeError for anything else (0, negative, fractional where it must be whole, NaN, Infinity), before anything changes.',
      fixtures: { clock: fakeClock(0) },
      // A constructor that throws leaves no instance: each bad one takes an index of its own.
      ...script()
        .badSettings([2, 1], [BAD_WHOLE, BAD_RATES])
        .limiter(2, 0.5)
        .badCosts('k')
        .allow('k', ok(1, 2000, 0))
        .allow('k', no(1, 2000, 2000), 2)
        .allow('k', ok(0, 4000, 0), 1)
        .done(),
    },
    {
      name: 'random calls with costs, keys, decimal rates and a clock that steps back',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with several keys, costs above 1 (some above the capacity), decimal rates and a clock that sometimes steps back disagrees with the reference.',
      fixtures: { clock: fakeClock(0) },
      property: { calls: randomCalls(true), numRuns: 40 },
    },
    {
      name: '10^4 long keys in a steady stream, one key still short',
      tier: 'follow-up',
      trap: 'idle-eviction',
      hint: {
        wrong:
          'Follow-up: a key whose bucket is not full yet must keep its bucket, however long it has been quiet and however many other keys came since: dropping it early hands it free tokens. Drop a bucket only once it is full.',
        memory:
          'Follow-up: a full bucket answers exactly like no bucket at all, so once a key’s bucket is full again it can be forgotten, and a limiter that meets a great many keys must forget them, soon after each one is full (not after the longest refill any key could need), and keep up while every call brings a new key: work that moves on by one bucket per call never gets round a map that gains one per call. No timers: do the work a little at a time, on the calls that come anyway.',
        slow: 'Follow-up: forgetting full buckets must cost little per call: a few steps on each call, not a pass over every key.',
      },
      describe: `TokenBucketLimiter(${EVICT_CAPACITY}, ${EVICT_RATE}, clock), the clock at ${EVICT_START}; allow("short", ${EVICT_CAPACITY}); ${FRESH} allows on new keys, the clock advancing ${STEP_MS} ms after each ${FRESH_PER_STEP}; 2 s later, allow on keys #0 … #${KEYS - 1} (${KEY_LENGTH} characters each), ${KEYS_PER_STEP} every ${STEP_MS} ms; peek("short", 2) after each ${SHORT_EVERY} calls on other keys; then at once, "short" again`,
      timeLimitMs: 4000,
      retainedLimitMb: MEMORY_LIMIT_MB,
      fixtures: { clock: fakeClock(EVICT_START) },
      generate(emit) {
        const model = new Exact(EVICT_CAPACITY, EVICT_RATE);
        let now = EVICT_START;
        emit({ method: CLASS, args: [EVICT_CAPACITY, EVICT_RATE, CLOCK], expected: null });
        const short = (method: 'allow' | 'peek', cost: number): void => {
          const answer = model.answer('short', cost, method === 'allow', now);
          emit({ method, args: ['short', cost], expected: answer });
        };
        const drainedAt = now;
        short('allow', EVICT_CAPACITY);
        // Every call on a key not seen before gets a new key's answer at `now`: one object,
        // changed in place when the clock moves.
        const fresh = ok(EVICT_CAPACITY - 1, now + 1000 / EVICT_RATE, now);
        const call = { method: 'allow', args: [''], expected: fresh as unknown };
        const advance = { method: 'clock.advance', args: [0], expected: null };
        const moved = (ms: number): void => {
          now += ms;
          advance.args[0] = ms;
          emit(advance);
          fresh.resetAt = now + 1000 / EVICT_RATE;
          fresh.retryAt = now;
        };
        let others = 0;
        const other = (key: string): void => {
          if (++others % SHORT_EVERY === 0) short('peek', 2);
          call.args[0] = key;
          emit(call);
        };
        for (let j = 0; j < FRESH; j++) {
          if (j > 0 && j % FRESH_PER_STEP === 0) moved(STEP_MS);
          other(tokenKey(j, NEW_FILLER));
        }
        moved(2000);
        for (let i = 0; i < KEYS; i++) {
          if (i > 0 && i % KEYS_PER_STEP === 0) moved(STEP_MS);
          other(tokenKey(i, OLD_FILLER));
        }
        // Still in the middle of the stream: the memory is judged with it going on.
        const level = Math.floor(((now - drainedAt) * EVICT_RATE) / 1000);
        short('peek', level + 1);
        short('allow', level);
        short('peek', 1);
      },
    },
  ],
});
