// The reference with its buckets in one map at module level: every limiter, whatever its capacity
// and rate, reads and spends the same buckets (the high-water mark stays per instance).
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

/**
 * How far short of a target a level may be and still count: what the bucket
 * gains in EPSILON seconds (10 microseconds), ...
 */
const EPSILON = 1e-5;
/** ... and never more than this many tokens. */
const MAX_SLACK = 1e-7;
/** Short buckets the eviction cursor passes per call. */
const SWEEP = 2;

interface Bucket {
  /** The level right after the last allowed request. */
  tokens: number;
  /** When that request was allowed (effective time, ms). */
  last: number;
}

/** Buckets not known to be full, of every limiter at once: module-level. */
const buckets = new Map<string, Bucket>();

export class TokenBucketLimiter implements RateLimiter {
  /**
   * The latest clock reading seen by any call: the limiter's "now" never goes
   * below it.
   */
  private mark = -Infinity;
  private cursor: Iterator<[string, Bucket]>;
  /** min(EPSILON · refillPerSecond, MAX_SLACK), in tokens. */
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
    this.slack = Math.min(EPSILON * refillPerSecond, MAX_SLACK);
    this.cursor = buckets.entries();
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
    const bucket = buckets.get(key);
    const level = bucket === undefined ? this.capacity : this.levelAt(bucket, now);
    // A cost above capacity never passes: the level never exceeds capacity,
    // costs are whole numbers, and the slack is far below a token.
    const allowed = level >= cost - this.slack;
    // Within the slack the level may sit a hair below cost: no debt is kept.
    const after = allowed ? Math.max(0, level - cost) : level;
    if (allowed && take) {
      if (bucket === undefined) buckets.set(key, { tokens: after, last: now });
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
    // A level is never above its target by more than the slack (the level never
    // exceeds capacity, and a refused request is short of its cost), and the
    // slack is worth at most 10 µs: a level already there gives ceil of at
    // least −0.01, which is (−)0.
    return Math.ceil(((target - level - this.slack) * 1000) / this.refillPerSecond);
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
        this.cursor = buckets.entries();
        step = this.cursor.next();
        if (step.done === true) return;
      }
      const [key, bucket] = step.value;
      if (this.levelAt(bucket, now) >= this.capacity - this.slack) buckets.delete(key);
      else short++;
    }
  }
}
