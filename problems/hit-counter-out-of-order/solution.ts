// Write your HitCounter here. `npm run kata hit-counter-out-of-order` judges this file on every
// save. The class has 362's shape: what changes is that hits may arrive late.

export class HitCounter {
  constructor() {}

  hit(timestamp: number): void {
    throw new Error('Not implemented: HitCounter.hit');
  }

  getHits(timestamp: number): number {
    throw new Error('Not implemented: HitCounter.getHits');
  }
}
