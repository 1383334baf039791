// Right answers, and a cursor that drops full buckets as it goes round the map, but it stops at the
// first bucket still short: one per call. While every call brings a new key, the map grows by one
// bucket per call as fast as the cursor moves, so it never gets round to the buckets behind it,
// full by then but never dropped: memory grows with every key of the stream.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'idle-eviction' };

/**
 * How far short of a target a level may be and still count: what the bucket
 * gains in EPSILON seconds (10 microseconds), ...
 */
const EPSILON = 1e-5;
/** ... and never more than this many tokens. */
const MAX_SLACK = 1e-7;
/** Short buckets the eviction cursor passes per call: one, no more than a call adds. */
const SWEEP = 1;

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
    // A cost above capacity never passes: the level never exceeds capacity,
    // costs are whole numbers, and the slack is far below a token.
    const allowed = level >= cost - this.slack;
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
