// Write your RecentCounter here. `npm run kata 933` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class RecentCounter {
  constructor(window: number = 3000) {}

  ping(t: number): number {
    throw new Error('Not implemented: RecentCounter.ping');
  }
}
