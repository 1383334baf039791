// Reference: a token-bucket rate limiter, one bucket per key. A bucket holds up
// to `capacity` tokens and gains `refillPerSecond` tokens per second; a request
// of `cost` passes when the bucket holds at least `cost` tokens, and takes
// them. A key never seen has a full bucket.
//
// Lazy refill. A bucket keeps two numbers: its level when it was last charged
// (`tokens`) and that time (`last`). Its level at any later time is
//
//     level(now) = min(capacity, tokens + (now − last) · rate / 1000)
//
// which is what a timer adding tokens all along would have reached, with no
// timer and no work while the key is quiet. Only an allowed `allow` writes the
// bucket, and it writes both numbers from one reading of the clock: the level
// it computed, less the cost, and `now`. That keeps every fraction of a token
// already earned. Rounding the level down to whole tokens while moving `last`
// to now would throw away the fraction each time, and a client that calls more
// often than once a token would never be refilled (no-drift).
//
// Why it is right: the level above is the closed form of the bucket; a denied
// request writes nothing, so it costs nothing and moves nothing
// (denied-is-free); the min() is the cap (refill-cap).
//
// The answer, `after` being the level once this request is taken (if allowed):
// - remaining = floor(after): whole tokens, each one cost-1 request that would
//               pass at this same instant.
// - resetAt   = the first whole millisecond at which level >= capacity again;
//               from then on the key answers exactly like a key never seen.
// - retryAt   = now if allowed; else the first whole millisecond at which
//               level >= cost, i.e. now + ceil((cost − level) · 1000 / rate);
//               Infinity when cost > capacity, since the bucket never holds it.
//
// Decimals and rounding. A rate such as 0.769 has no exact binary form, so the
// level carries rounding errors of about 1e-16 · capacity per operation, and a
// level that is exactly enough can come out a hair short. Every comparison
// therefore allows a slack, far above those errors; and it must stay far below
// anything real, or it turns into wrong answers of its own:
// - at whole-millisecond times, with a rate of at most three decimals, a level
//   is a whole number of millionths of a token, so two levels that differ
//   differ by at least 1e-6 tokens: the slack is at most 1e-7 tokens;
// - a time is the first whole millisecond at which a level is reached, so the
//   slack must be worth far less than a millisecond of refill, however slow
//   the rate: it is at most what 10 microseconds add (1e-5 · rate tokens). At
//   0.001 tokens a second a millisecond is worth 1e-6 tokens, and a slack of
//   1e-9 · capacity tokens would be a whole millisecond for a bucket of 1000.
// Within those bounds (rates of at most three decimals, whole-millisecond
// clocks) the slack never lets through a request that exact decimal arithmetic
// refuses, never makes `remaining` exceed the exact count, and never makes a
// time early; turning a deficit into milliseconds takes the slack off before
// rounding up, so that an exact 200 ms computed as 200.00000000000003 is not
// pushed to 201. (Rounding errors grow with the capacity, ~1e-16 of it per
// operation, while the slack is at most 1e-7 tokens and shrinks with slow
// rates: in a bucket of 10^9 whose arithmetic is not exact, or one of 10^6 at
// 10^-4 tokens a second or less, they can outgrow it, and an exact tie may then
// come out a millisecond late. Doubles cannot do better in general; integers of
// millionths of a token could.)
//
// Idle eviction. A full bucket answers exactly like no bucket, so it can be
// dropped, and must be: a limiter that meets a million keys once would
// otherwise hold a million buckets forever. A key is dropped once its own
// bucket is full again, not after some fixed idle time (a key that is still
// short must keep its state, or it would get free tokens), and not after the
// longest refill any key could need (a key that spent one token is full again
// long before one that spent them all). No timer: every call moves a cursor on
// round the map, deleting each bucket it passes that is full by now, until it
// has passed SWEEP buckets that are still short. A call adds at most one
// bucket and passes at least two, so the cursor goes round the whole map
// within a number of calls proportional to its size, and the map holds the
// keys that were short during the last round: it follows the active keys,
// whatever the number of keys ever seen. Each bucket is deleted once, so the
// deletions cost O(1) per bucket ever made. (A Map's iterator stays valid
// while entries are deleted and added.)
//
// Clock faults: one high-water mark for the whole limiter. Every call reads the
// clock once and raises the mark; a reading below it acts as the mark. So
// elapsed time is never negative (no tokens taken back, no lock-out), and when
// the clock catches up, the time it already paid for pays nothing again.
//
// Cost: O(1) time per call, amortised (one map lookup, the cursor's steps).
// Memory: two numbers per key whose bucket was short when the cursor last
// passed it.
//
// Traps it avoids: a new key starts full (new-key-full); the level is capped
// (refill-cap); only an allowed allow writes (denied-is-free); cost > capacity
// is refused with retryAt Infinity (cost-over-capacity); exact ties allowed
// despite rounding (fractional-rate, no-drift), with a slack far below a
// millisecond's refill and a token (extreme-settings); the mark
// (clock-backwards); ceil, from the exact level, for retryAt
// (retry-at-is-exact) and resetAt (reset-and-retry); a Map per
// instance (key-isolation, instance-isolation, prototype-keys); full buckets
// swept (idle-eviction); the clock given, never the real time
// (injected-clock); peek shares the decision and writes nothing
// (peek-is-pure); validation before any change (bad-input).
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

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
