// Write your LeakyBucketQueue here. `npm run kata leaky-bucket-queue` judges this file on every
// save. What remaining, resetAt and retryAt mean, and the rules every limiter of the track keeps,
// are in problems/rate-limiter-contract.md. A solution stands on its own: it may import types only.
import type { Clock, RateLimitResult } from '../../problems/rate-limiter-contract.ts';

/** The contract's answer, and when the request is let through (a refused one: would have been). */
export type QueueResult = RateLimitResult & { startAt: number };

export class LeakyBucketQueue {
  constructor(capacity: number, leakPerSecond: number, clock: Clock) {}

  submit(key: string): QueueResult {
    throw new Error('Not implemented: LeakyBucketQueue.submit');
  }
}
