// Counts in thousandths of a token and compares exactly: with a whole-number rate every level is
// a whole number and this is exact; with a decimal rate it is not, and a request that is due by a
// hair's breadth of rounding is refused, or its retryAt comes a millisecond late.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'fractional-rate' };

interface Bucket {
  tokens: number;
  last: number;
}

export class TokenBucketLimiter implements RateLimiter {
  private mark = -Infinity;
  private readonly buckets = new Map<string, Bucket>();
  private readonly slack: number;

  constructor(
    private readonly capacity: number,
    private readonly rate: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError('bad capacity');
    if (!Number.isFinite(rate) || rate <= 0) throw new RangeError('bad rate');
    this.slack = 0;
  }

  allow(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    if (!Number.isInteger(cost) || cost <= 0) throw new RangeError('bad cost');
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const bucket = this.buckets.get(key);
    const level = bucket === undefined ? this.capacity * 1000 : this.levelAt(bucket, now);
    const allowed = cost <= this.capacity && level >= cost * 1000;
    const after = allowed ? level - cost * 1000 : level;
    if (allowed && take) this.buckets.set(key, { tokens: after, last: now });
    return {
      allowed,
      remaining: Math.floor(after / 1000),
      resetAt: now + this.msUntil(after, this.capacity),
      retryAt: allowed ? now : cost > this.capacity ? Infinity : now + this.msUntil(level, cost),
    };
  }

  private levelAt(bucket: Bucket, now: number): number {
    return Math.min(this.capacity * 1000, bucket.tokens + (now - bucket.last) * this.rate);
  }

  private msUntil(level: number, target: number): number {
    const short = target * 1000 - level;
    return short <= 0 ? 0 : Math.ceil(short / this.rate);
  }
}
