// Write your KthLargest here. `npm run kata 703` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class KthLargest {
  constructor(k: number, nums: number[]) {}

  add(val: number): number {
    throw new Error('Not implemented: KthLargest.add');
  }
}
