// Hidden suite for gcra-limiter. Examples must match the statement (a test checks it); hidden cases
// each aim at one trap and carry a hint that points at the idea without giving the code.
//
// Every case gets a fake clock (`fixture('clock')` in the constructor's arguments) and moves it
// with `clock.advance` / `clock.set`. The written-out answers are worked out by hand from the
// algorithm (test/design/gcra-limiter.test.ts holds every one of them to a brute-force model of
// the contract's definitions); the long generated cases take theirs from a closed form or from the
// reference. Core cases keep to cost 1, a whole-millisecond emission interval (periodMs a multiple
// of limit), one key per limiter (two for key-isolation), several limiters only for
// instance-isolation and max-input, and a clock that only moves forward. Costs above 1, fractional
// intervals, long idleness, many keys, a clock that steps back, bad input and memory are
// follow-ups.
import fc from 'fast-check';
import { fakeClock } from '../../harness/fixtures.ts';
import { defineSuite, fixture, type Call, type Encoded } from '../../harness/suite.ts';
import { no, limiterPicture, ok, type Settings } from '../../harness/limiter-script.ts';
import {
  BAD_WHOLE,
  contractCases,
  LimiterScript,
  maxTraffic,
  randomCost,
  randomSteps,
} from '../../harness/limiter-contract.ts';
import { GcraLimiter } from './solution.ts';

const CLASS = 'GcraLimiter';
const CLOCK = fixture('clock');
const DAY = 86_400_000;

/** The calls of a case, on GCRA limiters. */
class Script extends LimiterScript {
  /** A new limiter on the case's clock; later calls go to it. */
  limiter(limit: number, periodMs: number, burst: number, expected: unknown = null): this {
    return this.build([limit, periodMs, burst], expected);
  }
}

const script = (): Script => new Script(CLASS);

/** The contract's cases asked alike in every limiter kata, in this kata's words. */
const contract = contractCases({ thing: 'limiter', keeps: 'arrival times', perKey: 'schedule' });

/**
 * The largest core input: four limiters with different settings on one clock, one key each, 10^4
 * calls of allow and peek while the clock moves forward in steps of every size. The reference
 * answers, once, when the suite is loaded (not while the case is timed).
 */
function maxInput(): Encoded {
  const knobs: [limit: number, periodMs: number, burst: number][] = [
    [1, 1, 1],
    [3, 3000, 2],
    [10, 60_000, 10],
    [100, 700, 100],
  ];
  const reference = (
    [limit, periodMs, burst]: [number, number, number],
    clock: { now(): number },
  ) => new GcraLimiter(limit, periodMs, burst, clock);
  return maxTraffic(script(), knobs, reference, 2024, 10_000);
}

/**
 * Random sequences on one limiter. Core: one key, cost 1, a whole-millisecond interval, the clock
 * only moving forward (a first `clock.set` picks the start). Follow-up: fractional intervals,
 * several keys (one of them named like an inherited object property), costs up to the burst + 2
 * and huge ones, and `clock.set` stepping back as well.
 */
function randomCalls(followUp: boolean): fc.Arbitrary<Encoded> {
  const keys = followUp ? ['a', 'b', '__proto__'] : ['k'];
  return fc
    .record({
      limit: fc.integer({ min: 1, max: followUp ? 7 : 4 }),
      interval: fc.constantFrom(1, 2, 5, 10, 100, 1000),
      periodMs: fc.constantFrom(1, 2, 10, 100, 1000),
      burst: fc.integer({ min: 1, max: 4 }),
      start: fc.integer({ min: 0, max: 5000 }),
    })
    .chain(({ limit, interval, periodMs: anyPeriod, burst, start }) => {
      // Core: T = periodMs / limit is a whole number of milliseconds.
      const periodMs = followUp ? anyPeriod : interval * limit;
      const span = Math.ceil((burst * periodMs) / limit) + 1;
      return randomSteps({
        keys,
        cost: randomCost(followUp, burst + 2),
        advance: fc.integer({ min: 0, max: span }),
        set: followUp ? fc.integer({ min: start, max: start + 4 * span }) : undefined,
        maxLength: 40,
      }).map((steps) => script().limiter(limit, periodMs, burst).set(start).steps(steps).done());
    });
}

// The exact-arithmetic case: 3 requests per second (T = 333⅓ ms), a burst of 2, one key kept on
// schedule for DRIFT_REQUESTS requests from DRIFT_START on, each sent at the first whole millisecond
// it is due. Every third one is due at an exact whole millisecond: the knife edge that floating-point
// drift gets wrong, so there a probe one millisecond earlier comes first and must be refused. At
// this clock, milliseconds in a double carry about 2·10^-9 ms of rounding per addition: a TAT kept
// that way drifts past a tolerance of 10^-9 of the burst after about 1100 requests, and without a
// tolerance it is wrong at once. (The issue asked for 10^5 requests; 1500 show the drift at a small
// part of the cost, and test/design/gcra-limiter.test.ts plays 10^5 against the reference.)
const DRIFT_LIMIT = 3;
const DRIFT_PERIOD = 1000;
const DRIFT_BURST = 2;
const DRIFT_START = 10_000_000;
const DRIFT_REQUESTS = 1500;

/** The first whole millisecond at or after `ticks` (times in ticks of 1 / limit ms). */
const ceilMs = (ticks: number, limit: number): number => Math.ceil(ticks / limit);

function driftCalls(emit: (call: Call) => void): void {
  const [limit, period, burst] = [DRIFT_LIMIT, DRIFT_PERIOD, DRIFT_BURST];
  emit({ method: CLASS, args: [limit, period, burst, CLOCK], expected: null });
  const set = { method: 'clock.set', args: [0], expected: null };
  const call = { method: 'allow', args: ['k'], expected: null as unknown };
  // Times in ticks of 1 / limit ms, where T is a whole number: the closed form, exact.
  const start = DRIFT_START * limit;
  // The whole burst at the start: the schedule (TAT) ends up burst · T ahead.
  for (let k = 1; k <= burst; k++) {
    call.expected = ok(burst - k, ceilMs(start + k * period, limit), DRIFT_START);
    emit(call);
  }
  for (let k = burst; k < DRIFT_REQUESTS; k++) {
    // Before request k (counting from 0) the TAT is start + k · T, so the request is due once
    // the clock reaches start + (k + 1) · T − burst · T.
    const tat = start + k * period;
    const dueTicks = tat + period - burst * period;
    const due = ceilMs(dueTicks, limit);
    if (dueTicks % limit === 0) {
      set.args[0] = due - 1;
      emit(set);
      call.expected = no(0, ceilMs(tat, limit), due);
      emit(call);
    }
    set.args[0] = due;
    emit(set);
    call.expected = ok(0, ceilMs(tat + period, limit), due);
    emit(call);
  }
}

// The idle-eviction case. One limiter, 10 requests a second (T = 100 ms) and a burst of 4, so a
// key's state can matter for at most 400 ms after its last request. (Not a limit of 1: then a
// time in ticks reads the same as one in milliseconds, and a limiter that kept each state for
// burst · periodMs · limit ms instead of burst · periodMs / limit would go unseen.) First IDLE_KEYS keys make one request each,
// IDLE_PER_STEP between clock steps of STEP ms (one interval); then the clock moves on by far more
// than any state can last. The key "hot" spends its burst, and FRESH_STEPS steps follow, each with
// FRESH_PER_STEP calls on new keys (allow and peek in turn) and then the one request "hot" is due:
// so "hot" always holds 0 or 1 of its 4 tokens, never as good as new, yet able to send a request
// while the other calls come. After one more step it is asked once more. Last, on a second limiter
// whose keys' state lasts less than a millisecond (T = 1/7 ms and a burst of 3: 3/7 ms), key "a"
// spends its burst at one instant, a peek at another key coming between: a state dropped after a
// lifetime rounded down to 0 ms is gone by the third call, and "a" gets a request too many.
// The keys that go quiet are 1000 characters long, the size of a bearer token (a JWT) a service
// might key on, and each is a string of its own, not pieces of a shared one: a limiter that keeps
// every key keeps about 1 KB for each, 11 MB in all, against a limit of 1 MB. The later keys are
// short, so that what the keys active at the end need stays small beside the limit. (The issue
// asked for 10^6 keys and 10^5 later calls: at a microsecond or more per judged call that is more
// than the grade's whole budget; test/design/gcra-limiter.test.ts plays those sizes against the
// reference directly. A limit under ~1 MB is not safe: the memory gauge reads up to ~0.3 MB of
// noise now and then.)
const IDLE_LIMIT = 10;
const IDLE_PERIOD = 1000;
/** T in ms, a whole number here. */
const IDLE_T = IDLE_PERIOD / IDLE_LIMIT;
const IDLE_BURST = 4;
const STEP = 100;
const IDLE_KEYS = 10_000;
const IDLE_PER_STEP = 200;
const FRESH_STEPS = 200;
const FRESH_PER_STEP = 10;
/** Past 2^31 ms, so a time does not fit a small integer: as with real clocks. */
const IDLE_START = 3_000_000_000;
const HALVES = Array.from({ length: 1000 }, (_, k) => String(k).padStart(3, '0'));
const TOKEN_LENGTH = 1000;
/** What every token starts with, then six digits that make it unique. */
const TOKEN_HEAD = 'eyJhbGciOiJSUzI1NiJ9.'.padEnd(TOKEN_LENGTH - 6, 'x');
const tokenParts = [TOKEN_HEAD, '', ''];
/** Key number `j`, as a flat string (join copies; `+` would share the head between keys). */
function token(j: number): string {
  tokenParts[1] = HALVES[(j / 1000) | 0] as string;
  tokenParts[2] = HALVES[j % 1000] as string;
  return tokenParts.join('');
}

function idleCalls(emit: (call: Call) => void): void {
  emit({ method: CLASS, args: [IDLE_LIMIT, IDLE_PERIOD, IDLE_BURST, CLOCK], expected: null });
  const advance = { method: 'clock.advance', args: [STEP], expected: null };
  let now = IDLE_START;
  // A key never seen at `now`: allowed, with the rest of its burst, on schedule again T later.
  const fresh = ok(IDLE_BURST - 1, now + IDLE_T, now);
  const call = { method: 'allow', args: [''], expected: fresh as unknown };
  const step = (): void => {
    emit(advance);
    now += STEP;
    fresh.resetAt = now + IDLE_T;
    fresh.retryAt = now;
  };
  for (let i = 0; i < IDLE_KEYS; i++) {
    if (i > 0 && i % IDLE_PER_STEP === 0) step();
    call.args[0] = token(i);
    emit(call);
  }
  // An hour later, every one of those keys is as good as new.
  const hour = 3_600_000;
  emit({ method: 'clock.advance', args: [hour], expected: null });
  now += hour;
  const hot = { method: 'allow', args: ['hot'], expected: null as unknown };
  for (let k = 1; k <= IDLE_BURST; k++) {
    hot.expected = ok(IDLE_BURST - k, now + k * IDLE_T, now);
    emit(hot);
  }
  // The schedule of "hot": IDLE_BURST intervals ahead right after each of its requests.
  let hotTat = now + IDLE_BURST * IDLE_T;
  for (let s = 0, j = 0; s < FRESH_STEPS; s++) {
    step();
    for (let c = 0; c < FRESH_PER_STEP; c++, j++) {
      call.method = c % 2 === 0 ? 'allow' : 'peek';
      call.args[0] = `fresh-${j}`;
      emit(call);
    }
    // One interval since its last request: one token is back, exactly enough.
    hotTat += IDLE_T;
    hot.expected = ok(0, hotTat, now);
    emit(hot);
  }
  // One token back again, one short of a request of cost 2.
  step();
  const last = { method: 'peek', args: ['hot', 2], expected: null as unknown };
  last.expected = no(1, hotTat, hotTat + 2 * IDLE_T - IDLE_BURST * IDLE_T);
  emit(last);
  // The second limiter: each request moves the key's TAT 1 tick (1/7 ms) of the 3 it may run ahead.
  emit({ method: CLASS, args: [7, 1, 3, CLOCK], expected: null, target: 1 });
  const second = (method: string, key: string, expected: unknown): void =>
    emit({ method, args: [key], expected, target: 1 });
  second('allow', 'a', ok(2, now + 1, now));
  second('peek', 'b', ok(2, now + 1, now));
  second('allow', 'a', ok(1, now + 1, now));
  second('allow', 'a', ok(0, now + 1, now));
  second('allow', 'a', no(0, now + 1, now + 1));
}

/**
 * The picture of a failing case: how far the key's theoretical arrival time (TAT) runs ahead of
 * now, as the reference's answers move it (TAT' = max(TAT, t) + cost · T on each allowed request,
 * T = periodMs / limit), against burst · T, the most it may run ahead.
 */
const picture = limiterPicture({
  level: {
    name: 'TAT−now',
    capacity: ([limit, periodMs, burst]: Settings) =>
      ((burst as number) * (periodMs as number)) / (limit as number),
    start([limit, periodMs]: Settings) {
      const T = (periodMs as number) / (limit as number);
      let tat = -Infinity;
      return {
        took(t, cost) {
          tat = Math.max(tat, t) + cost * T;
        },
        at: (t) => Math.max(0, tat - t),
      };
    },
  },
});

export default defineSuite({
  reference: GcraLimiter,
  picture,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  // The limiter must read the clock it is handed, never the real time.
  realTimeTrap: 'injected-clock',
  cases: [
    {
      name: 'statement example: a burst of five, then one per second',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(1, 1000, 5)
        .allow('user', ok(4, 1000, 0))
        .allow('user', ok(3, 2000, 0))
        .allow('user', ok(2, 3000, 0))
        .allow('user', ok(1, 4000, 0))
        .allow('user', ok(0, 5000, 0))
        .allow('user', no(0, 5000, 1000))
        .advance(3000)
        .allow('user', ok(2, 6000, 3000))
        .advance(100)
        .allow('user', ok(1, 7000, 3100))
        .done(),
    },
    {
      name: 'statement example: a burst of one, two keys',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(2, 1000, 1)
        .allow('a', ok(0, 500, 0))
        .allow('a', no(0, 500, 500))
        .peek('b', ok(0, 500, 0))
        .advance(499)
        .allow('a', no(0, 500, 500))
        .advance(1)
        .allow('a', ok(0, 1000, 500))
        .done(),
    },
    {
      name: 'the golden vectors again, with peeks, at another time',
      tier: 'core',
      trap: 'golden-vectors',
      hint: 'remaining counts whole requests: the tokens left, rounded down, never up or to the nearest. resetAt is when the schedule catches up with now (the key is on time again), retryAt when this request would fit.',
      fixtures: { clock: fakeClock(7_000_123) },
      ...(() => {
        const t = 7_000_123;
        return script()
          .limiter(1, 1000, 5)
          .peek('client', ok(4, t + 1000, t))
          .allow('client', ok(4, t + 1000, t))
          .allow('client', ok(3, t + 2000, t))
          .allow('client', ok(2, t + 3000, t))
          .allow('client', ok(1, t + 4000, t))
          .allow('client', ok(0, t + 5000, t))
          .peek('client', no(0, t + 5000, t + 1000))
          .allow('client', no(0, t + 5000, t + 1000))
          .set(t + 999)
          .allow('client', no(0, t + 5000, t + 1000))
          .set(t + 1000)
          .peek('client', ok(0, t + 6000, t + 1000))
          .set(t + 3000)
          .allow('client', ok(2, t + 6000, t + 3000))
          .advance(100)
          .allow('client', ok(1, t + 7000, t + 3100))
          .advance(900)
          .allow('client', ok(1, t + 8000, t + 4000))
          .done();
      })(),
    },
    {
      name: 'exactly the burst at one instant',
      tier: 'core',
      trap: 'burst-off-by-one',
      hint: 'burst is how many requests a key that has been quiet may send at one instant: not one more, not one fewer. The first of them needs no tolerance at all, so the tolerance is one interval short of burst intervals.',
      fixtures: { clock: fakeClock(40_000) },
      ...script()
        .limiter(10, 1000, 3)
        .allow('k', ok(2, 40_100, 40_000))
        .allow('k', ok(1, 40_200, 40_000))
        .allow('k', ok(0, 40_300, 40_000))
        .allow('k', no(0, 40_300, 40_100))
        .advance(100)
        .allow('k', ok(0, 40_400, 40_100))
        .allow('k', no(0, 40_400, 40_200))
        .advance(250)
        .allow('k', ok(1, 40_500, 40_350))
        .allow('k', ok(0, 40_600, 40_350))
        .allow('k', no(0, 40_600, 40_400))
        .done(),
    },
    {
      name: 'a request a little early',
      tier: 'core',
      trap: 'half-interval-early',
      hint: 'A request is allowed only once a whole token has come back: not when most of one has. Compare exactly, and round what is left down, not to the nearest.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(1, 1000, 2)
        .allow('k', ok(1, 1000, 0))
        .allow('k', ok(0, 2000, 0))
        .set(501)
        .allow('k', no(0, 2000, 1000))
        .set(999)
        .allow('k', no(0, 2000, 1000))
        .set(1000)
        .allow('k', ok(0, 3000, 1000))
        .set(1600)
        .allow('k', no(0, 3000, 2000))
        .set(2499)
        .peek('k', ok(0, 4000, 2499))
        .set(2700)
        .allow('k', ok(0, 4000, 2700))
        .done(),
    },
    {
      name: 'a burst after a long pause',
      tier: 'core',
      trap: 'tat-in-the-past',
      hint: 'A key that was quiet for a long time is on schedule again, not ahead of it: time spent idle earns it no more than the burst. When the stored arrival time is in the past, start from now.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(1, 1000, 3)
        .allow('k', ok(2, 1000, 0))
        .set(60_000)
        .allow('k', ok(2, 61_000, 60_000))
        .allow('k', ok(1, 62_000, 60_000))
        .allow('k', ok(0, 63_000, 60_000))
        .allow('k', no(0, 63_000, 61_000))
        .set(64_500)
        .peek('k', ok(2, 65_500, 64_500))
        .done(),
    },
    {
      name: 'denied requests in a row',
      tier: 'core',
      trap: 'denied-changes-nothing',
      hint: 'A denied request must leave the key exactly as it found it: nothing it does may push the key’s next chance further away. Decide first; store the new arrival time only when the request is allowed.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(2, 1000, 1)
        .allow('k', ok(0, 500, 0))
        .advance(100)
        .allow('k', no(0, 500, 500))
        .allow('k', no(0, 500, 500))
        .advance(200)
        .allow('k', no(0, 500, 500))
        .peek('k', no(0, 500, 500))
        .advance(200)
        .allow('k', ok(0, 1000, 500))
        .done(),
    },
    contract(
      'key-isolation',
      0,
      script()
        .limiter(1, 1000, 2)
        .keysTakeTurns({
          alice: [ok(1, 1000, 0), ok(0, 2000, 0), no(0, 2000, 1000)],
          after: 200,
          bob: [ok(1, 1200, 200), ok(0, 2200, 200), no(0, 2200, 1200)],
        })
        .done(),
    ),
    contract(
      'instance-isolation',
      0,
      script()
        .limiter(1, 1000, 1)
        .limiter(2, 1000, 2)
        .twoOnOneClock({
          first: [ok(0, 1000, 0), no(0, 1000, 1000)],
          second: [ok(1, 500, 0), ok(0, 1000, 0), ok(0, 1500, 500)],
        })
        .done(),
    ),
    contract(
      'injected-clock',
      7,
      script()
        .limiter(1, 60_000, 2)
        .allow('k', ok(1, 60_007, 7))
        .advance(59_993)
        .allow('k', ok(0, 120_007, 60_000))
        .allow('k', no(0, 120_007, 60_007))
        .advance(7)
        .allow('k', ok(0, 180_007, 60_007))
        .done(),
    ),
    contract(
      'peek-is-pure',
      0,
      script()
        .limiter(2, 1000, 2)
        .peeksLikeAllow(ok(1, 500, 0), ok(0, 1000, 10), no(0, 1000, 500))
        .done(),
    ),
    {
      name: 'resetAt and retryAt, four per second',
      tier: 'core',
      trap: 'reset-and-retry',
      hint: 'retryAt is when this request would fit: one token back, not the whole burst. resetAt is when the key is on schedule again and answers like a new one: all of its burst back.',
      fixtures: { clock: fakeClock(1234) },
      ...script()
        .limiter(4, 1000, 3)
        .allow('k', ok(2, 1484, 1234))
        .advance(100)
        .allow('k', ok(1, 1734, 1334))
        .allow('k', ok(0, 1984, 1334))
        .allow('k', no(0, 1984, 1484))
        .peek('k', no(0, 1984, 1484))
        .set(1483)
        .allow('k', no(0, 1984, 1484))
        .set(1484)
        .allow('k', ok(0, 2234, 1484))
        .set(2233)
        .peek('k', ok(1, 2484, 2233))
        .set(2234)
        .peek('k', ok(2, 2484, 2234))
        .done(),
    },
    {
      name: '10^4 calls on four limiters',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest core input: four limiters with intervals from 1 ms to 6 s and bursts from 1 to 100, allow and peek, the clock moving in small and large steps. Check the edge cases again.',
      fixtures: { clock: fakeClock(0) },
      ...maxInput(),
    },
    contract('random-core', 0, { property: { calls: randomCalls(false), numRuns: 60 } }),
    {
      name: 'requests of different costs',
      tier: 'follow-up',
      trap: 'weighted-cost',
      hint: 'Follow-up: a request of cost c moves the key’s schedule by c intervals, and needs c tokens. remaining stays literal when a heavy request is refused.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(1, 1000, 5)
        .allow('k', ok(3, 2000, 0), 2)
        .allow('k', ok(0, 5000, 0), 3)
        .advance(2000)
        .allow('k', ok(0, 7000, 2000), 2)
        .peek('k', no(0, 7000, 3000), 1)
        .advance(1500)
        .allow('k', no(1, 7000, 5000), 3)
        .allow('k', ok(0, 8000, 3500), 1)
        .done(),
    },
    {
      name: 'a request bigger than the burst',
      tier: 'follow-up',
      trap: 'cost-over-burst',
      hint: 'Follow-up: a request that costs more than the burst would need more tokens than a full bucket holds: it is never allowed, however long the key waits. It is denied, changes nothing, and retryAt says never.',
      fixtures: { clock: fakeClock(5000) },
      ...script()
        .limiter(1, 1000, 5)
        .neverFits(6, no(5, 5000, Infinity))
        .allow('k', ok(0, 10_000, 5000), 5)
        .allow('k', no(0, 10_000, Infinity), 6)
        .advance(6000)
        .allow('k', no(5, 11_000, Infinity), 1000)
        .allow('k', ok(4, 12_000, 11_000))
        .done(),
    },
    {
      name: `${DRIFT_REQUESTS} requests on schedule, three per second`,
      tier: 'follow-up',
      trap: 'exact-arithmetic',
      hint: 'Follow-up: 1000 ms / 3 is no floating-point number. Added to itself again and again it drifts, and a request due at an exact millisecond is refused. Count time in units in which the interval is a whole number (1 ms = limit units, say), and every sum and comparison is exact.',
      describe: `GcraLimiter(${DRIFT_LIMIT}, ${DRIFT_PERIOD}, ${DRIFT_BURST}, clock), the clock at ${DRIFT_START}: the burst, then ${DRIFT_REQUESTS - DRIFT_BURST} more requests on key "k", each at the first whole millisecond it is due; where that is exact, a refused one a millisecond earlier first`,
      fixtures: { clock: fakeClock(DRIFT_START) },
      generate: driftCalls,
    },
    {
      name: 'a month of silence',
      tier: 'follow-up',
      trap: 'long-idle',
      hint: 'Follow-up: a key may come back after weeks. Its idle time can be larger than a 32-bit integer holds, and must still count as time on schedule, nothing more.',
      fixtures: { clock: fakeClock(10_000_000) },
      ...(() => {
        const t = 10_000_000;
        const later = t + 31 * DAY;
        const muchLater = later + 40 * DAY + 1;
        return script()
          .limiter(1, 1000, 3)
          .allow('k', ok(2, t + 1000, t))
          .allow('k', ok(1, t + 2000, t))
          .allow('k', ok(0, t + 3000, t))
          .set(later)
          .allow('k', ok(2, later + 1000, later))
          .allow('k', ok(1, later + 2000, later))
          .allow('k', ok(0, later + 3000, later))
          .allow('k', no(0, later + 3000, later + 1000))
          .limiter(3, 1000, 2)
          .allow('k', ok(1, later + 334, later))
          .allow('k', ok(0, later + 667, later))
          .set(muchLater)
          .allow('k', ok(1, muchLater + 334, muchLater))
          .allow('k', ok(0, muchLater + 667, muchLater))
          .allow('k', no(0, muchLater + 667, muchLater + 334))
          .done();
      })(),
    },
    {
      name: 'the clock steps back',
      tier: 'follow-up',
      trap: 'clock-backwards',
      hint: 'Follow-up: keep one high-water mark of the clock for the whole limiter, raised by every call (peek too). A reading below it acts as the mark, for every key, new ones included.',
      fixtures: { clock: fakeClock(0) },
      ...script()
        .limiter(1, 1000, 2)
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
        .set(1999)
        .allow('b', ok(1, 3500, 2500))
        .allow('b', ok(0, 4500, 2500))
        .allow('b', no(0, 4500, 3500))
        .set(3600)
        .peek('c', ok(1, 4600, 3600))
        .set(2500)
        .allow('c', ok(1, 4600, 3600))
        .allow('a', ok(0, 5500, 3600))
        .done(),
    },
    contract(
      'prototype-keys',
      0,
      script()
        .limiter(1, 1000, 1)
        .propertyKeys(ok(0, 1000, 0), no(0, 1000, 1000))
        .done(),
    ),
    {
      name: 'settings and costs out of range',
      tier: 'follow-up',
      trap: 'bad-input',
      hint: 'Follow-up: a limit, a period, a burst and a cost are positive whole numbers. Throw a RangeError for anything else (0, negative, fractional, NaN, Infinity), before anything changes.',
      fixtures: { clock: fakeClock(0) },
      // A constructor that throws leaves no instance: each bad one takes an index of its own.
      ...script()
        .badSettings([1, 1000, 2], [BAD_WHOLE, BAD_WHOLE, BAD_WHOLE])
        .limiter(1, 1000, 2)
        .badCosts('k')
        .allow('k', ok(1, 1000, 0))
        .allow('k', no(1, 1000, Infinity), 3)
        .allow('k', ok(0, 2000, 0), 1)
        .done(),
    },
    {
      name: 'random calls with costs, keys, fractional intervals and a clock that steps back',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with several keys, intervals that are not whole milliseconds, costs above 1 (some above the burst) and a clock that sometimes steps back disagrees with the reference.',
      fixtures: { clock: fakeClock(0) },
      property: { calls: randomCalls(true), numRuns: 60 },
    },
    {
      name: `${IDLE_KEYS} keys gone quiet, then fresh traffic`,
      tier: 'follow-up',
      trap: 'idle-eviction',
      hint: {
        memory:
          'Follow-up: a key whose schedule has caught up with now answers like a key never seen, so its state can go. Most keys here never come back: what the limiter holds should follow the keys active lately, and it must let the rest go without a timer and without a sweep over everything on every call.',
        slow: 'Follow-up: a key whose schedule has caught up with now answers like a key never seen, so its state can go. Most keys here never come back: what the limiter holds should follow the keys active lately, and it must let the rest go without a timer and without a sweep over everything on every call.',
        wrong:
          'Follow-up: only a key whose schedule has caught up with now may be forgotten. One that is still short of its burst must keep its state, however much other traffic passes.',
      },
      describe: `GcraLimiter(${IDLE_LIMIT}, ${IDLE_PERIOD}, ${IDLE_BURST}, clock), the clock at ${IDLE_START}: allow on ${IDLE_KEYS} keys (${TOKEN_LENGTH} characters each), ${IDLE_PER_STEP} between clock steps of ${STEP} ms; an hour later "hot" spends its burst; then ${FRESH_STEPS} steps of ${STEP} ms, each with ${FRESH_PER_STEP} calls on new short keys (allow and peek in turn) and then the one request "hot" is due; a last step, and peek("hot", 2); then GcraLimiter(7, 1, 3, clock): allow("a"), peek("b"), allow("a") three times, all at one instant`,
      timeLimitMs: 4000,
      retainedLimitMb: 1,
      fixtures: { clock: fakeClock(IDLE_START) },
      generate: idleCalls,
    },
  ],
});
