// Write your RedisSlidingWindowLog here. `npm run kata redis-sliding-window-log` judges this file on
// every save, against a redis-server the judge starts. What each field of the answer means is in
// problems/rate-limiter-contract.md. A solution stands on its own: it may import types only.
import type { RedisClient } from '../../problems/redis-client.ts';
import type { RateLimitResult } from '../../problems/rate-limiter-contract.ts';

export class RedisSlidingWindowLog {
  constructor(redis: RedisClient, limit: number, windowMs: number) {}

  async allow(key: string, cost: number = 1): Promise<RateLimitResult> {
    throw new Error('Not implemented: RedisSlidingWindowLog.allow');
  }
}
