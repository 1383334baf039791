// The tolerance for rounding errors as a share of the bucket, 1e-9 × capacity, used everywhere:
// right for small buckets, but a tolerance in tokens is also one in time and in counts. At 0.001
// tokens a second a millisecond adds 10^-6 tokens, a whole 1e-9 × 1000, so taking it off a wait
// makes resetAt and retryAt a millisecond early; at a capacity of 10^9 it is a whole token, so
// remaining counts one token too many.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'extreme-settings' };

/**
 * How far short of a target a level may be and still count, as a share of
 * capacity.
 */
const EPSILON = 1e-9;
/** Short buckets the eviction cursor passes per call. */
const SWEEP = 2;

interface Bucket {
  /** The level right after the last allowed request. */
  tokens: number;
  /** When that request was allowed (effective time, ms). */
  last: number;
}

export class TokenBucketLimiter implements RateLimiter {
  /**
   * The latest clock reading seen by any call: the limiter's "now" never goes
   * below it.
   */
  private mark = -Infinity;
  /** Buckets not known to be full; a key missing here has a full one. */
  private readonly buckets = new Map<string, Bucket>();
  private cursor: Iterator<[string, Bucket]>;
  /** EPSILON · capacity, in tokens. */
  private readonly slack: number;

  constructor(
    private readonly capacity: number,
    private readonly refillPerSecond: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0) {
      throw new RangeError(`refillPerSecond must be a finite number > 0, got ${refillPerSecond}`);
    }
    this.slack = EPSILON * capacity;
    this.cursor = this.buckets.entries();
  }

  allow(key: string, cost: number = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost: number = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    // Checked before the clock is read: a call that throws changes nothing, not
    // even the mark.
    if (!Number.isInteger(cost) || cost <= 0) {
      throw new RangeError(`cost must be a positive integer, got ${cost}`);
    }
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    this.sweep(now);
    const bucket = this.buckets.get(key);
    const level = bucket === undefined ? this.capacity : this.levelAt(bucket, now);
    // The capacity test is exact and comes first: the level never exceeds
    // capacity, so the slack must not let a cost just above it through.
    const allowed = cost <= this.capacity && level >= cost - this.slack;
    // Within the slack the level may sit a hair below cost: no debt is kept.
    const after = allowed ? Math.max(0, level - cost) : level;
    if (allowed && take) {
      if (bucket === undefined) this.buckets.set(key, { tokens: after, last: now });
      else {
        bucket.tokens = after;
        bucket.last = now;
      }
    }
    return {
      allowed,
      remaining: Math.floor(after + this.slack),
      resetAt: now + this.msUntil(after, this.capacity),
      retryAt: allowed ? now : cost > this.capacity ? Infinity : now + this.msUntil(level, cost),
    };
  }

  /** The bucket's level at `now` (never before `last`: the mark sees to it). */
  private levelAt(bucket: Bucket, now: number): number {
    return Math.min(
      this.capacity,
      bucket.tokens + ((now - bucket.last) * this.refillPerSecond) / 1000,
    );
  }

  /** Whole ms until a bucket at `level` holds `target` tokens (0: it does). */
  private msUntil(level: number, target: number): number {
    const short = target - level - this.slack;
    return short <= 0 ? 0 : Math.ceil((short * 1000) / this.refillPerSecond);
  }

  /**
   * Moves the cursor on round the map, dropping every bucket that is full by
   * `now` (they answer like no bucket at all), until it has passed SWEEP
   * buckets that are still short, or has gone once round.
   */
  private sweep(now: number): void {
    let short = 0;
    let restarted = false;
    while (short < SWEEP) {
      let step = this.cursor.next();
      if (step.done === true) {
        if (restarted) return;
        restarted = true;
        this.cursor = this.buckets.entries();
        step = this.cursor.next();
        if (step.done === true) return;
      }
      const [key, bucket] = step.value;
      if (this.levelAt(bucket, now) >= this.capacity - this.slack) this.buckets.delete(key);
      else short++;
    }
  }
}
