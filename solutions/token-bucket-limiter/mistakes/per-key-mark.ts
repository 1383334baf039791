// Keeps a high-water mark per key instead of one for the whole limiter, so a key not seen since
// the clock stepped back acts at the earlier time.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'clock-backwards' };

interface Bucket {
  tokens: number;
  last: number;
}

export class TokenBucketLimiter implements RateLimiter {
  private readonly marks = new Map<string, number>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly slack: number;

  constructor(
    private readonly capacity: number,
    private readonly rate: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError('bad capacity');
    if (!Number.isFinite(rate) || rate <= 0) throw new RangeError('bad rate');
    this.slack = 1e-9 * capacity;
  }

  allow(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    if (!Number.isInteger(cost) || cost <= 0) throw new RangeError('bad cost');
    const now = Math.max(this.marks.get(key) ?? -Infinity, this.clock.now());
    this.marks.set(key, now);
    const bucket = this.buckets.get(key);
    const level = bucket === undefined ? this.capacity : this.levelAt(bucket, now);
    const allowed = cost <= this.capacity && level >= cost - this.slack;
    const after = allowed ? Math.max(0, level - cost) : level;
    if (allowed && take) this.buckets.set(key, { tokens: after, last: now });
    return {
      allowed,
      remaining: Math.floor(after + this.slack),
      resetAt: now + this.msUntil(after, this.capacity),
      retryAt: allowed ? now : cost > this.capacity ? Infinity : now + this.msUntil(level, cost),
    };
  }

  private levelAt(bucket: Bucket, now: number): number {
    return Math.min(this.capacity, bucket.tokens + ((now - bucket.last) * this.rate) / 1000);
  }

  private msUntil(level: number, target: number): number {
    const short = target - level - this.slack;
    return short <= 0 ? 0 : Math.ceil((short * 1000) / this.rate);
  }
}
