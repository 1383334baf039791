// Hidden suite for fixed-window-limiter. Examples must match the statement (a test checks it);
// hidden cases each aim at one trap and carry a hint that points at the idea without giving the
// code.
//
// Every case gets a fake clock (`fixture('clock')` in the constructor's arguments) and moves it
// with `clock.advance` / `clock.set`. Core cases keep to the contract's core: cost 1, one key (two
// for key-isolation), several instances only for instance-isolation and max-input, and a clock
// that only moves forward. Costs above 1, many keys, a clock that steps back, bad input and memory
// are follow-ups.
import fc from 'fast-check';
import { fakeClock } from '../../harness/fixtures.ts';
import { defineSuite, fixture, type Encoded, type Span } from '../../harness/suite.ts';
import { longKey, no, ok, limiterPicture, type Settings } from '../../harness/limiter-script.ts';
import {
  BAD_WHOLE,
  contractCases,
  LimiterScript,
  maxTraffic,
  randomCost,
  randomSteps,
} from '../../harness/limiter-contract.ts';
import { FixedWindowLimiter } from './solution.ts';

const CLASS = 'FixedWindowLimiter';
const CLOCK = fixture('clock');

/** The calls of a case, on fixed-window limiters. */
class Script extends LimiterScript {
  /** A new limiter on the case's clock; later calls go to it. */
  limiter(limit: number, windowMs: number, expected: unknown = null): this {
    return this.build([limit, windowMs], expected);
  }
}

const script = (): Script => new Script(CLASS);

/** The contract's cases asked alike in every limiter kata, in this kata's words. */
const contract = contractCases({ thing: 'limiter', keeps: 'counts', perKey: 'quota' });

/**
 * The largest core input: four limiters with different settings on one clock, one key each, 10^4
 * calls of allow and peek while the clock moves forward in steps of every size. The reference
 * answers.
 */
function maxInput(): Encoded {
  const knobs: [limit: number, windowMs: number][] = [
    [1, 1],
    [3, 1000],
    [10, 60_000],
    [100, 7],
  ];
  const reference = ([limit, windowMs]: [number, number], clock: { now(): number }) =>
    new FixedWindowLimiter(limit, windowMs, clock);
  return maxTraffic(script(), knobs, reference, 2024, 10_000);
}

/**
 * Random sequences on one limiter. Core: one key, cost 1, the clock only moving forward (a first
 * `clock.set` picks the start). Follow-up: several keys (one of them named like an inherited object
 * property), costs up to the limit + 2 and huge ones, and `clock.set` stepping back as well.
 */
function randomCalls(followUp: boolean): fc.Arbitrary<Encoded> {
  const keys = followUp ? ['a', 'b', '__proto__'] : ['k'];
  return fc
    .record({
      limit: fc.integer({ min: 1, max: 4 }),
      windowMs: fc.constantFrom(1, 2, 5, 10, 100, 1000),
      start: fc.integer({ min: 0, max: 5000 }),
    })
    .chain(({ limit, windowMs, start }) =>
      randomSteps({
        keys,
        cost: randomCost(followUp, limit + 2),
        advance: fc.integer({ min: 0, max: 2 * windowMs + 1 }),
        set: followUp ? fc.integer({ min: 0, max: start + 4 * windowMs }) : undefined,
        maxLength: 40,
      }).map((steps) => script().limiter(limit, windowMs).set(start).steps(steps).done()),
    );
}

// The memory case: KEYS keys allowed once each, PER_WINDOW per window; then FRESH calls on new
// keys, allow and peek in turn, FRESH_PER_WINDOW per window; then the clock moves on a window and
// one more peek finds the last of them over. Keys are long (KEY_LENGTH characters, about a bearer
// token's length), so that a limiter which keeps every key it has seen keeps ~1 KB for each judged
// call: 10^4 keys show it 10× over a limit of 1 MB, while the reference, which keeps only the
// current window's keys, ends with none. (The issue asked for 10^6 keys; the case had 2·10^5 short
// keys and cost the reference ~250 ms, more than the grade's budget of ~150 ms per problem. The
// limit stays well above the ~0.3 MB the memory gauge has been seen to misread.)
const KEYS = 10_000;
const PER_WINDOW = 1000;
const FRESH = 1000;
const FRESH_PER_WINDOW = 100;
const MEMORY_LIMIT = 5;
const MEMORY_WINDOW = 1000;
/** Mid-window, so that windows counted from a request, not from the clock's zero, show at once. */
const MEMORY_START = 250;
const KEY_LENGTH = 1000;
/** No digits in them, so that no two keys can be equal. */
const OLD_FILLER = 'GET /orders?tenant=acme&token=';
const NEW_FILLER = 'POST /carts?tenant=acme&token=';

/** Key number j, KEY_LENGTH characters (see longKey). */
const tokenKey = (j: number, filler: string): string => longKey(j, filler, KEY_LENGTH);

/**
 * The picture of a failing case: the grid's window at the wrong call and the one before it, each
 * with what the allowed requests took in it against the limit.
 */
const picture = limiterPicture({
  windows([limit, windowMs]: Settings, at, taken) {
    const W = windowMs as number;
    const start = Math.floor(at / W) * W;
    const window = (name: string, from: number): Span => ({
      name,
      from,
      to: from + W,
      bounds: '[)',
      note: `took ${taken(from, from + W)} of ${String(limit)}`,
    });
    return [window('previous', start - W), window('current', start)];
  },
});

export default defineSuite({
  reference: FixedWindowLimiter,
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
        .limiter(2, 1000)
        .allow('alice', ok(1, 1000, 0))
        .advance(300)
        .allow('alice', ok(0, 1000, 300))
        .allow('alice', no(0, 1000, 1000))
        .advance(700)
        .allow('alice', ok(1, 2000, 1000))
        .done(),
    },
    {
      name: 'peek, and two keys',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(5000) },
      ...script()
        .limiter(1, 10_000)
        .peek('a', ok(0, 10_000, 5000))
        .allow('a', ok(0, 10_000, 5000))
        .peek('a', no(0, 10_000, 10_000))
        .allow('b', ok(0, 10_000, 5000))
        .set(10_000)
        .allow('a', ok(0, 20_000, 10_000))
        .done(),
    },
    {
      name: 'the last millisecond of a window, and the first of the next',
      tier: 'core',
      trap: 'window-edge',
      hint: 'Windows are cut on the clock’s own time line, at whole multiples of the window length, not from a key’s first request. A window includes its start and excludes its end: the end is the first moment of the next window.',
      fixtures: { clock: fakeClock(1700) },
      ...script()
        .limiter(2, 1000)
        .allow('k', ok(1, 2000, 1700))
        .allow('k', ok(0, 2000, 1700))
        .set(1999)
        .allow('k', no(0, 2000, 2000))
        .set(2000)
        .allow('k', ok(1, 3000, 2000))
        .advance(999)
        .allow('k', ok(0, 3000, 2999))
        .allow('k', no(0, 3000, 3000))
        .advance(1)
        .allow('k', ok(1, 4000, 3000))
        .done(),
    },
    {
      name: 'the limit itself is allowed',
      tier: 'core',
      trap: 'exactly-at-limit',
      hint: 'A limit of n lets exactly n requests through in a window: the last one that brings the count to n is still allowed. Check the comparison, and what remaining says on the way down.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(3, 60_000)
        .allow('k', ok(2, 60_000, 0))
        .advance(10)
        .allow('k', ok(1, 60_000, 10))
        .advance(10)
        .allow('k', ok(0, 60_000, 20))
        .allow('k', no(0, 60_000, 60_000))
        .peek('k', no(0, 60_000, 60_000))
        .done(),
    },
    {
      name: 'a full burst on each side of a window edge',
      tier: 'core',
      trap: 'boundary-burst',
      hint: 'This is the fixed window’s known weakness, and the kata asks for it: a key may use its whole limit at the end of one window and again at the start of the next, twice the limit in a short time. Count per fixed window, not over the last W milliseconds.',
      fixtures: { clock: fakeClock(900) },
      ...script()
        .limiter(3, 1000)
        .allow('k', ok(2, 1000, 900))
        .advance(50)
        .allow('k', ok(1, 1000, 950))
        .advance(49)
        .allow('k', ok(0, 1000, 999))
        .advance(1)
        .allow('k', ok(2, 2000, 1000))
        .allow('k', ok(1, 2000, 1000))
        .advance(1)
        .allow('k', ok(0, 2000, 1001))
        .allow('k', no(0, 2000, 2000))
        .done(),
    },
    {
      name: 'denied requests in a row',
      tier: 'core',
      trap: 'denied-changes-nothing',
      hint: 'A denied request must leave the key exactly as it found it: it uses nothing, so remaining cannot drop below what is really left, and nothing it does may push the key’s next chance further away.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(1, 1000)
        .allow('k', ok(0, 1000, 0))
        .advance(100)
        .allow('k', no(0, 1000, 1000))
        .allow('k', no(0, 1000, 1000))
        .advance(100)
        .allow('k', no(0, 1000, 1000))
        .peek('k', no(0, 1000, 1000))
        .advance(800)
        .allow('k', ok(0, 2000, 1000))
        .done(),
    },
    contract(
      'key-isolation',
      0,
      script()
        .limiter(2, 1000)
        .keysTakeTurns({
          alice: [ok(1, 1000, 0), ok(0, 1000, 0), no(0, 1000, 1000)],
          after: 200,
          bob: [ok(1, 1000, 200), ok(0, 1000, 200), no(0, 1000, 1000)],
        })
        .done(),
    ),
    contract(
      'instance-isolation',
      0,
      script()
        .limiter(1, 1000)
        .limiter(2, 500)
        .twoOnOneClock({
          first: [ok(0, 1000, 0), no(0, 1000, 1000)],
          second: [ok(1, 500, 0), ok(0, 500, 0), ok(1, 1000, 500)],
        })
        .done(),
    ),
    contract(
      'injected-clock',
      7,
      script()
        .limiter(2, 60_000)
        .allow('k', ok(1, 60_000, 7))
        .advance(59_992)
        .allow('k', ok(0, 60_000, 59_999))
        .allow('k', no(0, 60_000, 60_000))
        .advance(1)
        .allow('k', ok(1, 120_000, 60_000))
        .done(),
    ),
    contract(
      'peek-is-pure',
      0,
      script()
        .limiter(2, 1000)
        .peeksLikeAllow(ok(1, 1000, 0), ok(0, 1000, 10), no(0, 1000, 1000))
        .done(),
    ),
    {
      name: 'resetAt and retryAt, windows of 750 ms',
      tier: 'core',
      trap: 'reset-and-retry',
      hint: 'resetAt is the first millisecond at which the key is as good as new: the end of the window in which it used something. retryAt is now when allowed, and otherwise the first millisecond at which the same request would pass.',
      fixtures: { clock: fakeClock(1234) },
      ...script()
        .limiter(2, 750)
        .allow('k', ok(1, 1500, 1234))
        .advance(100)
        .allow('k', ok(0, 1500, 1334))
        .advance(65)
        .allow('k', no(0, 1500, 1500))
        .peek('k', no(0, 1500, 1500))
        .set(1500)
        .peek('k', ok(1, 2250, 1500))
        .advance(749)
        .allow('k', ok(1, 2250, 2249))
        .allow('k', ok(0, 2250, 2249))
        .allow('k', no(0, 2250, 2250))
        .done(),
    },
    {
      name: '10^4 calls on four limiters',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest core input: four limiters with different limits and windows (1 ms to a minute), allow and peek, the clock moving in small and large steps. Check the edge cases again.',
      fixtures: { clock: fakeClock(0) },
      ...maxInput(),
    },
    // 40 runs (the default is 100) keep it cheap: with the judge's fixed seed, every known-wrong
    // file it fails at all fails by run 33 but module-map.ts, which another case catches.
    contract('random-core', 0, { property: { calls: randomCalls(false), numRuns: 40 } }),
    {
      name: 'requests of different costs',
      tier: 'follow-up',
      trap: 'weighted-cost',
      hint: 'Follow-up: a request of cost c needs c units of the window’s limit and, when allowed, uses c units.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(5, 1000)
        .allow('k', ok(3, 1000, 0), 2)
        .allow('k', ok(0, 1000, 0), 3)
        .advance(1000)
        .allow('k', ok(1, 2000, 1000), 4)
        .peek('k', ok(0, 2000, 1000), 1)
        .allow('k', ok(0, 2000, 1000), 1)
        .peek('k', no(0, 2000, 2000), 5)
        .done(),
    },
    {
      name: 'remaining after a heavy request is denied',
      tier: 'follow-up',
      trap: 'literal-remaining',
      hint: 'Follow-up: remaining counts the cost-1 requests that would still pass right now, on a denial too. A request too heavy for what is left does not make what is left disappear.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(5, 1000)
        .allow('k', ok(2, 1000, 0), 3)
        .allow('k', no(2, 1000, 1000), 3)
        .peek('k', no(2, 1000, 1000), 4)
        .allow('k', ok(1, 1000, 0), 1)
        .allow('k', no(1, 1000, 1000), 2)
        .done(),
    },
    {
      name: 'a denied heavy request takes nothing',
      tier: 'follow-up',
      trap: 'denied-changes-nothing',
      hint: 'Follow-up: a denied request uses nothing, whatever its cost. Check the request against the limit before you count anything.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(4, 1000)
        .allow('k', ok(1, 1000, 0), 3)
        .allow('k', no(1, 1000, 1000), 2)
        .allow('k', no(1, 1000, 1000), 3)
        .allow('k', ok(0, 1000, 0), 1)
        .done(),
    },
    {
      name: 'a request bigger than the limit',
      tier: 'follow-up',
      trap: 'cost-over-limit',
      hint: 'Follow-up: a request that costs more than the limit fits in no window, now or later. It is denied, it uses nothing, and retryAt says never.',
      fixtures: { clock: fakeClock(500) },
      ...script()
        .limiter(3, 1000)
        .neverFits(4, no(3, 500, Infinity))
        .allow('k', ok(0, 1000, 500), 3)
        .allow('k', no(0, 1000, Infinity), 4)
        .advance(600)
        .allow('k', no(3, 1100, Infinity), 1000)
        .done(),
    },
    contract(
      'prototype-keys',
      0,
      script()
        .limiter(1, 1000)
        .propertyKeys(ok(0, 1000, 0), no(0, 1000, 1000))
        .done(),
    ),
    {
      name: 'the clock steps back',
      tier: 'follow-up',
      trap: 'clock-backwards',
      hint: 'Follow-up: keep one high-water mark of the clock for the whole limiter, raised by every call (peek too). A reading below it acts as the mark, so an old window never opens again, for any key.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(2, 1000)
        .allow('a', ok(1, 1000, 0))
        .set(1500)
        .allow('a', ok(1, 2000, 1500))
        .allow('a', ok(0, 2000, 1500))
        .set(900)
        .allow('a', no(0, 2000, 2000))
        .peek('b', ok(1, 2000, 1500))
        .set(1600)
        .allow('a', no(0, 2000, 2000))
        .set(2100)
        .allow('a', ok(1, 3000, 2100))
        .set(1999)
        .allow('b', ok(1, 3000, 2100))
        .allow('b', ok(0, 3000, 2100))
        .allow('b', no(0, 3000, 3000))
        .set(2100)
        .allow('b', no(0, 3000, 3000))
        .set(3500)
        .peek('c', ok(1, 4000, 3500))
        .set(2500)
        .allow('c', ok(1, 4000, 3500))
        .done(),
    },
    {
      name: 'settings and costs out of range',
      tier: 'follow-up',
      trap: 'bad-input',
      hint: 'Follow-up: a limit, a window length and a cost are positive whole numbers. Throw a RangeError for anything else (0, negative, fractional, NaN, Infinity), before anything changes.',
      fixtures: { clock: fakeClock(0) },
      // A constructor that throws leaves no instance: each bad one takes an index of its own.
      ...script()
        .badSettings([2, 1000], [BAD_WHOLE, [0, -1000, 0.5, NaN, Infinity]])
        .limiter(2, 1000)
        .badCosts('k')
        .allow('k', ok(1, 1000, 0))
        .allow('k', no(1, 1000, 1000), 2)
        .allow('k', ok(0, 1000, 0), 1)
        .done(),
    },
    {
      name: 'random calls with costs, keys and a clock that steps back',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with several keys, costs above 1 (some above the limit) and a clock that sometimes steps back disagrees with the reference.',
      fixtures: { clock: fakeClock(0) },
      // 40 runs: with the judge's fixed seed, every known-wrong file it fails at all fails by run 10
      // but module-map.ts, which another case catches.
      property: { calls: randomCalls(true), numRuns: 40 },
    },
    {
      name: '10^4 long keys in finished windows, then fresh traffic',
      tier: 'follow-up',
      trap: 'bounded-memory',
      hint: {
        memory:
          'Follow-up: once a window is over, every count in it is over too: a key with nothing in the current window answers like a key never seen. Keep only what the current window needs, and let the rest go cheaply.',
        slow: 'Follow-up: once a window is over, every count in it is over too: a key with nothing in the current window answers like a key never seen. Keep only what the current window needs, and let the rest go cheaply.',
      },
      describe: `FixedWindowLimiter(${MEMORY_LIMIT}, ${MEMORY_WINDOW}, clock), the clock at ${MEMORY_START}; allow on keys #0 … #${KEYS - 1} (${KEY_LENGTH} characters each), ${PER_WINDOW} in each window (the clock advancing ${MEMORY_WINDOW} ms after each ${PER_WINDOW}); then ${FRESH} calls on new keys, allow and peek in turn, ${FRESH_PER_WINDOW} in each later window; then a window later, one peek on a new key`,
      timeLimitMs: 4000,
      retainedLimitMb: 1,
      fixtures: { clock: fakeClock(MEMORY_START) },
      generate(emit) {
        emit({ method: CLASS, args: [MEMORY_LIMIT, MEMORY_WINDOW, CLOCK], expected: null });
        const advance = { method: 'clock.advance', args: [MEMORY_WINDOW], expected: null };
        // Every call is on a key new to its window: allowed, and counted until the window ends.
        let now = MEMORY_START;
        const answer = ok(MEMORY_LIMIT - 1, MEMORY_WINDOW, now);
        const call = { method: 'allow', args: [''], expected: answer as unknown };
        const nextWindow = (): void => {
          emit(advance);
          now += MEMORY_WINDOW;
          answer.resetAt += MEMORY_WINDOW;
          answer.retryAt = now;
        };
        for (let i = 0; i < KEYS; i++) {
          if (i > 0 && i % PER_WINDOW === 0) nextWindow();
          call.args[0] = tokenKey(i, OLD_FILLER);
          emit(call);
        }
        for (let j = 0; j < FRESH; j++) {
          if (j % FRESH_PER_WINDOW === 0) nextWindow();
          call.method = j % 2 === 0 ? 'allow' : 'peek';
          call.args[0] = tokenKey(j, NEW_FILLER);
          emit(call);
        }
        // Traffic stops; a window later, one peek: nothing of the keys before needs to stay.
        nextWindow();
        call.method = 'peek';
        call.args[0] = tokenKey(FRESH, NEW_FILLER);
        emit(call);
      },
    },
  ],
});
