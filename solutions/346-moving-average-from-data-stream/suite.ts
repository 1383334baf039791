// Hidden suite for 346. Examples must match the statement (a test checks it); hidden cases each aim
// at one trap and carry a hint that points at the idea without giving the code. Answers are
// floating-point, so they are compared within 1e-5; the small cases' answers are worked out by hand
// (written as fractions where they do not end).
import fc from 'fast-check';
import { defineSuite, withinTolerance, type Encoded } from '../../harness/suite.ts';
import { MovingAverage } from './solution.ts';

/** One MovingAverage(size) fed each value, expecting the given averages. */
function fed(size: number, values: number[], averages: number[]): Encoded {
  return {
    methods: ['MovingAverage', ...values.map(() => 'next')],
    args: [[size], ...values.map((v) => [v])],
    expected: [null, ...averages],
  };
}

/** The same, with the reference's answers: for inputs too long to work out by hand. */
function feeds(size: number, values: number[]): Encoded {
  const average = new MovingAverage(size);
  return fed(
    size,
    values,
    values.map((v) => average.next(v)),
  );
}

const MAX_VAL = 100_000;

/** The largest core input: 9,999 values (10^4 calls with the constructor), extremes included. */
function maxInputValues(): number[] {
  let x = 12345; // a Park–Miller generator: every step is exact in doubles
  return Array.from({ length: 9_999 }, (_, i) => {
    if (i % 500 < 3) return i % 1000 < 500 ? MAX_VAL : -MAX_VAL; // bursts at the extremes
    x = (x * 48271) % 2147483647;
    return (x % (2 * MAX_VAL + 1)) - MAX_VAL;
  });
}

// The scale case: a window of SCALE_SIZE values, filled by the first SCALE_SIZE calls; each of the
// other 300,000 evicts one value. An eviction that costs O(size) (shift() copies the whole window)
// then makes 6·10^10 steps in all, the ring one step per call.
const SCALE_SIZE = 200_000;
const SCALE_CALLS = 500_000;

/**
 * The scale case's values: the i-th is `(i · STEP) mod (2·10^5 + 1) - 10^5`, spread over the whole
 * range, and an integer so every sum is exact. Stepped one at a time (a modulo per call is slow).
 */
const SCALE_STEP = 7919;
const SCALE_MOD = 2 * MAX_VAL + 1;
function scaleValues(): () => number {
  let base = -SCALE_STEP;
  return () => {
    base += SCALE_STEP;
    if (base >= SCALE_MOD) base -= SCALE_MOD;
    return base - MAX_VAL;
  };
}

export default defineSuite({
  reference: MovingAverage,
  equals: withinTolerance(1e-5),
  // Module-level state shows as cases that fail after others ran, and pass alone.
  sharedStateTrap: 'instance-isolation',
  cases: [
    {
      name: 'statement example',
      tier: 'example',
      trap: null,
      methods: ['MovingAverage', 'next', 'next', 'next', 'next'],
      args: [[3], [1], [10], [3], [5]],
      expected: [null, 1, 5.5, 4.666666666666667, 6],
    },
    {
      name: 'window of 4, filling up',
      tier: 'core',
      trap: 'partial-window',
      hint: 'Until the window is full it holds fewer than `size` values. The average is over the values that are actually there.',
      ...fed(4, [8, 4, 6, 2, 10], [8, 6, 6, 5, 5.5]),
    },
    {
      name: 'window of 1000, three values',
      tier: 'core',
      trap: 'partial-window',
      hint: 'A big window is far from full after a few calls. How many values does it hold after the third one?',
      ...fed(1000, [7, 1, 4], [7, 4, 4]),
    },
    {
      name: 'a large value enters and leaves',
      tier: 'core',
      trap: 'eviction-boundary',
      hint: 'With a window of `size`, the value added `size` calls ago is still in; the one added `size + 1` calls ago is out. Count how many values your window holds right after an eviction.',
      ...fed(3, [1, 2, 3, 100, 4, 5, 6], [1, 1.5, 2, 35, 107 / 3, 109 / 3, 5]),
    },
    {
      name: 'window of 1',
      tier: 'core',
      trap: 'eviction-boundary',
      hint: 'A window of one value: each call replaces the previous value entirely.',
      ...fed(1, [5, -3, 7, 7, 0], [5, -3, 7, 7, 0]),
    },
    {
      name: 'averages that are not whole',
      tier: 'core',
      trap: 'float-division',
      hint: 'The average of integers is often not an integer, and the answer keeps its fractional part. Look for anything that rounds.',
      ...fed(3, [1, 2, 2, 6, -7, -2, -4], [1, 1.5, 5 / 3, 10 / 3, 1 / 3, -1, -13 / 3]),
    },
    {
      name: 'negative values at the extremes',
      tier: 'core',
      trap: 'negative-values',
      hint: 'Values can be negative, down to -10^5. Check that every place a value is stored, then taken back out of the window, keeps its sign.',
      ...fed(
        2,
        [-100_000, 100_000, -5, -7, 3, -100_000],
        [-100_000, 0, 49_997.5, -6, -2, -49_998.5],
      ),
    },
    {
      name: 'two windows interleaved',
      tier: 'core',
      trap: 'instance-isolation',
      beyondLeetCode: true,
      hint: 'Each MovingAverage must keep its own values and its own sum. Is any of your state shared by every instance?',
      methods: [
        'MovingAverage',
        'MovingAverage',
        'next',
        'next',
        'next',
        'next',
        'next',
        'next',
        'next',
        'next',
      ],
      args: [[2], [3], [1], [10], [3], [20], [5], [30], [40], [-1]],
      targets: [0, 1, 0, 1, 0, 1, 0, 1, 1, 0],
      expected: [null, null, 1, 10, 2, 15, 4, 20, 30, 2],
    },
    {
      name: '10^4 calls, window of 1000',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input LeetCode allows, with runs of values at both extremes. Check the edge cases again.',
      ...feeds(1000, maxInputValues()),
    },
    {
      name: 'random values against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random sequence of values disagrees with the reference; the counterexample shows the smallest one found.',
      property: {
        calls: fc
          .record({
            size: fc.integer({ min: 1, max: 8 }),
            values: fc.array(
              fc.oneof(
                fc.integer({ min: -10, max: 10 }),
                fc.integer({ min: -MAX_VAL, max: MAX_VAL }),
              ),
              { minLength: 1, maxLength: 40 },
            ),
          })
          .map(({ size, values }) => fed(size, values, [])),
      },
    },
    {
      name: `window of 2·10^5, 5·10^5 values`,
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        slow: 'Follow-up: the window holds 200,000 values. Each call must cost O(1) whatever the window size: think about what re-adding the window, or removing its oldest value, really costs.',
      },
      describe: `MovingAverage(${SCALE_SIZE}), then ${SCALE_CALLS} calls to next() with integers spread over [-10^5, 10^5]`,
      timeLimitMs: 1300, // the reference takes 220–235 ms on a busy machine; shift() over 13 s
      generate(emit) {
        emit({ method: 'MovingAverage', args: [SCALE_SIZE], expected: null });
        const call = { method: 'next', args: [0], expected: 0 };
        const entering = scaleValues();
        const leaving = scaleValues(); // the same values, SCALE_SIZE calls behind
        let sum = 0; // an exact integer: |sum| <= 2·10^10
        for (let i = 0; i < SCALE_CALLS; i++) {
          const val = entering();
          sum += val;
          if (i >= SCALE_SIZE) sum -= leaving();
          call.args[0] = val;
          call.expected = sum / (i < SCALE_SIZE ? i + 1 : SCALE_SIZE);
          emit(call);
        }
      },
    },
  ],
});
