// Hidden suite for 362. Examples must match the statement (a test checks it); hidden cases each aim
// at one trap and carry a hint that points at the idea without giving the code.
import fc from 'fast-check';
import { defineSuite, type Encoded, type PictureReader } from '../../harness/suite.ts';
import { HitCounter } from './solution.ts';

/** One call on the counter: a hit at `t`, or getHits at `t` expecting `count`. */
type Step = ['hit', number, null] | ['getHits', number, number];

const hit = (t: number): Step => ['hit', t, null];
const getHits = (t: number, count: number): Step => ['getHits', t, count];

/** One counter (default window unless given) driven through the steps, in order. */
function counter(steps: Step[], window?: number): Encoded {
  return {
    methods: ['HitCounter', ...steps.map((step) => step[0])],
    args: [window === undefined ? [] : [window], ...steps.map((step) => [step[1]])],
    expected: [null, ...steps.map((step) => step[2])],
  };
}

/** `n` hits at time `t`. */
const burst = (t: number, n: number): Step[] => Array.from({ length: n }, () => hit(t));

/**
 * Hits and getHits at the given times, answered by the reference: for inputs too long to work out
 * by hand.
 */
function answered(ops: Array<['hit' | 'getHits', number]>, window?: number): Encoded {
  const reference = new HitCounter(window);
  return counter(
    ops.map(([method, t]): Step => {
      if (method === 'hit') {
        reference.hit(t);
        return hit(t);
      }
      return getHits(t, reference.getHits(t));
    }),
    window,
  );
}

/** Random call sequences: one counter, times drawn as gaps so they never go backwards. */
function randomCalls(options: {
  start: fc.Arbitrary<number>;
  maxGap: number;
  window: boolean;
}): fc.Arbitrary<Encoded> {
  return fc
    .record({
      window: options.window
        ? fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined })
        : fc.constant(undefined),
      start: options.start,
      steps: fc.array(
        fc.record({ isHit: fc.boolean(), gap: fc.integer({ min: 0, max: options.maxGap }) }),
        { minLength: 1, maxLength: 40 },
      ),
    })
    .map(({ window, start, steps }) => {
      let t = start;
      return {
        methods: ['HitCounter', ...steps.map((s) => (s.isHit ? 'hit' : 'getHits'))],
        args: [window === undefined ? [] : [window], ...steps.map((s) => [(t += s.gap)])],
        expected: [],
      };
    });
}

/** 300 calls: bursts in one second, pauses of about one window, and a jump close to 2·10^9. */
function maxInput(): Array<['hit' | 'getHits', number]> {
  const ops: Array<['hit' | 'getHits', number]> = [];
  let t = 1;
  for (let i = 0; i < 300; i++) {
    if (i === 200) t += 1_999_990_000;
    else if (i % 50 === 49) t += 299 + (i % 3);
    else if (i % 7 !== 0) t += (i * 37) % 23;
    ops.push([i % 3 === 2 ? 'getHits' : 'hit', t]);
  }
  return ops;
}

// The memory case: HITS_PER_SECOND hits in each of MEMORY_SECONDS seconds, all inside the window.
// The ring's buckets hold counts, so it keeps the same few KB however many hits arrive; a queue of
// every hit holds about 3 MB of them at the end.
const MEMORY_SECONDS = 10;
const HITS_PER_SECOND = 27_000;

/** The picture of a failing case: each hit and each count, and the window (t - window, t] of the wrong one. */
function picture(): PictureReader {
  let window = 300;
  let time = 0;
  return {
    unit: 's',
    read(call) {
      const lane = String(call.target ?? 0);
      if (call.method === 'HitCounter') {
        window = (call.args[0] as number | undefined) ?? 300;
        return { at: time, lane };
      }
      time = call.args[0] as number;
      return { at: time, mark: call.method, lane };
    },
    windows: (at) => [{ name: 'window', from: at - window, to: at, bounds: '(]' }],
  };
}

export default defineSuite({
  reference: HitCounter,
  picture,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      methods: ['HitCounter', 'hit', 'hit', 'hit', 'getHits', 'hit', 'getHits', 'getHits'],
      args: [[], [1], [2], [3], [4], [300], [300], [301]],
      expected: [null, null, null, null, 3, null, 4, 3],
    },
    {
      name: 'a second reused one window later',
      tier: 'core',
      trap: 'stale-slot',
      hint: 'Seconds exactly one window apart land in the same place if you keep one slot per second of the window. Before counting a hit into a slot, make sure the slot still belongs to this second.',
      ...counter([
        hit(1),
        hit(301),
        getHits(301, 1),
        ...burst(302, 3),
        hit(602),
        getHits(602, 1),
        getHits(900, 1),
        getHits(902, 0),
      ]),
    },
    {
      name: 'a hit exactly one window old',
      tier: 'core',
      trap: 'window-boundary',
      hint: 'getHits(t) covers the last 300 seconds: t - 299 up to t. A hit at exactly t - 300 no longer counts; check the comparison that decides what is too old.',
      ...counter([
        hit(1),
        hit(2),
        hit(2),
        getHits(300, 3),
        getHits(301, 2),
        getHits(302, 0),
        hit(302),
        getHits(601, 1),
        getHits(602, 0),
      ]),
    },
    {
      name: 'fifty hits in one second',
      tier: 'core',
      trap: 'same-second-burst',
      hint: 'Many hits can arrive in the same second. Each is its own hit and counts on its own.',
      ...counter([
        ...burst(7, 50),
        getHits(7, 50),
        hit(8),
        getHits(8, 51),
        getHits(306, 51),
        getHits(307, 1),
        getHits(308, 0),
      ]),
    },
    {
      name: 'long silences between calls',
      tier: 'core',
      trap: 'long-idle',
      hint: {
        slow: 'After a silence of many windows nothing recent is left, and the next call must find that out at once. The work it takes must not grow with the length of the silence.',
      },
      timeLimitMs: 100,
      ...counter([
        hit(1),
        hit(2),
        hit(3),
        getHits(603, 0),
        hit(603),
        getHits(1_000_000, 0),
        hit(1_000_000),
        getHits(1_000_000, 1),
        getHits(2_000_000_000, 0),
        hit(2_000_000_000),
        hit(2_000_000_000),
        getHits(2_000_000_000, 2),
      ]),
    },
    {
      name: 'two counters interleaved',
      tier: 'core',
      trap: 'instance-isolation',
      beyondLeetCode: true,
      hint: 'Each counter must keep its own hits. Is any of your state shared by every instance?',
      methods: [
        'HitCounter',
        'HitCounter',
        'hit',
        'hit',
        'hit',
        'getHits',
        'getHits',
        'hit',
        'getHits',
        'getHits',
      ],
      args: [[], [], [1], [2], [2], [2], [3], [400], [400], [400]],
      targets: [0, 1, 0, 1, 1, 0, 1, 0, 0, 1],
      expected: [null, null, null, null, null, 1, 2, null, 1, 0],
    },
    {
      name: '300 calls with bursts and pauses',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input LeetCode allows, with bursts, pauses of about one window and a jump to 2·10^9. Check the edge cases again.',
      ...answered(maxInput()),
    },
    {
      name: 'random calls against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of hits and getHits disagrees with the reference; the counterexample shows the smallest one found.',
      property: {
        calls: randomCalls({
          start: fc.oneof(
            fc.integer({ min: 1, max: 1000 }),
            fc.integer({ min: 1_999_980_000, max: 1_999_984_000 }),
          ),
          maxGap: 400,
          window: false,
        }),
      },
    },
    {
      name: 'window of 5',
      tier: 'follow-up',
      trap: 'custom-window',
      hint: 'Follow-up: the constructor may be given another window. Use it everywhere the window matters.',
      ...counter(
        [
          hit(1),
          hit(3),
          hit(5),
          hit(6),
          getHits(6, 3),
          getHits(8, 2),
          getHits(10, 1),
          getHits(11, 0),
        ],
        5,
      ),
    },
    {
      name: 'window of 1000',
      tier: 'follow-up',
      trap: 'custom-window',
      hint: 'Follow-up: the window may also be longer than 300 seconds. Everything sized by the window must follow it.',
      ...counter(
        [
          hit(1),
          hit(500),
          hit(500),
          getHits(1000, 3),
          getHits(1001, 2),
          hit(1300),
          getHits(1499, 3),
          getHits(1500, 1),
          getHits(2299, 1),
          getHits(2300, 0),
        ],
        1000,
      ),
    },
    {
      name: '2.7·10^5 hits over ten seconds',
      tier: 'follow-up',
      trap: 'bounded-memory',
      hint: {
        memory:
          'Follow-up: traffic can be enormous. What the counter keeps should be bounded by the window, however many hits arrive in it.',
        slow: 'Follow-up: traffic can be enormous. What the counter keeps should be bounded by the window, however many hits arrive in it.',
      },
      describe: `HitCounter(), then ${HITS_PER_SECOND} × hit(s) and getHits(s) for s = 1, 2, …, ${MEMORY_SECONDS}`,
      timeLimitMs: 2000,
      retainedLimitMb: 0.3,
      generate(emit) {
        emit({ method: 'HitCounter', args: [], expected: null });
        const hitCall = { method: 'hit', args: [0], expected: null };
        const getCall = { method: 'getHits', args: [0], expected: 0 };
        for (let s = 1; s <= MEMORY_SECONDS; s++) {
          hitCall.args[0] = s;
          for (let i = 0; i < HITS_PER_SECOND; i++) emit(hitCall);
          getCall.args[0] = s;
          getCall.expected = s * HITS_PER_SECOND;
          emit(getCall);
        }
      },
    },
    {
      name: 'random calls, small windows',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with a custom window disagrees with the reference.',
      property: {
        calls: randomCalls({ start: fc.integer({ min: 1, max: 100 }), maxGap: 60, window: true }),
      },
    },
  ],
});
