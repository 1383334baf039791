// Reference: the Generic Cell Rate Algorithm (GCRA). Requests are meant to
// arrive one emission interval T = periodMs / limit apart; a key may run ahead
// of that schedule by at most a tolerance, so that `burst` requests fit at one
// instant. Each key keeps one number, its theoretical arrival time (TAT): the
// moment at which the key would be exactly on schedule again, as if every
// request it was granted had come in its own interval. A key never seen, or one
// whose TAT is past, is on schedule now.
//
// Why it is right: a request of `cost` at time t moves the schedule to
//
//     TAT' = max(TAT, t) + cost · T
//
// (`max`: time the key spent idle earns it no more than being on schedule, so
// a TAT left in the past counts as now), and it is allowed when that new TAT
// is at most burst · T ahead of now: TAT' − t <= burst · T. At one instant a
// fresh key then gets exactly `burst` requests (TAT' − t = T, 2T, … burst·T),
// which is why the tolerance proper is (burst − 1) · T: the first request
// needs no tolerance at all. A denied request leaves TAT as it was.
//
// The same thing as a token bucket of capacity `burst` refilled at limit per
// periodMs: the tokens a key holds at t are burst − (max(TAT, t) − t) / T, and
// "TAT' − t <= burst · T" is "tokens >= cost". One number, no refill step: the
// bucket's level is read off the distance between TAT and now.
//
// Exact arithmetic. T is often not a whole number (1000 ms / 3), and adding a
// floating-point T again and again drifts: a request that is due exactly then
// is refused, or one that is early passes. So the limiter counts time in ticks
// of 1 / limit ms: a time of t ms is t · limit ticks, T is periodMs ticks and
// burst · T is burst · periodMs ticks, all whole numbers. Sums, differences and
// comparisons of whole numbers below 2^53 are exact in a double, and so are the
// floor and the ceiling of a quotient of two of them: with the follow-ups'
// ranges (a clock below 4·10^12 ms, limit <= 1000) every tick count is below
// 2^53.
//
// The answer, with `after` the TAT once this request is (or is not) taken and
// t = now, all in ticks:
// - allowed   = TAT' − t <= burst · periodMs.
// - remaining = floor((burst · periodMs − (after − t)) / periodMs): the whole
//               tokens left, literal on a denial too.
// - resetAt   = the first whole ms at or after `after`, when the key is on
//               schedule again and answers like a new one; now if it already
//               is (after <= t).
// - retryAt   = now if allowed; Infinity if cost > burst (more than a full
//               bucket); else the first whole ms s with TAT' − s <= burst · T,
//               that is ceil((TAT' − burst · periodMs) / limit).
// peek computes the same answer and skips the one line that records it.
//
// Memory. A key answers like a new one once its TAT is past, and the TAT a
// write leaves is at most burst · T after the write: so no entry can matter
// for longer than `lifetime` = burst · T (in whole ms, rounded up) after it was
// written. Like a two-window counter, the limiter keeps two generations: every
// write goes to `current`; once the clock has moved `lifetime` past the last
// turn, `previous` (written before that turn, so over for good) is dropped
// whole and `current` becomes `previous`. Dropping is O(1), no timers, and
// memory is bounded by the keys written in the last two lifetimes.
//
// Clock faults: one high-water mark for the whole limiter. Every call reads the
// clock once and raises the mark; a reading below it acts as the mark. A step
// back then never makes a TAT look further ahead than it is, nor lets a stretch
// of time be spent twice.
//
// Cost: O(1) time per call (at most two map lookups and a few integer
// operations); memory O(keys written in the last 2 · burst · T).
//
// Traps it avoids: exactly `burst` at one instant, not burst ± 1
// (burst-off-by-one); `<=` at TAT' − t = burst · T, and floor, not rounding, of
// the tokens (half-interval-early, golden-vectors); max(TAT, now)
// (tat-in-the-past); denied requests store nothing (denied-changes-nothing);
// cost > burst is never allowed, retryAt Infinity (cost-over-burst); ticks, not
// floating-point milliseconds (exact-arithmetic); no 32-bit arithmetic on
// times (long-idle); the mark (clock-backwards); a Map per instance
// (key-isolation, instance-isolation, prototype-keys); generations dropped by
// the clock (idle-eviction); the clock given, never the real time
// (injected-clock); peek records nothing (peek-is-pure); validation before any
// change (bad-input).
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

export class GcraLimiter implements RateLimiter {
  /** The emission interval T, in ticks of 1 / limit ms. */
  private readonly interval: number;
  /** How far ahead of now a TAT may be after a request: burst · T, in ticks. */
  private readonly capacity: number;
  /** How long, in whole ms, a written TAT can stay ahead of the clock. */
  private readonly lifetime: number;
  /** The latest clock reading seen by any call: "now" never goes below it. */
  private mark = -Infinity;
  /** TATs in ticks: written since the last turn, and in the one before. */
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  private turnedAt = -Infinity;

  constructor(
    private readonly limit: number,
    periodMs: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    for (const [name, value] of [
      ['limit', limit],
      ['periodMs', periodMs],
      ['burst', burst],
    ] as const) {
      if (!Number.isInteger(value) || value <= 0) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
      }
    }
    this.interval = periodMs;
    this.capacity = burst * periodMs;
    this.lifetime = Math.ceil(this.capacity / limit);
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
    const now = this.tick();
    const t = now * this.limit;
    const tat = Math.max(this.current.get(key) ?? this.previous.get(key) ?? t, t);
    const next = tat + cost * this.interval;
    const allowed = next - t <= this.capacity;
    const after = allowed ? next : tat;
    if (allowed && take) this.current.set(key, after);
    return {
      allowed,
      remaining: Math.floor((this.capacity - (after - t)) / this.interval),
      resetAt: after > t ? this.toMs(after) : now,
      retryAt: allowed ? now : cost > this.burst ? Infinity : this.toMs(next - this.capacity),
    };
  }

  /**
   * The first whole millisecond at or after a time in ticks. Exact: both are
   * whole numbers below 2^53. (`+ 0` turns the -0 of a time just below zero
   * into 0.)
   */
  private toMs(ticks: number): number {
    return Math.ceil(ticks / this.limit) + 0;
  }

  /**
   * Reads the clock, raises the mark, and turns the generations once the mark
   * is a lifetime past the last turn.
   */
  private tick(): number {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    if (now - this.turnedAt >= this.lifetime) {
      // `previous` holds writes from before the last turn, a lifetime ago or
      // more: every TAT in it is past. `current` may still matter.
      this.previous = this.current;
      this.current = new Map();
      this.turnedAt = now;
    }
    return now;
  }
}
