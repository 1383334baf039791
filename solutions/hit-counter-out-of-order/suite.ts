// Hidden suite for hit-counter-out-of-order. Examples must match the statement (a test checks it);
// hidden cases each aim at one trap and carry a hint that points at the idea without giving the code.
import fc from 'fast-check';
import { defineSuite, type Encoded, type PictureReader } from '../../harness/suite.ts';
import { HitCounter } from './solution.ts';

/** One call on the counter: a hit at `t`, or getHits at `t` expecting `count`. */
type Step = ['hit', number, null] | ['getHits', number, number];

const hit = (t: number): Step => ['hit', t, null];
const getHits = (t: number, count: number): Step => ['getHits', t, count];

/** One counter driven through the steps, in order. */
function counter(steps: Step[]): Encoded {
  return {
    methods: ['HitCounter', ...steps.map((step) => step[0])],
    args: [[], ...steps.map((step) => [step[1]])],
    expected: [null, ...steps.map((step) => step[2])],
  };
}

/** `n` hits at time `t`. */
const burst = (t: number, n: number): Step[] => Array.from({ length: n }, () => hit(t));

/** Hits and getHits at the given times, answered by a brute-force count of the kept hits. */
function answered(ops: Array<['hit' | 'getHits', number]>): Encoded {
  const kept: number[] = [];
  let latest = 0;
  return counter(
    ops.map(([method, t]): Step => {
      if (method === 'hit') {
        if (t > latest - 300) kept.push(t);
        latest = Math.max(latest, t);
        return hit(t);
      }
      latest = Math.max(latest, t);
      return getHits(t, kept.filter((h) => h > t - 300 && h <= t).length);
    }),
  );
}

/**
 * Random call sequences within the contract: `now` moves forward by random gaps; a hit lands at
 * now, or up to `maxLate` seconds before it (often more than 300: those are dropped), and getHits
 * is asked at now, which is never before the latest timestamp seen.
 */
function randomCalls(start: fc.Arbitrary<number>, maxLate: number): fc.Arbitrary<Encoded> {
  return fc
    .record({
      start,
      steps: fc.array(
        fc.record({
          isHit: fc.boolean(),
          gap: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 400 })),
          late: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: maxLate })),
        }),
        { minLength: 1, maxLength: 40 },
      ),
    })
    .map(({ start, steps }) => {
      let now = start;
      return {
        methods: ['HitCounter', ...steps.map((s) => (s.isHit ? 'hit' : 'getHits'))],
        args: [
          [],
          ...steps.map((s) => {
            now += s.gap;
            return [s.isHit ? Math.max(1, now - s.late) : now];
          }),
        ],
        expected: [],
      };
    });
}

/**
 * 10^4 calls: seconds moving forward in bursts and pauses of about one window, hits up to 400
 * seconds late (some dropped, some counted, some landing on a bucket a newer second holds), and a
 * jump of 10^5 seconds. (Timestamps near 2·10^9 are long-idle's: a design slow on long silences
 * fails there, and only there.)
 */
function maxInput(): Array<['hit' | 'getHits', number]> {
  const ops: Array<['hit' | 'getHits', number]> = [];
  let now = 1;
  for (let i = 0; i < 10_000; i++) {
    if (i === 7_000) now += 100_000;
    else if (i % 500 === 499) now += 290 + (i % 17);
    else if (i % 7 === 0) now += (i * 37) % 23;
    if (i % 5 === 4) ops.push(['getHits', now]);
    else ops.push(['hit', Math.max(1, now - ((i * 7_919) % 401))]);
  }
  return ops;
}

// The memory case: HITS_PER_SECOND hits in each of MEMORY_SECONDS seconds, each second's hits
// interleaved with hits one to five seconds late, all inside the window. Buckets hold counts, so
// the ring keeps the same few KB however many hits arrive; a log of every hit holds about 4.6 MB.
const MEMORY_SECONDS = 10;
const HITS_PER_SECOND = 40_000;
const LATE_EVERY = 3;

/**
 * The picture of a failing case: each hit at its own second (a late one, older than the latest
 * seen, marked apart), each count, and the window (t - 300, t] of the wrong call.
 */
function picture(): PictureReader {
  let latest = -Infinity;
  let time = 0;
  return {
    unit: 's',
    read(call) {
      const lane = String(call.target ?? 0);
      if (call.method !== 'hit' && call.method !== 'getHits') return { at: time, lane };
      time = call.args[0] as number;
      const late = call.method === 'hit' && time < latest;
      latest = Math.max(latest, time);
      return { at: time, mark: late ? 'late hit' : call.method, lane };
    },
    windows: (at) => [{ name: 'window', from: at - 300, to: at, bounds: '(]' }],
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
      ...counter([
        hit(10),
        hit(200),
        hit(150),
        getHits(200, 3),
        hit(420),
        hit(50),
        getHits(420, 3),
        getHits(455, 2),
      ]),
    },
    {
      name: "a too-late hit on a newer second's bucket",
      tier: 'core',
      trap: 'late-hit-clobbers',
      hint: 'A late hit can belong to the same slot as a newer second that is still in the window. If it is too old to ever count, it must change nothing; it must never wipe what the newer second holds.',
      ...counter([
        hit(305),
        hit(5),
        getHits(305, 1),
        hit(310),
        hit(310),
        hit(9),
        hit(10),
        getHits(310, 3),
        getHits(500, 3),
      ]),
    },
    {
      name: 'a too-late hit is dropped',
      tier: 'core',
      trap: 'too-late-dropped',
      hint: 'A hit 300 or more seconds before the latest timestamp seen can never be counted. It is dropped: it must not be added to a newer second that happens to share its slot, nor to anything else.',
      ...counter([
        hit(305),
        hit(5),
        getHits(305, 1),
        hit(600),
        hit(300),
        hit(299),
        getHits(600, 2),
        getHits(604, 2),
        getHits(605, 1),
      ]),
    },
    {
      name: 'late hits within the window count',
      tier: 'core',
      trap: 'late-hit-counted',
      hint: 'A hit may arrive after hits with larger timestamps. As long as it is less than 300 seconds older than the latest timestamp seen, it belongs to the window and counts.',
      ...counter([
        hit(100),
        hit(50),
        getHits(100, 2),
        hit(400),
        hit(101),
        hit(399),
        getHits(400, 3),
        getHits(401, 2),
      ]),
    },
    {
      name: 'a late hit ages out on time',
      tier: 'core',
      trap: 'late-hit-expires',
      hint: 'A late hit leaves the window when its own second is 300 seconds old, not when the hits that arrived before it have left. Whatever keeps the hits must let the oldest second go first, whatever order they arrived in.',
      ...counter([
        hit(100),
        hit(350),
        hit(60),
        getHits(370, 2),
        hit(200),
        hit(70),
        getHits(380, 3),
        getHits(399, 3),
        getHits(400, 2),
      ]),
    },
    {
      name: 'many hits in one second, some of them late',
      tier: 'core',
      trap: 'same-second-many',
      hint: 'Many hits can share a second, late or not. Each one is a hit and counts on its own.',
      ...counter([
        ...burst(7, 20),
        hit(8),
        ...burst(7, 30),
        getHits(8, 51),
        getHits(306, 51),
        getHits(307, 1),
        getHits(308, 0),
      ]),
    },
    {
      name: 'hits exactly one window old',
      tier: 'core',
      trap: 'window-boundary',
      hint: 'getHits(t) covers t - 299 up to t. A hit at exactly t - 300 no longer counts; check the comparison that decides what is too old.',
      ...counter([
        hit(2),
        hit(1),
        hit(2),
        getHits(300, 3),
        getHits(301, 2),
        getHits(302, 0),
        hit(302),
        hit(303),
        getHits(601, 2),
        getHits(602, 1),
        getHits(603, 0),
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
        hit(3),
        hit(1),
        getHits(603, 0),
        hit(603),
        hit(500),
        getHits(1_000_000, 0),
        hit(1_000_000),
        hit(999_800),
        getHits(1_000_000, 2),
        getHits(2_000_000_000, 0),
        hit(2_000_000_000),
        hit(1_999_999_999),
        getHits(2_000_000_000, 2),
      ]),
    },
    {
      name: 'two counters interleaved',
      tier: 'core',
      trap: 'instance-isolation',
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
      args: [[], [], [400], [2], [2], [400], [3], [100], [400], [3]],
      targets: [0, 1, 0, 1, 1, 0, 1, 0, 0, 1],
      expected: [null, null, null, null, null, 1, 2, null, 1, 2],
    },
    {
      name: '10^4 calls with late hits, bursts and pauses',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input of the constraints: 10^4 calls, hits up to 400 seconds late, bursts, and pauses of about one window. Check the edge cases again.',
      ...answered(maxInput()),
    },
    {
      name: 'random calls against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of hits (some late, some too late) and getHits disagrees with the reference; the counterexample shows the smallest one found.',
      property: {
        calls: randomCalls(fc.integer({ min: 1, max: 1000 }), 400),
      },
    },
    {
      name: '4·10^5 hits over ten seconds, some late',
      tier: 'follow-up',
      trap: 'bounded-memory',
      hint: {
        memory:
          'Follow-up: traffic can be enormous. What the counter keeps should be bounded by the window, however many hits arrive in it and however late.',
        slow: 'Follow-up: traffic can be enormous. What the counter keeps should be bounded by the window, however many hits arrive in it and however late.',
      },
      describe: `HitCounter(), then for s = 1, 2, …, ${MEMORY_SECONDS}: ${HITS_PER_SECOND} hits, every ${LATE_EVERY}rd of them 1 to 5 seconds late, and getHits(s)`,
      timeLimitMs: 2000,
      retainedLimitMb: 0.3,
      generate(emit) {
        emit({ method: 'HitCounter', args: [], expected: null });
        const hitCall = { method: 'hit', args: [0], expected: null };
        const getCall = { method: 'getHits', args: [0], expected: 0 };
        const base = 1000;
        for (let s = 1; s <= MEMORY_SECONDS; s++) {
          for (let i = 0; i < HITS_PER_SECOND; i++) {
            hitCall.args[0] = base + s - (i % LATE_EVERY === 0 ? 1 + (i % 5) : 0);
            emit(hitCall);
          }
          getCall.args[0] = base + s;
          getCall.expected = s * HITS_PER_SECOND;
          emit(getCall);
        }
      },
    },
  ],
});
