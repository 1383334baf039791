// Write your TokenBucket here. `npm run kata token-bucket` judges this file on every save.
// There is no LeetCode version of this one: the class below is the whole contract.

export class TokenBucket {
  constructor(rate: number, capacity: number) {}

  allow(now: number, cost: number = 1): boolean {
    throw new Error('Not implemented: TokenBucket.allow');
  }
}
