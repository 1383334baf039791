// Hidden suite for 480. Examples must match the statement (a test checks it); hidden cases each aim
// at one trap and carry a hint that points at the idea without giving the code. A case is a list of
// calls of medianSlidingWindow(nums, k), each with the medians expected. Medians are compared
// within 1e-5, as LeetCode does (and -0 equals 0); the small cases' answers are worked out by hand.
import fc from 'fast-check';
import { defineSuite, functionCalls, withinTolerance, type Encoded } from '../../harness/suite.ts';
import { medianSlidingWindow } from './solution.ts';

const NAME = 'medianSlidingWindow';
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;

/** One call per [nums, k, medians]. */
function windows(...calls: [number[], number, number[]][]): Encoded {
  return functionCalls(
    NAME,
    calls.map(([nums, k, medians]) => ({ args: [nums, k], expected: medians })),
  );
}

/**
 * Random calls: up to 60 values, mostly from a handful (so windows repeat values and a value
 * leaves while copies of it stay), sometimes the 32-bit extremes; k from 1 to 16. Sets of deleted
 * values and a delete map shared by both heaps fail within a few runs, and shrink to a short
 * counterexample.
 */
const randomCalls: fc.Arbitrary<Encoded> = fc
  .record({
    nums: fc.array(
      fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: -5, max: 5 }) },
        { weight: 1, arbitrary: fc.constantFrom(INT_MIN, INT_MIN + 1, INT_MAX - 1, INT_MAX) },
      ),
      // 'max': lengths spread up to 60 (fast-check's default size keeps arrays to about 10).
      { minLength: 1, maxLength: 60, size: 'max' },
    ),
    k: fc.integer({ min: 1, max: 16 }),
  })
  .map(({ nums, k }) => windows([nums, Math.min(k, nums.length), []]));

// The scale case, beyond LeetCode's sizes: SCALE_N values falling by SCALE_STEP from 2^31 - 1 to
// near -2^31, two by two out of order (value i is the (i XOR 1)-th step down), and a window of
// SCALE_K, so 1.2·10^5 windows. Each new value is the smallest or second smallest of its window,
// and each value that leaves the largest or second largest. Two heaps pay O(log k) per value. An
// array kept sorted pays O(k) per value to make room for it at the front (O(k^2) just to fill the
// first window); sorting every window pays O(k log k) per window; a heap that searches its array
// for the value that leaves finds it among the last leaves, O(k) per window. At LeetCode's sizes
// the sorted array is only a few times slower than the heaps (moving memory is fast); here it is
// tens of times slower.
const SCALE_N = 650_000;
const SCALE_K = 530_000;
const SCALE_STEP = 6_000;

/** Value i of the scale case. */
const scaleValue = (i: number): number => INT_MAX - SCALE_STEP * (i ^ 1);

/**
 * The median of the scale case's window from `start`. The window's values are the steps
 * start .. start + k - 1, except that an end whose partner is outside the window is one step
 * further out; the middle steps are untouched, so the median is the value at the middle step.
 */
const scaleMedian = (start: number): number => INT_MAX - SCALE_STEP * (start + (SCALE_K - 1) / 2);

export default defineSuite({
  reference: medianSlidingWindow,
  exports: 'function',
  equals: withinTolerance(1e-5),
  cases: [
    {
      name: 'statement example 1',
      tier: 'example',
      trap: null,
      ...windows([[1, 3, -1, -3, 5, 3, 6, 7], 3, [1, -1, -1, 3, 5, 6]]),
    },
    {
      name: 'statement example 2',
      tier: 'example',
      trap: null,
      ...windows([[1, 2, 3, 4, 2, 3, 1, 4, 2], 3, [2, 3, 3, 3, 2, 3, 2]]),
    },
    {
      name: 'windows of one value (k = 1), and odd windows',
      tier: 'core',
      trap: 'odd-window',
      hint: 'When k is odd, a window has exactly one middle value once sorted, and that value is the median: nothing is averaged. With k = 1 every value is its own median.',
      ...windows(
        [[5, 1, 4], 1, [5, 1, 4]],
        [[7], 1, [7]],
        [[5, 1, 4, 2, 8, 6], 3, [4, 2, 4, 6]],
        [[5, 1, 4, 2, 8, 6], 5, [4, 4]],
      ),
    },
    {
      name: 'the mean of two 32-bit extremes, and of a negative odd sum',
      tier: 'core',
      trap: 'int-overflow-median',
      hint: 'Values reach 2^31 - 1 and -2^31, and a mean may end in .5 on either side of zero. Halve with /, not with a bit shift: >> works on 32-bit integers, so the sum of two large values wraps around, and -3 >> 1 is -2, not -1.5.',
      ...windows(
        [[INT_MAX, INT_MAX], 2, [INT_MAX]],
        [[-3, 0], 2, [-1.5]],
        [[INT_MIN, INT_MIN, INT_MAX, INT_MAX], 2, [INT_MIN, -0.5, INT_MAX]],
      ),
    },
    {
      name: 'even windows: the mean of the two middle values',
      tier: 'core',
      trap: 'even-window',
      hint: 'When k is even, a sorted window has two middle values, and the median is their mean, which may end in .5: the median of 1, 2, 3, 4 is 2.5.',
      ...windows(
        [[5, 1, 4, 2, 8, 6], 2, [3, 2.5, 3, 5, 7]],
        [[5, 1, 4, 2, 8, 6], 4, [3, 3, 5]],
        [[5, 1, 4, 2, 8, 6], 6, [4.5]],
        [[10, 8, 6, 4, 2, 0], 4, [7, 5, 3]],
      ),
    },
    {
      name: 'windows sorted as numbers, not as text',
      tier: 'core',
      trap: 'lexicographic-sort',
      hint: 'sort() with no comparator compares values as strings: 10 comes before 2, and -2147483648 before 3. Sort numbers with a comparator, (a, b) => a - b, or keep them in a structure that compares numbers.',
      ...windows(
        [[INT_MIN, 3, 10, 2], 4, [2.5]],
        [[INT_MIN, 3, 10, 2], 3, [3, 3]],
        [[20, 3, 100, 9, 1000], 3, [20, 9, 100]],
      ),
    },
    {
      name: 'windows that hold one value several times',
      tier: 'core',
      trap: 'duplicates',
      hint: 'A window may hold a value several times, and each copy counts. When one copy leaves the window, the others stay: take out exactly one.',
      ...windows(
        [[4, -5, -5, 4, 4, -3, 5, 4, -2, 0], 8, [4, 1, 2]],
        [[7, 7, 7, 7, 7], 2, [7, 7, 7, 7]],
        [[3, 1, 3, 1, 3, 1, 3], 3, [3, 1, 3, 1, 3]],
        [[1, 1, 2, 2, 1, 1, 2, 2, 1], 4, [1.5, 1.5, 1.5, 1.5, 1.5, 1.5]],
        [[0, 3, 3, 2, 1, 3, 3, 2, 2, 1, 0], 8, [2.5, 2.5, 2, 2]],
      ),
    },
    {
      name: 'windows of negative values only',
      tier: 'core',
      trap: 'all-negative',
      hint: 'Every value may be negative, down to -2^31. Anything that starts from 0, or from Number.MIN_VALUE (the smallest positive number, not the lowest one), as "smaller than everything" is wrong then: start from -Infinity, or from a value of the window.',
      ...windows(
        [[-5, -1, -8, -3, -9, -2], 3, [-5, -3, -8, -3]],
        [[-5, -1, -8, -3, -9, -2], 2, [-3, -4.5, -5.5, -6, -5.5]],
        [[INT_MIN, -1, INT_MIN, -7], 3, [INT_MIN, -7]],
      ),
    },
    {
      name: 'windows with zeros',
      tier: 'core',
      trap: 'negative-zero',
      hint: 'A value of 0 is a value like any other. If you test whether a heap is empty, or whether a value is there, by its truthiness, a 0 reads as "nothing". (A median of -0 counts as 0.)',
      ...windows(
        [[-1, 0, 0, 0], 4, [0]],
        [[0, 2, 5, -3, 0, 1], 3, [2, 2, 0, 0]],
        [[0, 0, -1, 1, 0], 2, [0, -0.5, 0, 0.5]],
      ),
    },
    {
      name: 'values that leave while copies of them stay',
      tier: 'core',
      trap: 'lazy-deletion',
      hint: 'If you delete lazily, count the copies to delete per value, and per heap: a Set cannot say that two copies of a value have left, and one map for both heaps mixes them up when one heap stores values negated (a -1 stored as 1 is not the other heap’s 1).',
      ...windows(
        [[0, 0, 0, 0, 5, 2, 0, 0, 4, 2], 5, [0, 0, 0, 0, 2, 2]],
        [[-1, 1, 1, -1, 5, 2, 0, 0, 4, 2], 5, [1, 1, 1, 0, 2, 2]],
        [
          [2, 1, -1, 2, 0, 2, 0, -1, 1, 1, 0, -2, -2],
          4,
          [1.5, 0.5, 1, 1, 0, 0.5, 0.5, 0.5, 0.5, -1],
        ],
        // Two dead copies of one value reach the top together, and a live one stays under them.
        [[1, 1, 2, 2, 2, 0, 1], 4, [1.5, 2, 2, 1.5]],
        [[0, 0, 2, 3, 1, 0, 0], 4, [1, 1.5, 1.5, 0.5]],
      ),
    },
    {
      name: 'steady climbs and falls, where deleted values pile up',
      tier: 'core',
      trap: 'rebalance-by-valid-count',
      hint: 'A heap that deletes lazily still holds values that have left the window, until they reach its top. Balance the two halves by how many live values each holds, not by the lengths of their arrays.',
      ...windows(
        [
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
          4,
          [2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5],
        ],
        [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 5, [3, 4, 5, 6, 7, 8, 9, 10]],
        [
          [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
          4,
          [10.5, 9.5, 8.5, 7.5, 6.5, 5.5, 4.5, 3.5, 2.5],
        ],
      ),
    },
    {
      name: 'random windows against the reference',
      tier: 'core',
      trap: 'random-core',
      hint: 'A short random input disagrees with the reference; the counterexample shows the smallest one found. Look for repeated values leaving the window.',
      property: { calls: randomCalls, numRuns: 100 },
    },
    {
      name: `${SCALE_N / 1000}k values, k = ${SCALE_K / 1000}k`,
      tier: 'follow-up',
      trap: 'scale',
      hint: {
        slow: `Follow-up: ${SCALE_N} values and a window of ${SCALE_K}. Each step must cost far less than k: sorting every window, moving values in a sorted array, or searching a heap for the value that leaves all cost O(k) or more per step.`,
      },
      describe: `medianSlidingWindow(nums, ${SCALE_K}) on ${SCALE_N} values falling from 2^31 - 1 by steps of ${SCALE_STEP}, two by two out of order`,
      timeLimitMs: 3000,
      generate(emit) {
        const nums = Array.from({ length: SCALE_N }, (_, i) => scaleValue(i));
        const medians = Array.from({ length: SCALE_N - SCALE_K + 1 }, (_, s) => scaleMedian(s));
        emit({ method: NAME, args: [nums, SCALE_K], expected: medians });
      },
    },
  ],
});
