// Write your MovingAverage here. `npm run kata 346` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class MovingAverage {
  constructor(size: number) {}

  next(val: number): number {
    throw new Error('Not implemented: MovingAverage.next');
  }
}
