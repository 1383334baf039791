// Write your TokenBucketLimiter here. `npm run kata token-bucket-limiter` judges this file on every
// save. What each field of the answer means, and the rules every limiter keeps, are in
// problems/rate-limiter-contract.md. A solution stands on its own: it may import types only.
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

export class TokenBucketLimiter implements RateLimiter {
  constructor(capacity: number, refillPerSecond: number, clock: Clock) {}

  allow(key: string, cost: number = 1): RateLimitResult {
    throw new Error('Not implemented: TokenBucketLimiter.allow');
  }

  peek(key: string, cost: number = 1): RateLimitResult {
    throw new Error('Not implemented: TokenBucketLimiter.peek');
  }
}
