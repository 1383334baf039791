// Hidden suite for 239. A function problem: every call is a call of maxSlidingWindow, with its own
// arguments, judged on its own. Examples must match the statement (a test checks it); hidden cases
// each aim at one trap and carry a hint that points at the idea without giving the code. Small
// answers are worked out by hand; long inputs take the reference's answers.
import fc from 'fast-check';
import { defineSuite, functionCalls, type Encoded } from '../../harness/suite.ts';
import { maxSlidingWindow } from './solution.ts';

const NAME = 'maxSlidingWindow';

/** Calls of maxSlidingWindow, each `[nums, k, answer]`. */
function calls(...each: [number[], number, number[]][]): Encoded {
  return functionCalls(
    NAME,
    each.map(([nums, k, expected]) => ({ args: [nums, k], expected })),
  );
}

const MAX_VAL = 10_000;

/** n values in [-10^4, 10^4] from a Park–Miller generator (every step exact in doubles). */
function spread(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 48271) % 2147483647;
    return (x % (2 * MAX_VAL + 1)) - MAX_VAL;
  });
}

/** The max-input case's calls: LeetCode's largest n, with windows that leave few positions or many. */
const MAX_INPUTS: [number[], number][] = [
  [spread(100_000, 12345), 7],
  [spread(100_000, 777), 99_990],
  [spread(100_000, 4242), 100_000],
];

// The scale follow-up: SCALE_N equal values with a window of SCALE_K. Equal values all stay in a
// deque that keeps ties (as it must: see equal-maxima), so the deque holds the whole window; a
// deque whose front leaves by `shift()` then copies ~SCALE_K indices at every step, since V8 moves
// an array of 16,384 or more items on each shift. Rescanning every window is O(n·k) on any input.
// The limit is set against the slowest design that must pass, a heap with lazy deletion
// (test/compat/239-…/heap-lazy-deletion.ts), not against the deque.
const SCALE_N = 1_200_000;
const SCALE_K = 600_000;
const SCALE_VALUE = 7;

// The spread-limit follow-up: a window of SPREAD_K values, more than V8 takes as arguments.
const SPREAD_N = 200_000;
const SPREAD_K = 150_000;

export default defineSuite({
  reference: maxSlidingWindow,
  exports: 'function',
  // State kept outside the function shows as calls that fail after others ran, and pass alone.
  sharedStateTrap: 'out-of-window-state',
  cases: [
    {
      name: 'statement example 1',
      tier: 'example',
      trap: null,
      ...calls([[1, 3, -1, -3, 5, 3, 6, 7], 3, [3, 3, 5, 5, 6, 7]]),
    },
    {
      name: 'statement example 2',
      tier: 'example',
      trap: null,
      ...calls([[1], 1, [1]]),
    },
    {
      name: 'a maximum that repeats',
      tier: 'core',
      trap: 'equal-maxima',
      hint: 'Two equal values can both be the maximum of some window. When a value equal to the back of your deque arrives, does the older one stay or go, and what does your expiry then remove?',
      ...calls([[5, 5, 1], 2, [5, 5]], [[1, 3, 3, 1, 2], 3, [3, 3, 3]], [[3, 1, 1, 3], 3, [3, 3]]),
    },
    {
      name: 'the front leaves on time',
      tier: 'core',
      trap: 'expire-late',
      hint: 'The window ending at index i starts at i - k + 1. An index smaller than that is out, even if its value is the largest you have seen.',
      ...calls([[3, 1, 1], 2, [3, 1]], [[7, 2, 4, 1, 1], 3, [7, 4, 4]]),
    },
    {
      name: 'the newest winner stays',
      tier: 'core',
      trap: 'expire-early',
      hint: 'The window ending at index i still holds index i - k + 1. Check which index your expiry compares with: an off-by-one there drops the maximum one step too soon.',
      ...calls([[3, 1], 2, [3]], [[4, 2, 12, 3], 3, [12, 12]]),
    },
    {
      name: 'a large first value',
      tier: 'core',
      trap: 'never-expires',
      hint: 'A value larger than everything after it still has to leave the window once it is k places behind. What removes it from the front?',
      ...calls([[9, 1, 1, 1], 2, [9, 1, 1]], [[10_000, -3, -2, -1, 0], 2, [10_000, -2, -1, 0]]),
    },
    {
      name: 'windows of one value',
      tier: 'core',
      trap: 'k-equals-one',
      hint: 'With k = 1 every window is a single value: the answer is the input itself, one value per index.',
      ...calls([[4, -2, 7, 7, -10_000], 1, [4, -2, 7, 7, -10_000]]),
    },
    {
      name: 'one window over everything',
      tier: 'core',
      trap: 'k-equals-n',
      hint: 'With k equal to the length there is exactly one window, so one answer: the largest value of the whole input.',
      ...calls([[2, -1, 8, 3], 4, [8]], [[-5, -7, -9], 3, [-5]]),
    },
    {
      name: 'values that only fall',
      tier: 'core',
      trap: 'descending',
      hint: 'On a falling input nothing is ever removed from the back: every window’s maximum is its oldest value, which must leave exactly when it falls out.',
      ...calls([[9, 7, 5, 3, 1, -1], 2, [9, 7, 5, 3, 1]], [[6, 5, 4, 3, 2, 1], 4, [6, 5, 4]]),
    },
    {
      name: 'values that only rise',
      tier: 'core',
      trap: 'ascending',
      hint: 'On a rising input every new value is the maximum of its window, and everything before it stops mattering.',
      ...calls([[1, 2, 3, 4, 5], 3, [3, 4, 5]], [[-9, -4, 0, 4, 9], 2, [-4, 0, 4, 9]]),
    },
    {
      name: 'two calls in a row',
      tier: 'core',
      trap: 'out-of-window-state',
      beyondLeetCode: true,
      hint: 'Each call gets a new array and must answer from it alone. Is anything kept from one call to the next (a deque or a counter outside the function)?',
      ...calls([[1, 100], 2, [100]], [[5, 4, 3], 2, [5, 4]], [[2, 1, 0], 1, [2, 1, 0]]),
    },
    {
      name: 'the largest input, several window sizes',
      tier: 'core',
      trap: 'max-input',
      hint: 'The largest input LeetCode allows (10^5 values over the whole range), with a small window, a window of all but ten values, and the whole array. Check the edge cases again.',
      ...calls(
        ...MAX_INPUTS.map(([nums, k]): [number[], number, number[]] => [
          nums,
          k,
          maxSlidingWindow(nums, k),
        ]),
      ),
    },
    {
      name: 'random inputs against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random input disagrees with the reference; the counterexample shows the smallest one found.',
      property: {
        calls: fc
          .array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 24 })
          .chain((nums) => fc.tuple(fc.constant(nums), fc.integer({ min: 1, max: nums.length })))
          .map(([nums, k]) => functionCalls(NAME, [{ args: [nums, k], expected: null }])),
      },
    },
    {
      name: `${SCALE_N} equal values, a window of ${SCALE_K}`,
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        wrong:
          'Follow-up: every value is the same. Every window’s maximum is that value; check what your deque keeps when values tie.',
        slow: 'Follow-up: 1,200,000 values, a window of 600,000, all equal. Each step must cost O(1) on average whatever the window size: think about what taking the front off an array really costs when it holds the whole window, and about scanning each window again.',
      },
      describe: `maxSlidingWindow(${SCALE_N} copies of ${SCALE_VALUE}, ${SCALE_K})`,
      // The reference ~160 ms and a heap with lazy deletion ~320 ms; shift() about 40 s (see the
      // margins in the README, measured on a loaded machine).
      timeLimitMs: 3500,
      generate(emit) {
        emit({
          method: NAME,
          args: [new Array<number>(SCALE_N).fill(SCALE_VALUE), SCALE_K],
          expected: new Array<number>(SCALE_N - SCALE_K + 1).fill(SCALE_VALUE),
        });
      },
    },
    {
      name: `a window of ${SPREAD_K} values`,
      tier: 'follow-up',
      trap: 'spread-limit',
      hint: 'Follow-up: a window of 150,000 values. Spreading an array into a call (`Math.max(...window)`) passes each item as an argument, and an engine takes only so many: past about 120,000 it throws a RangeError.',
      describe: `maxSlidingWindow(${SPREAD_N} values in [-10^4, 10^4], ${SPREAD_K})`,
      generate(emit) {
        const nums = spread(SPREAD_N, 2024);
        emit({ method: NAME, args: [nums, SPREAD_K], expected: maxSlidingWindow(nums, SPREAD_K) });
      },
    },
  ],
});
