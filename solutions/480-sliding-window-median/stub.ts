// Write your medianSlidingWindow here. `npm run kata 480` judges this file on every save.
// A function pasted from LeetCode works as it is, as long as it is exported.

export function medianSlidingWindow(nums: number[], k: number): number[] {
  throw new Error('Not implemented: medianSlidingWindow');
}
