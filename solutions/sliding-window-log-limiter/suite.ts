// Hidden suite for sliding-window-log-limiter. Examples must match the statement (a test checks it);
// hidden cases each aim at one trap and carry a hint that points at the idea without giving the code.
//
// Every case gets a fake clock (`fixture('clock')` in the constructor) and moves it with `clock.set`
// and `clock.advance`. Answers are the contract's `{ allowed, remaining, resetAt, retryAt }`, written
// out by hand in the fixed cases (test/design/sliding-window-log-limiter.test.ts holds each of them to
// the contract's brute-force definitions) and by formula in the generated ones. Core cases keep to
// cost 1, one or two keys (three in key-isolation), one limiter (two in instance-isolation and
// aged-out-edge) and a clock that only moves forward; costs, clock faults, bad input, scale and
// memory are follow-ups.
import fc from 'fast-check';
import { fakeClock } from '../../harness/fixtures.ts';
import { defineSuite, fixture, type Call, type Encoded } from '../../harness/suite.ts';
import {
  CallScript,
  longKey,
  no,
  ok,
  THROWS,
  limiterPicture,
  type LimiterPicture,
} from '../../harness/limiter-script.ts';
import { SlidingWindowLogLimiter } from './solution.ts';

const CLASS = 'SlidingWindowLogLimiter';
const CLOCK = fixture('clock');

type Step = [method: string, args: unknown[], expected: unknown];

const at = (ms: number): Step => ['clock.set', [ms], null];
const wait = (ms: number): Step => ['clock.advance', [ms], null];
const allow = (key: string, expected: unknown, cost?: number): Step => [
  'allow',
  cost === undefined ? [key] : [key, cost],
  expected,
];
const peek = (key: string, expected: unknown, cost?: number): Step => [
  'peek',
  cost === undefined ? [key] : [key, cost],
  expected,
];

/** One limiter on the case's clock, then the steps. */
function limiter(limit: number, windowMs: number, ...steps: Step[]): Encoded {
  const s = new CallScript(CLASS).build([limit, windowMs]);
  for (const [method, args, expected] of steps) s.call(method, args, expected);
  return s.done();
}

/** Steps addressed to limiter number `target` (clock moves may carry any target). */
const on = (target: number, ...steps: Step[]): [Step, number][] => steps.map((s) => [s, target]);

/** Several limiters on one clock: their settings, then steps with their targets (always given). */
function limiters(
  settings: [limit: number, windowMs: number][],
  ...steps: [Step, number][][]
): Encoded {
  const s = new CallScript(CLASS);
  for (const setting of settings) s.build(setting);
  for (const [[method, args, expected], target] of steps.flat())
    s.on(target).call(method, args, expected);
  return { ...s.done(), targets: s.targets };
}

/** The same, expecting the first `count` constructors to throw a RangeError. */
function badConstructors(count: number, encoded: Encoded): Encoded {
  const expected = encoded.expected.map((e, i) => (i < count ? THROWS : e));
  return { ...encoded, expected };
}

/** Where the clock of the random cases starts. */
const RANDOM_START = 1_000_000;

type RandomOp =
  | {
      kind: 'call';
      method: 'allow' | 'peek';
      key: string;
      cost: number | undefined;
      target: number;
    }
  | { kind: 'advance'; ms: number }
  | { kind: 'back'; ms: number };

/**
 * Random call sequences: allows and peeks on a few keys, and clock moves. The core ones drive one
 * limiter with cost 1 and a clock that only moves forward; the follow-up ones drive two limiters on
 * one clock, with costs from 1 to beyond the limit and a clock that sometimes steps back. The
 * reference, run with its own fresh clock, decides every answer.
 */
function randomCalls(followUp: boolean): fc.Arbitrary<Encoded> {
  const keys = followUp ? ['a', 'b', 'c'] : ['a', 'b'];
  const cost: fc.Arbitrary<number | undefined> = followUp
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 6 }) },
        { weight: 1, arbitrary: fc.constant(1e9) },
      )
    : fc.constant(undefined);
  const call: fc.Arbitrary<RandomOp> = fc.record({
    kind: fc.constant('call' as const),
    // Mostly allows, mostly on the first key: logs that fill up and age out in part.
    method: fc.constantFrom('allow' as const, 'allow' as const, 'allow' as const, 'peek' as const),
    key: fc.constantFrom(...keys, keys[0] as string, keys[0] as string),
    cost,
    target: fc.integer({ min: 0, max: followUp ? 1 : 0 }),
  });
  const advance: fc.Arbitrary<RandomOp> = fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 6 }) },
      { weight: 1, arbitrary: fc.integer({ min: 7, max: 60 }) },
    ),
  });
  const back: fc.Arbitrary<RandomOp> = fc.record({
    kind: fc.constant('back' as const),
    ms: fc.integer({ min: 1, max: 30 }),
  });
  const op = followUp
    ? fc.oneof(
        { weight: 6, arbitrary: call },
        { weight: 3, arbitrary: advance },
        { weight: 1, arbitrary: back },
      )
    : fc.oneof({ weight: 2, arbitrary: call }, { weight: 1, arbitrary: advance });
  const setting = fc.tuple(fc.integer({ min: 1, max: 5 }), fc.constantFrom(1, 2, 3, 5, 10, 25));
  return fc
    .record({
      settings: fc.array(setting, { minLength: followUp ? 2 : 1, maxLength: followUp ? 2 : 1 }),
      ops: fc.array(op, { minLength: 4, maxLength: 40, size: 'medium' }),
    })
    .map(({ settings, ops }) => {
      let time = RANDOM_START;
      const steps = ops.map((o): [Step, number] => {
        switch (o.kind) {
          case 'advance':
            time += o.ms;
            return [wait(o.ms), 0];
          case 'back':
            time -= o.ms;
            return [at(time), 0];
          case 'call':
            return [[o.method, o.cost === undefined ? [o.key] : [o.key, o.cost], null], o.target];
        }
      });
      return limiters(
        settings.map(([limit, windowMs]) => [limit, windowMs]),
        steps,
      );
    });
}

// scale: one key, window 1000 ms. First SCALE_REQUESTS requests of cost SCALE_COST, one a
// millisecond, fill the window to its limit (5·10^5 units) and one more is denied. Then, at each of
// the next SCALE_REQUESTS milliseconds from t = 1000 on, the oldest heavy request ages out (its
// SCALE_COST units at once) and SCALE_ALLOWS allows of cost 1 follow, then a peek of one unit more
// than remaining, denied. About 2200 calls in all. A log of one entry per unit (the simplest way to
// take costs) is fine when it drops the oldest entry in O(1); one that shift()s (O(n) per call on an
// array above ~11 000 elements) or filter()s its 5·10^5 entries on every call pays per unit in the
// window, hundreds of times what the reference pays per call. (The issue asked for 10^6 calls with
// 3·10^5 entries; that cost the reference ~1 s, against the grade's budget of ~150 ms per problem,
// and left it only 3.4× under its limit.) A log of one entry per request that shift()s is not
// caught: shift() costs more than O(1) only past ~11 000 requests in the window, which takes as
// many judged calls.
const SCALE_REQUESTS = 50;
const SCALE_COST = 10_000;
const SCALE_LIMIT = SCALE_REQUESTS * SCALE_COST;
const SCALE_WINDOW = 1000;
const SCALE_ALLOWS = 40;

// bounded-memory: "hot", the first key, makes a request every 5 ms all along. 8000 keys, ten a
// millisecond, one allow each; every other one ("returning") is peeked at once more in the
// millisecond its entry ages out (that peek finds its log empty), and the others never come back.
// Then 1000 calls on new keys, ten a millisecond: allow a key, peek a key never seen; then the clock
// passes the window again, one new key makes a request, and 99 peeks at keys never seen give the
// clean-up its turns. That last key is still in its window at the end: a clean-up that lets go of
// what it has passed only once it has nothing left to look at keeps everything, and so does one
// that looks at keys oldest first and stops at the first one still in use ("hot"), one that takes a
// log emptied by a call for a log in use (it keeps the returning half), and one that forgets a key
// only when that key comes back and finds its log empty (it keeps the half that never returns, as
// the contract's "memory follows the active keys" forbids). (The peeks cost the reference a few tens
// of ms. A clean-up that visits one key per call instead of two is not caught: that needs thousands
// of keys in use at once, see equivalent-mutants.json.)
// Keys are long (KEY_LENGTH characters, about two bearer tokens), so that each half of the old keys
// weighs over 10 MB: a limiter that keeps either half ends over 10× a limit of 1 MB, while the
// reference ends with little more than "hot" and the last key. (The issue asked for 10^6 keys; the
// case had 2·10^5 short keys and cost the reference ~300 ms, more than the grade's budget of ~150 ms
// per problem. The limit stays well above the ~0.3 MB the memory gauge has been seen to misread.)
const MEMORY_LIMIT = 2;
const MEMORY_WINDOW = 10;
const MEMORY_OLD_KEYS = 8000;
const MEMORY_NEW_CALLS = 1000;
const MEMORY_LAST_CALLS = 100;
/** A key in use all along: a request every HOT_EVERY ms, half a window. */
const HOT = 'GET /orders?tenant=acme&token=hot';
const HOT_EVERY = MEMORY_WINDOW / 2;
const MEMORY_PER_MS = 10;
/** Old keys kept by the generator to be peeked at again: a window's worth and more. */
const OLD_KEPT = 1024;
const KEY_LENGTH = 2600;
/** No digits in them, so that no two keys can be equal. */
const OLD_FILLER = 'GET /orders?tenant=acme&token=';
const NEW_FILLER = 'POST /carts?tenant=acme&token=';
const PEEK_FILLER = 'HEAD /carts?tenant=acme&token=';

/** Key number j, KEY_LENGTH characters (see longKey). */
const tokenKey = (j: number, filler: string): string => longKey(j, filler, KEY_LENGTH);

/**
 * The picture of a failing case: the window (now − W, now] at the wrong call, with what the allowed
 * requests in it took against the limit.
 */
export const LOG_WINDOW: NonNullable<LimiterPicture['windows']> = (
  [limit, windowMs],
  at,
  taken,
) => [
  {
    name: 'window',
    from: at - (windowMs as number),
    to: at,
    bounds: '(]',
    note: `took ${taken(at - (windowMs as number) + 1, at + 1)} of ${String(limit)}`,
  },
];

const picture = limiterPicture({ windows: LOG_WINDOW });

export default defineSuite({
  reference: SlidingWindowLogLimiter,
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
      ...limiter(
        2,
        1000,
        allow('a', ok(1, 1000, 0)),
        wait(300),
        allow('a', ok(0, 1300, 300)),
        wait(400),
        allow('a', no(0, 1300, 1000)),
        wait(300),
        allow('a', ok(0, 2000, 1000)),
        peek('a', no(0, 2000, 1300)),
        peek('b', ok(1, 2000, 1000)),
      ),
    },
    {
      name: 'one millisecond, and the edge',
      tier: 'example',
      trap: null,
      fixtures: { clock: fakeClock(5000) },
      ...limiter(
        3,
        100,
        allow('x', ok(2, 5100, 5000)),
        allow('x', ok(1, 5100, 5000)),
        allow('x', ok(0, 5100, 5000)),
        allow('x', no(0, 5100, 5100)),
        wait(99),
        allow('x', no(0, 5100, 5100)),
        wait(1),
        allow('x', ok(2, 5200, 5100)),
      ),
    },
    {
      name: 'an entry exactly one window old',
      tier: 'core',
      trap: 'aged-out-edge',
      hint: 'A request accepted at time a counts while now is before a + windowMs. At exactly a + windowMs it has left the window; check the comparison that ages entries out.',
      fixtures: { clock: fakeClock(10_000) },
      ...limiters(
        [
          [2, 1000],
          [2, 1],
        ],
        on(
          0,
          allow('a', ok(1, 11_000, 10_000)),
          at(10_500),
          allow('a', ok(0, 11_500, 10_500)),
          at(10_999),
          allow('a', no(0, 11_500, 11_000)),
          at(11_000),
          allow('a', ok(0, 12_000, 11_000)),
          at(11_499),
          peek('a', no(0, 12_000, 11_500)),
          at(11_500),
          peek('a', ok(0, 12_500, 11_500)),
        ),
        on(
          1,
          allow('a', ok(1, 11_501, 11_500)),
          allow('a', ok(0, 11_501, 11_500)),
          allow('a', no(0, 11_501, 11_501)),
          wait(1),
          allow('a', ok(1, 11_502, 11_501)),
        ),
      ),
    },
    {
      name: 'retryAt of a denied request',
      tier: 'core',
      trap: 'retry-from-oldest',
      hint: 'A denied request has to wait until enough entries have left the window, and entries leave oldest first. Which entry frees the slot it needs?',
      fixtures: { clock: fakeClock(0) },
      ...limiter(
        3,
        1000,
        allow('a', ok(2, 1000, 0)),
        at(200),
        allow('a', ok(1, 1200, 200)),
        at(500),
        allow('a', ok(0, 1500, 500)),
        at(600),
        allow('a', no(0, 1500, 1000)),
        peek('a', no(0, 1500, 1000)),
        at(1000),
        allow('a', ok(0, 2000, 1000)),
        at(1100),
        allow('a', no(0, 2000, 1200)),
        at(1200),
        allow('a', ok(0, 2200, 1200)),
        at(1300),
        allow('a', no(0, 2200, 1500)),
      ),
    },
    {
      name: 'denied requests leave no trace',
      tier: 'core',
      trap: 'denied-not-logged',
      hint: 'Only accepted requests belong in the log. A client that keeps retrying while denied must get in as soon as its old requests have aged out.',
      fixtures: { clock: fakeClock(3000) },
      ...limiter(
        2,
        1000,
        allow('a', ok(1, 4000, 3000)),
        at(3100),
        allow('a', ok(0, 4100, 3100)),
        at(3500),
        allow('a', no(0, 4100, 4000)),
        at(3900),
        allow('a', no(0, 4100, 4000)),
        at(4000),
        allow('a', ok(0, 5000, 4000)),
        at(4050),
        allow('a', no(0, 5000, 4100)),
        at(4100),
        allow('a', ok(0, 5100, 4100)),
      ),
    },
    {
      name: 'a burst within one millisecond',
      tier: 'core',
      trap: 'same-instant',
      hint: 'Several requests can arrive in the same millisecond, and each one is a request of its own: they all count, and they all age out together. Does your log keep one entry per request, and let them all go at once?',
      fixtures: { clock: fakeClock(20_000) },
      ...limiter(
        5,
        1000,
        allow('a', ok(4, 21_000, 20_000)),
        allow('a', ok(3, 21_000, 20_000)),
        allow('a', ok(2, 21_000, 20_000)),
        allow('a', ok(1, 21_000, 20_000)),
        at(20_500),
        allow('a', ok(0, 21_500, 20_500)),
        allow('a', no(0, 21_500, 21_000)),
        peek('a', no(0, 21_500, 21_000)),
        at(20_999),
        allow('a', no(0, 21_500, 21_000)),
        at(21_000),
        allow('a', ok(3, 22_000, 21_000)),
        allow('a', ok(2, 22_000, 21_000)),
        allow('a', ok(1, 22_000, 21_000)),
        allow('a', ok(0, 22_000, 21_000)),
        allow('a', no(0, 22_000, 21_500)),
        at(21_500),
        allow('a', ok(0, 22_500, 21_500)),
        allow('a', no(0, 22_500, 22_000)),
      ),
    },
    {
      name: 'two keys interleaved',
      tier: 'core',
      trap: 'key-isolation',
      hint: 'Every key has a quota of its own: requests on one key never use up another. Is your log per key?',
      fixtures: { clock: fakeClock(0) },
      ...limiter(
        2,
        1000,
        allow('a', ok(1, 1000, 0)),
        allow('a', ok(0, 1000, 0)),
        allow('b', ok(1, 1000, 0)),
        at(500),
        allow('b', ok(0, 1500, 500)),
        allow('a', no(0, 1000, 1000)),
        allow('b', no(0, 1500, 1000)),
        peek('c', ok(1, 1500, 500)),
        at(1000),
        allow('a', ok(1, 2000, 1000)),
        allow('b', ok(0, 2000, 1000)),
        peek('b', no(0, 2000, 1500)),
      ),
    },
    {
      name: 'two limiters on one clock',
      tier: 'core',
      trap: 'instance-isolation',
      hint: 'Each limiter keeps its own logs and its own settings. Is any of your state shared by every instance?',
      fixtures: { clock: fakeClock(0) },
      ...limiters(
        [
          [1, 1000],
          [2, 500],
        ],
        on(0, allow('a', ok(0, 1000, 0))),
        on(1, allow('a', ok(1, 500, 0))),
        on(0, allow('a', no(0, 1000, 1000))),
        on(1, allow('a', ok(0, 500, 0)), at(500), allow('a', ok(1, 1000, 500))),
        on(0, allow('a', no(0, 1000, 1000)), at(1000), allow('a', ok(0, 2000, 1000))),
      ),
    },
    {
      name: 'a clock far from the real time',
      tier: 'core',
      trap: 'injected-clock',
      hint: 'The limiter is given its clock: every time it uses must come from clock.now(). Here that clock is set decades away from the computer’s time.',
      fixtures: { clock: fakeClock(4_000_000_000_000) },
      ...limiter(
        2,
        60_000,
        allow('a', ok(1, 4_000_000_060_000, 4_000_000_000_000)),
        wait(30_000),
        allow('a', ok(0, 4_000_000_090_000, 4_000_000_030_000)),
        allow('a', no(0, 4_000_000_090_000, 4_000_000_060_000)),
        wait(30_000),
        allow('a', ok(0, 4_000_000_120_000, 4_000_000_060_000)),
      ),
    },
    {
      name: 'peek changes nothing',
      tier: 'core',
      trap: 'peek-is-pure',
      hint: 'peek answers what allow would answer at this instant, and leaves the limiter exactly as it found it, however often it is called.',
      fixtures: { clock: fakeClock(7000) },
      ...limiter(
        2,
        1000,
        peek('a', ok(1, 8000, 7000)),
        peek('a', ok(1, 8000, 7000)),
        peek('a', ok(1, 8000, 7000)),
        allow('a', ok(1, 8000, 7000)),
        at(7200),
        peek('a', ok(0, 8200, 7200)),
        peek('a', ok(0, 8200, 7200)),
        allow('a', ok(0, 8200, 7200)),
        peek('a', no(0, 8200, 8000)),
        allow('a', no(0, 8200, 8000)),
        at(8000),
        peek('a', ok(0, 9000, 8000)),
        peek('a', ok(0, 9000, 8000)),
        allow('a', ok(0, 9000, 8000)),
      ),
    },
    {
      name: 'resetAt and retryAt as defined',
      tier: 'core',
      trap: 'reset-and-retry',
      hint: 'resetAt is when the key would answer like a key never seen, counted after this request if it is allowed (peek too: as if it were consumed). retryAt is now when allowed, else when this request would first fit.',
      fixtures: { clock: fakeClock(50_000) },
      ...limiter(
        3,
        1000,
        peek('a', ok(2, 51_000, 50_000)),
        allow('a', ok(2, 51_000, 50_000)),
        at(50_400),
        allow('a', ok(1, 51_400, 50_400)),
        at(50_900),
        peek('a', ok(0, 51_900, 50_900)),
        at(51_000),
        peek('a', ok(1, 52_000, 51_000)),
        allow('a', ok(1, 52_000, 51_000)),
        allow('a', ok(0, 52_000, 51_000)),
        allow('a', no(0, 52_000, 51_400)),
        at(51_400),
        peek('a', ok(0, 52_400, 51_400)),
        at(52_000),
        peek('a', ok(2, 53_000, 52_000)),
        at(60_000),
        allow('a', ok(2, 61_000, 60_000)),
      ),
    },
    {
      name: 'random calls against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of allows, peeks and clock moves disagrees with the reference; the counterexample shows the smallest one found.',
      fixtures: { clock: fakeClock(RANDOM_START) },
      // 25 runs (the default is 100) keep it cheap: with the judge's fixed seed, every known-wrong
      // file it fails at all fails by run 8 (forgets-by-oldest.ts, whose trap this is, by run 5).
      property: { calls: randomCalls(false), numRuns: 25 },
    },
    {
      name: 'costs above 1',
      tier: 'follow-up',
      trap: 'cost-spans-entries',
      hint: 'Follow-up: a request of cost c takes c units, and a denied one must wait until enough units have aged out to make room for all c, oldest first. One entry leaving may not be enough.',
      fixtures: { clock: fakeClock(0) },
      ...limiter(
        5,
        1000,
        allow('a', ok(4, 1000, 0)),
        at(100),
        allow('a', ok(2, 1100, 100), 2),
        at(200),
        allow('a', ok(0, 1200, 200), 2),
        at(300),
        allow('a', no(0, 1200, 1100), 3),
        peek('a', no(0, 1200, 1000), 1),
        peek('a', no(0, 1200, 1200), 5),
        at(1000),
        allow('a', no(1, 1200, 1100), 3),
        allow('a', ok(0, 2000, 1000), 1),
        at(1100),
        allow('a', no(2, 2000, 1200), 3),
        at(1200),
        allow('a', ok(1, 2200, 1200), 3),
      ),
    },
    {
      name: 'remaining on a denial',
      tier: 'follow-up',
      trap: 'literal-remaining',
      hint: 'Follow-up: remaining counts the cost-1 requests that would still pass right now. A big request can be denied while some room is left, and that room is still there.',
      fixtures: { clock: fakeClock(0) },
      ...limiter(
        4,
        1000,
        allow('a', ok(1, 1000, 0), 3),
        allow('a', no(1, 1000, 1000), 2),
        peek('a', no(1, 1000, 1000), 2),
        allow('a', ok(0, 1000, 0)),
        at(500),
        allow('b', ok(1, 1500, 500), 3),
        peek('b', no(1, 1500, 1500), 4),
        allow('b', no(1, 1500, 1500), 2),
      ),
    },
    {
      // A log that has wrapped round its buffer: the oldest entries that must age out for a large
      // cost are found past the buffer's end (a binary search bounded one entry too far passes
      // the cases above).
      name: 'a cost that waits for entries of a wrapped log',
      tier: 'follow-up',
      trap: 'cost-spans-entries',
      hint: 'Follow-up: a request of cost c takes c units, and a denied one must wait until enough units have aged out to make room for all c, oldest first. One entry leaving may not be enough.',
      fixtures: { clock: fakeClock(0) },
      ...limiter(
        4,
        100,
        allow('k', ok(3, 100, 0)),
        at(1),
        allow('k', ok(2, 101, 1)),
        at(2),
        allow('k', ok(1, 102, 2)),
        at(3),
        allow('k', ok(0, 103, 3)),
        at(102),
        allow('k', no(3, 103, 103), 4),
      ),
    },
    {
      name: 'a cost above the limit',
      tier: 'follow-up',
      trap: 'cost-over-limit',
      hint: 'Follow-up: a request that costs more than the limit can never fit, however long it waits. Say so: it is denied, and retryAt is Infinity.',
      fixtures: { clock: fakeClock(0) },
      ...limiter(
        3,
        1000,
        allow('a', no(3, 0, Infinity), 4),
        peek('a', no(3, 0, Infinity), 1e9),
        allow('a', no(3, 0, Infinity), 1e15),
        allow('a', ok(2, 1000, 0)),
        at(400),
        allow('a', no(2, 1000, Infinity), 4),
        allow('a', no(2, 1000, 1000), 3),
        allow('a', ok(0, 1400, 400), 2),
      ),
    },
    {
      // The key's log has aged out but not yet been cleaned up: it answers as a key never seen,
      // resetAt now, even for a cost that can never fit.
      name: 'a cost above the limit on a key whose log has aged out',
      tier: 'follow-up',
      trap: 'cost-over-limit',
      hint: 'Follow-up: a request that costs more than the limit can never fit, however long it waits. Say so: it is denied, and retryAt is Infinity.',
      fixtures: { clock: fakeClock(1000) },
      ...limiter(
        3,
        100,
        allow('a', ok(2, 1100, 1000)),
        allow('b', ok(2, 1100, 1000)),
        allow('c', ok(2, 1100, 1000)),
        allow('d', ok(2, 1100, 1000)),
        at(1100),
        allow('d', no(3, 1100, Infinity), 4),
      ),
    },
    {
      name: 'the clock steps back',
      tier: 'follow-up',
      trap: 'clock-backwards',
      hint: 'Follow-up: a reading below the latest one any call has seen (peek too) acts as that latest one. A step back changes nothing, and the time it seems to return grants nothing twice.',
      fixtures: { clock: fakeClock(5000) },
      ...limiter(
        2,
        1000,
        allow('a', ok(1, 6000, 5000)),
        at(3000),
        allow('a', ok(0, 6000, 5000)),
        at(5500),
        allow('a', no(0, 6000, 6000)),
        at(6000),
        peek('a', ok(1, 7000, 6000)),
        at(9000),
        peek('b', ok(1, 10_000, 9000)),
        at(6500),
        allow('a', ok(1, 10_000, 9000)),
        at(9999),
        allow('a', ok(0, 10_999, 9999)),
        at(0),
        allow('a', no(0, 10_999, 10_000)),
        at(10_000),
        allow('a', ok(0, 11_000, 10_000)),
      ),
    },
    {
      name: 'settings and costs out of range',
      tier: 'follow-up',
      trap: 'bad-input',
      hint: 'Follow-up: limit, windowMs and cost must be positive whole numbers. Anything else (0, negative, fractional, NaN, Infinity) throws a RangeError before it can touch any state.',
      fixtures: { clock: fakeClock(0) },
      // A constructor that throws leaves no instance, so each bad one gets an index of its own.
      ...badConstructors(
        10,
        limiters(
          [
            [0, 1000],
            [-1, 1000],
            [1.5, 1000],
            [NaN, 1000],
            [Infinity, 1000],
            [2, 0],
            [2, -5],
            [2, 0.5],
            [2, NaN],
            [2, Infinity],
            [2, 1000],
          ],
          on(
            10,
            ...[0, -1, 1.5, NaN, Infinity, -Infinity].map((cost) =>
              allow('a', { throws: 'RangeError' }, cost),
            ),
            ...[0, 2.5, -Infinity].map((cost) => peek('a', { throws: 'RangeError' }, cost)),
            allow('a', ok(1, 1000, 0)),
            allow('a', ok(0, 1000, 0)),
            allow('a', no(0, 1000, 1000)),
          ),
        ),
      ),
    },
    {
      name: 'random calls: costs, keys, two limiters, a clock that steps back',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with costs, several keys, two limiters and a clock that sometimes steps back disagrees with the reference.',
      fixtures: { clock: fakeClock(RANDOM_START) },
      // 30 runs: with the judge's fixed seed, retry-waits-for-cost.ts, whose trap this is, fails by
      // run 10; the few files it finds later than run 30 are caught by cases of their own.
      property: { calls: randomCalls(true), numRuns: 30 },
    },
    {
      name: '5·10^5 units from 50 heavy requests, aged out while 2000 calls go by',
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        slow: 'Follow-up: a few heavy requests fill one key’s window with hundreds of thousands of units, and then they age out while calls keep coming. What a call costs must not grow with the units in the window: removing the oldest entry must cost O(1) however long the log is (some built-in array methods do not), and no call may rebuild the log.',
      },
      // Costs above 1, several entries in one millisecond, and a denial that leaves room.
      needs: ['cost-spans-entries', 'same-instant', 'literal-remaining'],
      describe: `${CLASS}(${SCALE_LIMIT}, ${SCALE_WINDOW}, clock), clock at 0; allow("k", ${SCALE_COST}) at t = 0 … ${SCALE_REQUESTS - 1}, then allow("k"), denied; then at each t = ${SCALE_WINDOW} … ${SCALE_WINDOW + SCALE_REQUESTS - 1}: ${SCALE_ALLOWS} × allow("k"), then peek("k", remaining + 1)`,
      timeLimitMs: 1500,
      fixtures: { clock: fakeClock(0) },
      generate(emit) {
        emit({ method: CLASS, args: [SCALE_LIMIT, SCALE_WINDOW, CLOCK], expected: null });
        // One call object for each method, changed in place (the judge copies what it keeps); the
        // expected answers are fresh objects, since a kept call shows its own.
        const heavy: Call = { method: 'allow', args: ['k', SCALE_COST], expected: null };
        const allowK: Call = { method: 'allow', args: ['k'], expected: null };
        const peekK: Call = { method: 'peek', args: ['k', 1], expected: null };
        const tick: Call = { method: 'clock.advance', args: [1], expected: null };
        // Heavy request i at t = i: the window fills up.
        for (let i = 0; i < SCALE_REQUESTS; i++) {
          if (i > 0) emit(tick);
          heavy.expected = ok(SCALE_LIMIT - (i + 1) * SCALE_COST, i + SCALE_WINDOW, i);
          emit(heavy);
        }
        // Full: the oldest unit is heavy request 0's, which leaves at t = W.
        const last = SCALE_REQUESTS - 1;
        allowK.expected = no(0, last + SCALE_WINDOW, SCALE_WINDOW);
        emit(allowK);
        emit({ method: 'clock.advance', args: [SCALE_WINDOW - last], expected: null });
        // At t = W + a - 1, heavy requests 0 … a - 1 have aged out: room for a heavy costs, less
        // the cost-1 allows since t = W.
        for (let a = 1; a <= SCALE_REQUESTS; a++) {
          const t = SCALE_WINDOW + a - 1;
          if (a > 1) emit(tick);
          let room = a * SCALE_COST - (a - 1) * SCALE_ALLOWS;
          for (let s = 0; s < SCALE_ALLOWS; s++) {
            room -= 1;
            allowK.expected = ok(room, t + SCALE_WINDOW, t);
            emit(allowK);
          }
          // One unit more than is left waits for the oldest unit to leave: the next heavy
          // request's, or once they have all gone, the first cost-1 allow's (at t = W).
          peekK.args[1] = room + 1;
          peekK.expected = no(
            room,
            t + SCALE_WINDOW,
            a < SCALE_REQUESTS ? a + SCALE_WINDOW : 2 * SCALE_WINDOW,
          );
          emit(peekK);
        }
      },
    },
    {
      name: '8000 long keys, half never seen again, half looked at again once idle, one in use all along, then 1100 calls on new keys',
      tier: 'follow-up',
      trap: 'bounded-memory',
      hint: {
        memory:
          'Follow-up: a key whose whole log has aged out answers like a key never seen, so nothing of it needs to stay, even when a call has just looked at it. A limiter that runs for days must forget such keys, and not only when they come back: most never do.',
        slow: 'Follow-up: a key whose whole log has aged out answers like a key never seen, so nothing of it needs to stay. A limiter that runs for days must forget such keys, and not only when they come back.',
      },
      describe: `${CLASS}(${MEMORY_LIMIT}, ${MEMORY_WINDOW}, clock); allow("${HOT}") every ${HOT_EVERY} ms from 0 to the end; allow(u0) … allow(u${MEMORY_OLD_KEYS - 1}), ${MEMORY_PER_MS} a ms, and, for odd i only, peek(u<i>) first thing in the ms ${MEMORY_WINDOW} ms after allow(u<i>); then allow(v<i>), peek(w<i>) for i < ${MEMORY_NEW_CALLS / 2}, ${MEMORY_PER_MS} calls a ms; clock.advance(${MEMORY_WINDOW}); then allow(v<${MEMORY_NEW_CALLS}>) and ${MEMORY_LAST_CALLS - 1} × peek(w<i>) on new keys; keys u<i>, v<i> and w<i> are ${KEY_LENGTH} characters each`,
      timeLimitMs: 4000,
      retainedLimitMb: 1,
      fixtures: { clock: fakeClock(0) },
      generate(emit) {
        emit({ method: CLASS, args: [MEMORY_LIMIT, MEMORY_WINDOW, CLOCK], expected: null });
        // Call objects changed in place, as in the scale case; each answer is a fresh object.
        const call: Call = { method: 'allow', args: [''], expected: null };
        let t = 0;
        // "hot" makes a request every HOT_EVERY ms from 0 on, each allowed (the one before it is
        // still in its window, the one before that just aged out), so it is in its window all
        // along; and it is the first key of all.
        let nextHot = 0;
        const hot = (): void => {
          emit({
            method: 'allow',
            args: [HOT],
            expected: ok(nextHot === 0 ? MEMORY_LIMIT - 1 : MEMORY_LIMIT - 2, t + MEMORY_WINDOW, t),
          });
          nextHot += HOT_EVERY;
        };
        /** Moves the clock to `target`, with the requests of "hot" due on the way. */
        const moveTo = (target: number): void => {
          while (nextHot <= target) {
            if (nextHot > t) emit({ method: 'clock.advance', args: [nextHot - t], expected: null });
            t = nextHot;
            hot();
          }
          if (target > t) emit({ method: 'clock.advance', args: [target - t], expected: null });
          t = target;
        };
        moveTo(0);
        // Old key i is allowed at ms i / MEMORY_PER_MS; an odd one is peeked at once more in the
        // millisecond its entry ages out, before the old keys of that millisecond are allowed: a
        // peek finds its log empty, and a limiter that keeps such a key until it is used again
        // keeps them all.
        const old: string[] = [];
        let peeked = 0;
        const peekOld = (upTo: number): void => {
          call.method = 'peek';
          for (; peeked < upTo; peeked++) {
            // Even keys never come back: only a clean-up that looks for idle keys forgets them.
            if (peeked % 2 === 0) continue;
            call.args[0] = old[peeked % OLD_KEPT] as string;
            call.expected = ok(MEMORY_LIMIT - 1, t + MEMORY_WINDOW, t);
            emit(call);
          }
          call.method = 'allow';
        };
        for (let i = 0; i < MEMORY_OLD_KEYS; i++) {
          if (i > 0 && i % MEMORY_PER_MS === 0) {
            moveTo(t + 1);
            // The keys allowed a window ago, at t - MEMORY_WINDOW, and before.
            peekOld(Math.max(0, i - (MEMORY_WINDOW - 1) * MEMORY_PER_MS));
          }
          const key = tokenKey(i, OLD_FILLER);
          old[i % OLD_KEPT] = key;
          call.args[0] = key;
          call.expected = ok(MEMORY_LIMIT - 1, t + MEMORY_WINDOW, t);
          emit(call);
        }
        while (peeked < MEMORY_OLD_KEYS) {
          moveTo(t + 1);
          peekOld(Math.min(MEMORY_OLD_KEYS, peeked + MEMORY_PER_MS));
        }
        old.length = 0;
        moveTo(t + 1);
        for (let i = 0; i < MEMORY_NEW_CALLS; i++) {
          if (i > 0 && i % MEMORY_PER_MS === 0) moveTo(t + 1);
          // Even calls allow a new key; odd ones peek at a key never seen, which must leave nothing.
          call.method = i % 2 === 0 ? 'allow' : 'peek';
          call.args[0] = tokenKey(i, i % 2 === 0 ? NEW_FILLER : PEEK_FILLER);
          call.expected = ok(MEMORY_LIMIT - 1, t + MEMORY_WINDOW, t);
          emit(call);
        }
        // The other traffic stops; a window later, one allow and then peeks at keys never seen, in
        // the same millisecond.
        moveTo(t + MEMORY_WINDOW);
        for (let i = 0; i < MEMORY_LAST_CALLS; i++) {
          call.method = i === 0 ? 'allow' : 'peek';
          call.args[0] = tokenKey(MEMORY_NEW_CALLS + i, i === 0 ? NEW_FILLER : PEEK_FILLER);
          call.expected = ok(MEMORY_LIMIT - 1, t + MEMORY_WINDOW, t);
          emit(call);
        }
      },
    },
  ],
});
