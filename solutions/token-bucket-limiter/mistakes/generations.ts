// Keeps two generations of buckets and drops the older one each time an empty bucket could
// have filled up (capacity / rate seconds): never early, but a bucket that is full a second after
// it was touched is kept for up to twice that time. With a big bucket and a slow rate, that is
// every key of the last few minutes.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'idle-eviction' };

interface Bucket {
  tokens: number;
  last: number;
}

export class TokenBucketLimiter implements RateLimiter {
  private mark = -Infinity;
  private young = new Map<string, Bucket>();
  private old = new Map<string, Bucket>();
  private epoch = -Infinity;
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
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    this.rotate(now);
    const bucket = this.young.get(key) ?? this.old.get(key);
    const level = bucket === undefined ? this.capacity : this.levelAt(bucket, now);
    const allowed = cost <= this.capacity && level >= cost - this.slack;
    const after = allowed ? Math.max(0, level - cost) : level;
    if (allowed && take) {
      this.young.set(key, { tokens: after, last: now });
      this.old.delete(key);
    }
    return {
      allowed,
      remaining: Math.floor(after + this.slack),
      resetAt: now + this.msUntil(after, this.capacity),
      retryAt: allowed ? now : cost > this.capacity ? Infinity : now + this.msUntil(level, cost),
    };
  }

  /** Everything written before the current generation began is full by the next one. */
  private rotate(now: number): void {
    const fill = (this.capacity * 1000) / this.rate;
    if (now < this.epoch + fill) return;
    this.old = now < this.epoch + 2 * fill ? this.young : new Map();
    this.young = new Map();
    this.epoch = now;
  }

  private levelAt(bucket: Bucket, now: number): number {
    return Math.min(this.capacity, bucket.tokens + ((now - bucket.last) * this.rate) / 1000);
  }

  private msUntil(level: number, target: number): number {
    const short = target - level - this.slack;
    return short <= 0 ? 0 : Math.ceil((short * 1000) / this.rate);
  }
}
