// Hidden suite for 359. Examples must match the statement (a test checks it); hidden cases each aim
// at one trap and carry a hint that points at the idea without giving the code.
import fc from 'fast-check';
import { defineSuite, type Encoded, type PictureReader } from '../../harness/suite.ts';
import { Logger } from './solution.ts';

/** One call: shouldPrintMessage(timestamp, message), and what it must return. */
type Step = [timestamp: number, message: string, prints: boolean];

/** One logger driven through the steps, in order. */
function logger(steps: Step[]): Encoded {
  return {
    methods: ['Logger', ...steps.map(() => 'shouldPrintMessage')],
    args: [[], ...steps.map(([timestamp, message]) => [timestamp, message])],
    expected: [null, ...steps.map(([, , prints]) => prints)],
  };
}

/** The same, with the reference's answers: for inputs too long to work out by hand. */
function answered(calls: Array<[timestamp: number, message: string]>): Encoded {
  const reference = new Logger();
  return logger(calls.map(([t, m]): Step => [t, m, reference.shouldPrintMessage(t, m)]));
}

/** Messages of every kind the core allows: 1 to 30 characters, any characters. */
const POOL = [
  'foo',
  'bar',
  'a',
  'A',
  ' ',
  'foo ',
  'Foo',
  '0',
  '00',
  'null',
  'undefined',
  'disk full on /dev/sda1',
  'héllo wörld',
  'ünïcödé ✓',
  '🚀 launched',
  '日志',
  'tab\there',
  'line\nbreak',
  'x'.repeat(30),
  'y'.repeat(29) + 'z',
  '[ERROR] timeout after 30s',
  '{"level":"warn"}',
];

/** 10^4 calls: bursts in one second, gaps around ten seconds, then a jump close to 10^9. */
function maxInput(): Array<[number, string]> {
  const calls: Array<[number, string]> = [];
  let t = 0;
  for (let i = 0; i < 10_000; i++) {
    if (i === 9_000) t = 999_990_000;
    else if (i % 5 !== 0) t += i % 97 === 0 ? 9 + (i % 3) : (i * 13) % 4;
    calls.push([t, POOL[(i * 7 + (i >> 3)) % POOL.length] as string]);
  }
  return calls;
}

/** Random call sequences on one logger: few messages, times drawn as gaps so they never go back. */
const randomCalls: fc.Arbitrary<Encoded> = fc
  .record({
    start: fc.integer({ min: 0, max: 3 }),
    steps: fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 12 }),
        message: fc.constantFrom('a', 'b', 'c', 'foo'),
      }),
      { minLength: 1, maxLength: 40 },
    ),
  })
  .map(({ start, steps }) => {
    let t = start;
    return {
      methods: ['Logger', ...steps.map(() => 'shouldPrintMessage')],
      args: [[], ...steps.map((s) => [(t += s.gap), s.message])],
      expected: [],
    };
  });

// The memory case: distinct messages, RATE a second, so about 10 × RATE are recent at once; but
// second BURST_AT brings BURST at once, and ten seconds later a single call sees all of them expire:
// forgetting must keep up with that too, not only with the steady trickle. After SECONDS seconds the
// logger falls quiet, and one last message comes QUIET seconds later: by then it is the only recent
// one. A logger that keeps every message holds about 6 MB of them at the end.
const SECONDS = 760;
const RATE = 110;
const BURST = 2000;
const BURST_AT = 15;
const QUIET = 60;
/** How many new messages second `s` brings. */
const messagesAt = (s: number): number => (s === BURST_AT ? BURST : RATE);
/** Message #j as a 6-digit string, built from two cached halves: cheap, and distinct for j < 10^6. */
const HALVES = Array.from({ length: 1000 }, (_, k) => String(k).padStart(3, '0'));
const messageNumber = (j: number): string =>
  (HALVES[(j / 1000) | 0] as string) + (HALVES[j % 1000] as string);

// The scale case: a storm of STORM distinct messages in one second, so that all of them are recent
// at once and every one prints. A logger that copies or scans what it keeps on every call (to drop
// expired prints eagerly) pays O(messages kept) per call, about STORM^2 / 2 steps in all: seconds,
// where the reference needs tens of milliseconds. The last call repeats the first message, still
// blocked. (With 2·10^4 messages such a logger took ~8 s, too close to ten times the limit that ten
// times the reference's ~100 ms, as the bench measures it, calls for; with 2.5·10^4, ~20 s.)
const STORM = 25_000;
const STORM_AT = 7;

/**
 * The picture of a failing case: the calls with the wrong call's message, printed or held back as
 * the reference answers, and the ten seconds its last print keeps it quiet, [p, p + 10).
 */
function picture(): PictureReader {
  const printed = new Map<string, number>();
  let time = 0;
  let quiet: number | undefined;
  return {
    unit: 's',
    read(call) {
      if (call.method !== 'shouldPrintMessage') return { at: time };
      time = call.args[0] as number;
      const message = String(call.args[1]);
      quiet = printed.get(message);
      if (call.expected === true) printed.set(message, time);
      return { at: time, mark: call.expected === true ? 'printed' : 'held', lane: message };
    },
    windows: () =>
      quiet === undefined ? [] : [{ name: 'quiet', from: quiet, to: quiet + 10, bounds: '[)' }],
  };
}

export default defineSuite({
  reference: Logger,
  picture,
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      methods: [
        'Logger',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
      ],
      args: [[], [1, 'foo'], [2, 'bar'], [3, 'foo'], [8, 'bar'], [10, 'foo'], [11, 'foo']],
      expected: [null, true, true, false, false, false, true],
    },
    {
      name: 'exactly ten seconds later',
      tier: 'core',
      trap: 'ten-second-boundary',
      hint: 'A message printed at t is blocked until t + 10 and allowed again at t + 10 itself. Check the comparison on both sides of that second.',
      ...logger([
        [5, 'a', true],
        [14, 'a', false],
        [15, 'a', true],
        [24, 'a', false],
        [25, 'a', true],
        [25, 'a', false],
      ]),
    },
    {
      name: 'suppressed calls in between',
      tier: 'core',
      trap: 'reject-keeps-clock',
      hint: 'The ten seconds run from the last time the message was printed. A call that is refused prints nothing, so should it change anything?',
      ...logger([
        [1, 'foo', true],
        [8, 'foo', false],
        [11, 'foo', true],
        [12, 'foo', false],
        [20, 'foo', false],
        [21, 'foo', true],
      ]),
    },
    {
      name: 'printed at time 0',
      tier: 'core',
      trap: 'timestamp-zero',
      hint: 'Time 0 is a real time. How does your code tell "never printed" apart from "printed at 0"?',
      ...logger([
        [0, 'a', true],
        [0, 'a', false],
        [9, 'a', false],
        [10, 'a', true],
        [10, 'b', true],
      ]),
    },
    {
      name: 'messages named like object properties',
      tier: 'core',
      trap: 'prototype-keys',
      beyondLeetCode: true,
      hint: 'A message can be any string, including the name of something every JavaScript object already has. Is your store really empty when it is created?',
      ...logger(
        [1, 5, 11].flatMap((t) =>
          ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'].map(
            (message): Step => [t, message, t !== 5],
          ),
        ),
      ),
    },
    {
      name: 'several messages at once',
      tier: 'core',
      trap: 'independent-messages',
      hint: 'Each distinct message has its own ten seconds. Printing one message says nothing about any other.',
      ...logger([
        [1, 'a', true],
        [2, 'b', true],
        [3, 'a', false],
        [4, 'b', false],
        [5, 'c', true],
        [11, 'a', true],
        [11, 'b', false],
        [12, 'b', true],
        [13, 'c', false],
        [15, 'c', true],
      ]),
    },
    {
      name: 'two loggers interleaved',
      tier: 'core',
      trap: 'instance-isolation',
      beyondLeetCode: true,
      hint: 'Each logger must keep its own history. Is any of your state shared by every instance?',
      methods: [
        'Logger',
        'Logger',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
        'shouldPrintMessage',
      ],
      args: [[], [], [1, 'a'], [2, 'a'], [3, 'a'], [4, 'b'], [5, 'b'], [6, 'b']],
      targets: [0, 1, 0, 1, 0, 1, 0, 1],
      expected: [null, null, true, true, false, true, true, false],
    },
    {
      name: '10^4 calls with bursts and all kinds of messages',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input LeetCode allows: bursts, gaps around ten seconds, a jump close to 10^9, and messages with spaces, digits and non-ASCII characters. Check the edge cases again.',
      ...answered(maxInput()),
    },
    {
      name: 'random calls against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of calls disagrees with the reference; the counterexample shows the smallest one found.',
      property: { calls: randomCalls },
    },
    {
      name: '2.5·10^4 different messages in one second',
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        slow: 'Follow-up: tens of thousands of different messages arrive in the same second, so all of them are recent at once. A call must not cost more the more messages are kept: forgetting old ones may not mean copying or walking everything kept on every call.',
      },
      describe: `Logger(), then shouldPrintMessage(${STORM_AT}, m) for ${STORM} different messages m (6 digits), then the first of them once more`,
      timeLimitMs: 1200, // the reference: 30-50 ms in a grade, ~100 ms in the bench; copying every call: ~20 s
      generate(emit) {
        emit({ method: 'Logger', args: [], expected: null });
        const call = { method: 'shouldPrintMessage', args: [STORM_AT, ''], expected: true };
        for (let j = 0; j < STORM; j++) {
          call.args[1] = messageNumber(j);
          emit(call);
        }
        call.args[1] = messageNumber(0);
        call.expected = false;
        emit(call);
      },
    },
    {
      name: '760 seconds of distinct messages, a burst, then quiet',
      tier: 'follow-up',
      trap: 'bounded-memory',
      hint: {
        memory:
          'Follow-up: the logger runs for a long time and most messages are never seen again, sometimes thousands of them in the same second. What it keeps should be bounded by the messages of the last ten seconds, whether they expire a few at a time or all at once, and once it has been quiet for a while, hardly anything should be left.',
        slow: 'Follow-up: the logger runs for a long time and most messages are never seen again. Forgetting them must stay cheap: each message should cost O(1) to forget, however many expire in one call.',
      },
      describe: `Logger(), then ${SECONDS} seconds of new distinct messages (6 digits): ${RATE} a second, but ${BURST} in second ${BURST_AT}; every second also the first message of second s - 9 again (still blocked) and of second s - 10 (allowed again); then, ${QUIET} seconds later, one more new message`,
      timeLimitMs: 2000,
      retainedLimitMb: 0.5,
      generate(emit) {
        emit({ method: 'Logger', args: [], expected: null });
        const call = { method: 'shouldPrintMessage', args: [0, ''], expected: true };
        /** The number of the first message of each second so far. */
        const firstOf: number[] = [];
        let next = 0;
        for (let s = 0; s < SECONDS; s++) {
          firstOf.push(next);
          call.args[0] = s;
          for (let end = next + messagesAt(s); next < end; next++) {
            call.args[1] = messageNumber(next);
            call.expected = true;
            emit(call);
          }
          if (s < 9) continue;
          // The first message of second s - 9 printed then and is still blocked...
          call.args[1] = messageNumber(firstOf[s - 9] as number);
          call.expected = false;
          emit(call);
          if (s < 10) continue;
          // ...and that of second s - 10 (refused at s - 1) may print again.
          call.args[1] = messageNumber(firstOf[s - 10] as number);
          call.expected = true;
          emit(call);
        }
        // After the quiet spell, a new message: every earlier one has been allowed again for long.
        call.args[0] = SECONDS - 1 + QUIET;
        call.args[1] = messageNumber(next);
        call.expected = true;
        emit(call);
      },
    },
  ],
});
