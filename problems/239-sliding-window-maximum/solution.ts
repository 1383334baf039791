// Write your maxSlidingWindow here. `npm run kata 239` judges this file on every save.
// A function pasted from LeetCode works as it is, as long as it is exported.

export function maxSlidingWindow(nums: number[], k: number): number[] {
  throw new Error('Not implemented: maxSlidingWindow');
}
