// The 480 reference against the median's definition: sort each window, read its middle. The suite's
// written-out answers are checked against it too, so they do not rest on the reference alone, and
// the reference is played against it on the suite's own random inputs (32-bit extremes, repeated
// values leaving the window) and on longer ones.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { decode, isFixed, isProperty } from '../../harness/suite.ts';
import { medianSlidingWindow } from '../../solutions/480-sliding-window-median/solution.ts';
import suite from '../../solutions/480-sliding-window-median/suite.ts';

/** The medians by definition: each window sorted as numbers, the mean of its middle one or two. */
function byDefinition(nums: readonly number[], k: number): number[] {
  const medians: number[] = [];
  for (let start = 0; start + k <= nums.length; start++) {
    const sorted = nums.slice(start, start + k).sort((a, b) => a - b);
    medians.push(((sorted[(k - 1) >> 1] as number) + (sorted[k >> 1] as number)) / 2);
  }
  return medians;
}

test('the suite’s written-out answers are the medians by definition', () => {
  const fixed = suite.cases.filter(isFixed);
  expect(fixed.length).toBeGreaterThan(5);
  for (const c of fixed) {
    for (const call of decode(c)) {
      const [nums, k] = call.args as [number[], number];
      expect(call.expected, `${c.name}: k = ${k}`).toEqual(byDefinition(nums, k));
    }
  }
});

test('the reference gives the medians by definition on the suite’s random inputs', () => {
  const property = suite.cases.find(isProperty);
  if (!property) throw new Error('the suite has no random case');
  fc.assert(
    fc.property(property.property.calls, (encoded) => {
      for (const call of decode(encoded)) {
        const [nums, k] = call.args as [number[], number];
        expect(medianSlidingWindow([...nums], k)).toEqual(byDefinition(nums, k));
      }
    }),
    { numRuns: 500 },
  );
});

test('the reference gives the medians by definition on long windows of few values', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 300 }),
      fc.integer({ min: 1, max: 120 }),
      (nums, k) => {
        const size = Math.min(k, nums.length);
        expect(medianSlidingWindow([...nums], size)).toEqual(byDefinition(nums, size));
      },
    ),
    { numRuns: 200 },
  );
});
