// Hidden suite for 933. Examples must match the statement (a test checks it); hidden cases each aim
// at one trap and carry a hint that points at the idea without giving the code.
import fc from 'fast-check';
import { defineSuite, type Encoded, type PictureReader } from '../../harness/suite.ts';
import { RecentCounter } from './solution.ts';

/** One counter (default window unless given) pinged at each time, expecting the given counts. */
function pinged(times: number[], counts: number[], window?: number): Encoded {
  return {
    methods: ['RecentCounter', ...times.map(() => 'ping')],
    args: [window === undefined ? [] : [window], ...times.map((t) => [t])],
    expected: [null, ...counts],
  };
}

/** The same, with the reference's answers: for inputs too long to work out by hand. */
function pings(times: number[], window?: number): Encoded {
  const counter = new RecentCounter(window);
  return pinged(
    times,
    times.map((t) => counter.ping(t)),
    window,
  );
}

/** Random call sequences: one counter, times drawn as gaps so they never go backwards. */
function randomPings(options: {
  minGap: number;
  maxGap: number;
  window: boolean;
}): fc.Arbitrary<Encoded> {
  return fc
    .record({
      window: options.window
        ? fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined })
        : fc.constant(undefined),
      gaps: fc.array(fc.integer({ min: options.minGap, max: options.maxGap }), {
        minLength: 1,
        maxLength: 40,
      }),
    })
    .map(({ window, gaps }) => {
      let t = 0;
      return pinged(
        gaps.map((gap) => (t += gap)),
        [],
        window,
      );
    });
}

// The scale case: a window of SCALE_WINDOW ms and a ping every ms, so the window fills up with
// SCALE_WINDOW + 1 pings; the pings after that let the oldest go one at a time, and a last one,
// after a silence longer than the window, lets all of them go at once. Removing from the front of
// a large array with shift() copies what is left behind: the silence alone costs it about
// SCALE_WINDOW^2 / 2 copies, while a queue read through a head index pays one step per ping.
const SCALE_WINDOW = 300_000;
const SCALE_PINGS = 350_000;

// The memory case: first a burst of MEMORY_BURST pings, one a ms, that all leave the window in one
// ping; then a ping every MEMORY_GAP ms with the default window, so only 4 are ever in it, while the
// pings made add up to MEMORY_PINGS: what a counter keeps must follow the window. (A counter that
// keeps every ping holds about 4.6 MB of them at the end.) The burst is for a counter that cuts its
// dead prefix off only when it is small, or at one exact length, to keep each ping cheap: a
// thousand pings leaving at once jump past that, and it never cuts again.
const MEMORY_BURST = 1100;
const MEMORY_PINGS = 400_000;
const MEMORY_GAP = 1000;
/** Where the pings one every MEMORY_GAP ms start: the burst has left the window by then. */
const MEMORY_START = MEMORY_BURST + 3000 + 1;

/** The picture of a failing case: each ping, and the range [t - window, t] of the wrong one. */
function picture(): PictureReader {
  let window = 3000;
  let time = 0;
  return {
    read(call) {
      if (call.method !== 'ping') {
        window = (call.args[0] as number | undefined) ?? 3000;
        return { at: time, lane: String(call.target ?? 0) };
      }
      time = call.args[0] as number;
      return { at: time, mark: 'ping', lane: String(call.target ?? 0) };
    },
    windows: (at) => [{ name: 'range', from: at - window, to: at, bounds: '[]' }],
  };
}

export default defineSuite({
  reference: RecentCounter,
  picture,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      methods: ['RecentCounter', 'ping', 'ping', 'ping', 'ping'],
      args: [[], [1], [100], [3001], [3002]],
      expected: [null, 1, 2, 3, 3],
    },
    {
      name: 'ping on the cutoff',
      tier: 'core',
      trap: 'inclusive-boundary',
      hint: 'The range [t - 3000, t] includes both ends. A ping exactly 3000 ms old still counts; check the comparison that expires pings.',
      ...pinged([1, 3001, 3002, 6002, 6003], [1, 2, 2, 2, 2]),
    },
    {
      name: 'one ping after a long silence',
      tier: 'core',
      trap: 'idle-gap-drain',
      hint: 'After a long quiet spell, a single ping may have to expire many old ones at once, not just one.',
      ...pinged(
        [...Array.from({ length: 50 }, (_, i) => i + 1), 1_000_000, 1_000_001],
        [...Array.from({ length: 50 }, (_, i) => i + 1), 1, 2],
      ),
    },
    {
      name: 'expiry from the old end',
      tier: 'core',
      trap: 'expire-oldest',
      hint: 'Pings leave the window in the order they arrived. Which end of your queue holds the oldest one, and which end do you remove from?',
      ...pinged([1, 2000, 4000, 5000, 7001], [1, 2, 2, 3, 2]),
    },
    {
      name: 'two counters interleaved',
      tier: 'core',
      trap: 'instance-isolation',
      beyondLeetCode: true,
      hint: 'Each counter must keep its own history. Is any of your state shared by every instance?',
      methods: ['RecentCounter', 'RecentCounter', 'ping', 'ping', 'ping', 'ping', 'ping'],
      args: [[], [], [1], [2], [3], [4], [5000]],
      targets: [0, 1, 0, 1, 0, 1, 1],
      expected: [null, null, 1, 1, 2, 2, 1],
    },
    {
      name: '10^4 pings with mixed gaps',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input LeetCode allows, with bursts and pauses. Check the edge cases again.',
      ...pings(
        (() => {
          let t = 0;
          return Array.from(
            { length: 10_000 },
            (_, i) => (t += i % 97 === 0 ? 2999 + (i % 3) : 1 + (i % 7)),
          );
        })(),
      ),
    },
    {
      name: 'random pings against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of pings disagrees with the reference; the counterexample shows the smallest one found.',
      property: { calls: randomPings({ minGap: 1, maxGap: 4000, window: false }) },
    },
    {
      name: 'several pings at the same time',
      tier: 'follow-up',
      trap: 'equal-timestamps',
      hint: 'Follow-up: two requests can share a timestamp. Each one is a separate request and counts on its own.',
      ...pinged([5, 5, 5, 3005, 3006, 3006], [1, 2, 3, 4, 2, 3]),
    },
    {
      name: 'window of 5',
      tier: 'follow-up',
      trap: 'custom-window',
      hint: 'Follow-up: the constructor may be given another window. Use it everywhere the window matters.',
      ...pinged([1, 3, 6, 8, 11], [1, 2, 3, 3, 3], 5),
    },
    {
      name: '3.5·10^5 pings, window 3·10^5, then all expire at once',
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        slow: 'Follow-up: 300,000 pings stay in the window, then all of them leave at once. Removing the oldest must cost O(1), whatever the queue length; some built-in array methods do not.',
      },
      needs: ['custom-window'],
      describe: `RecentCounter(${SCALE_WINDOW}), then ping(1), ping(2), …, ping(${SCALE_PINGS}), then ping(${SCALE_PINGS + SCALE_WINDOW + 1}) once every earlier ping has left the window`,
      timeLimitMs: 1200, // the reference takes 140–210 ms on a busy machine; shift() over 12 s
      generate(emit) {
        emit({ method: 'RecentCounter', args: [SCALE_WINDOW], expected: null });
        const call = { method: 'ping', args: [0], expected: 0 };
        for (let t = 1; t <= SCALE_PINGS; t++) {
          call.args[0] = t;
          call.expected = Math.min(t, SCALE_WINDOW + 1);
          emit(call);
        }
        call.args[0] = SCALE_PINGS + SCALE_WINDOW + 1;
        call.expected = 1;
        emit(call);
      },
    },
    {
      name: '1100 pings that leave at once, then 4·10^5 pings, 4 in the window',
      tier: 'follow-up',
      trap: 'bounded-memory',
      hint: {
        memory:
          'Follow-up: the counter runs for a long time, but only the pings of the last 3000 ms can ever count again. What it keeps should follow the window, not every ping it has seen: skipping over old pings is not the same as letting them go, whether they leave a few at a time or a thousand at once.',
        slow: 'Follow-up: the counter runs for a long time. Each ping should cost O(1) on average, including whatever work goes into letting old pings go.',
      },
      describe: `RecentCounter(), then ping(1), ping(2), …, ping(${MEMORY_BURST}), then ping(${MEMORY_START + MEMORY_GAP}), ping(${MEMORY_START + 2 * MEMORY_GAP}), …, ping(${MEMORY_START + MEMORY_PINGS * MEMORY_GAP}): one every ${MEMORY_GAP} ms`,
      timeLimitMs: 2000,
      retainedLimitMb: 0.4,
      generate(emit) {
        emit({ method: 'RecentCounter', args: [], expected: null });
        const call = { method: 'ping', args: [0], expected: 0 };
        for (let t = 1; t <= MEMORY_BURST; t++) {
          call.args[0] = t;
          call.expected = t;
          emit(call);
        }
        const inWindow = 3000 / MEMORY_GAP + 1;
        for (let i = 1; i <= MEMORY_PINGS; i++) {
          call.args[0] = MEMORY_START + i * MEMORY_GAP;
          call.expected = Math.min(i, inWindow);
          emit(call);
        }
      },
    },
    {
      name: 'random pings, shared timestamps and small windows',
      tier: 'follow-up',
      trap: 'random-follow-up',
      hint: 'Follow-up: a random sequence with repeated timestamps and custom windows disagrees with the reference.',
      property: { calls: randomPings({ minGap: 0, maxGap: 60, window: true }) },
    },
  ],
});
