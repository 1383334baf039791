// Write your HitCounter here. `npm run kata 362` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class HitCounter {
  constructor(window: number = 300) {}

  hit(timestamp: number): void {
    throw new Error('Not implemented: HitCounter.hit');
  }

  getHits(timestamp: number): number {
    throw new Error('Not implemented: HitCounter.getHits');
  }
}
