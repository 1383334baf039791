// The leaky bucket as a meter, the way many write-ups code it: a level per key that drains at the
// rate and rises by one per accepted request, refused when it would overflow. An accepted request
// goes through at once (startAt is now), so after a quiet spell the level is zero and a whole
// bucketful passes at one instant: the burst a queue exists to prevent.
import type { Clock, RateLimitResult } from '../../../problems/rate-limiter-contract.ts';

export type QueueResult = RateLimitResult & { startAt: number };

export const expectation = { verdict: 'wrong-answer', trap: 'no-burst-after-idle' };

interface Bucket {
  level: number;
  at: number;
}

export class LeakyBucketQueue {
  private mark = -Infinity;
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly capacity: number,
    private readonly rate: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError('bad capacity');
    if (!Number.isFinite(rate) || rate <= 0) throw new RangeError('bad leakPerSecond');
  }

  submit(key: string): QueueResult {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const interval = 1000 / this.rate;
    const bucket = this.buckets.get(key) ?? { level: 0, at: now };
    // What has leaked out since the last look.
    const level = Math.max(0, bucket.level - (now - bucket.at) / interval);
    // One request in flight plus `capacity` more: the same room as the queue, used at once.
    if (level + 1 <= this.capacity + 1) {
      this.buckets.set(key, { level: level + 1, at: now });
      return {
        allowed: true,
        remaining: Math.floor(this.capacity - level),
        resetAt: Math.ceil(now + (level + 1) * interval),
        retryAt: now,
        startAt: now,
      };
    }
    return {
      allowed: false,
      remaining: 0,
      resetAt: Math.ceil(now + level * interval),
      retryAt: Math.ceil(now + (level - this.capacity) * interval),
      startAt: now,
    };
  }
}
