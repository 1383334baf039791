// Write your SlidingWindowCounterLimiter here. `npm run kata sliding-window-counter-limiter` judges
// this file on every save. What every field of the answer means, and the rules every limiter keeps,
// are in problems/rate-limiter-contract.md. The types below may be imported (`import type` only: a
// solution stands on its own). The path works from this folder and from the one `reset` copies from.
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

export class SlidingWindowCounterLimiter implements RateLimiter {
  constructor(limit: number, windowMs: number, clock: Clock) {}

  allow(key: string, cost: number = 1): RateLimitResult {
    throw new Error('Not implemented: SlidingWindowCounterLimiter.allow');
  }

  peek(key: string, cost: number = 1): RateLimitResult {
    throw new Error('Not implemented: SlidingWindowCounterLimiter.peek');
  }
}
