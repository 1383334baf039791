// Reference: a fixed-window rate limiter. Time is cut into windows
// [k·W, (k+1)·W) on the clock's own time line, and each key may spend `limit`
// units in each window. The limiter keeps the count of every key that spent
// something in the current window, and nothing else.
//
// Why it is right: a request is allowed when what its key used in this window
// plus its cost is at most `limit` (`<=`: exactly at the limit is still inside
// it), and only an allowed request adds to the count, so a denied one changes
// nothing. A key that used nothing in this window answers as a key never seen,
// whatever it did in earlier windows: counts never carry over.
//
// One map for the whole current window. Time as the limiter sees it never goes
// back (see `tick`), so once a new window begins no key's count from an earlier
// one can matter again. Rather than remember a window number per key and clear
// counts one key at a time, the limiter starts a fresh, empty map when the
// window changes and lets the old one go: dropping every finished window is
// then O(1), and memory is bounded by the keys active in the current window.
//
// The answer, for a key that has used `used` units of this window [start, end):
// - allowed   = used + cost <= limit; `after` = used + cost if allowed,
//               else used.
// - remaining = limit - after: literal, on a denial too (the units are
//               still there for cost 1).
// - resetAt   = end if after > 0 (the count lasts until the window ends), else
//               now: a key with nothing counted already answers like a new one.
// - retryAt   = now if allowed; else end if cost <= limit (the next window
//               starts empty); else Infinity (no window is big enough).
// peek computes the same answer and skips the one line that records it.
//
// Clock faults: one high-water mark for the whole limiter. Every call reads the
// clock once and raises the mark; a reading below it acts as the mark. So a
// step back neither reopens an old window (whose counts are gone) nor lets a
// window's quota be spent twice.
//
// Cost: O(1) time per call (one map lookup; a window change drops the old map
// whole). Memory O(keys that spent something in the current window).
//
// Traps it avoids: `<=` at the limit (exactly-at-limit); windows aligned to
// multiples of W, the end belonging to the next window (window-edge); a burst
// of `limit` at the end of one window and another at the start of the next are
// both allowed, as the algorithm says (boundary-burst); only allowed requests
// count (denied-changes-nothing); peek records nothing (peek-is-pure); the
// clock given, never the real time (injected-clock); a Map, not `{}`
// (prototype-keys); state on the instance (instance-isolation); finished
// windows dropped (bounded-memory); validation before any change (bad-input).
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

export class FixedWindowLimiter implements RateLimiter {
  /**
   * The latest clock reading seen by any call: the limiter's "now" never goes
   * below it.
   */
  private mark = -Infinity;
  /**
   * Where the current window starts; `used` holds counts for this window only.
   */
  private windowStart = -Infinity;
  private used = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(limit) || limit <= 0) {
      throw new RangeError(`limit must be a positive integer, got ${limit}`);
    }
    if (!Number.isInteger(windowMs) || windowMs <= 0) {
      throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`);
    }
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
    const end = this.windowStart + this.windowMs;
    const used = this.used.get(key) ?? 0;
    const allowed = used + cost <= this.limit;
    const after = allowed ? used + cost : used;
    if (allowed && take) this.used.set(key, after);
    return {
      allowed,
      remaining: this.limit - after,
      resetAt: after > 0 ? end : now,
      retryAt: allowed ? now : cost <= this.limit ? end : Infinity,
    };
  }

  /**
   * Reads the clock, raises the mark, and starts a fresh window once the mark
   * has left the old.
   */
  private tick(): number {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    // `%` of two integers is exact in floating point; the second `%` handles
    // times below zero.
    const start = now - (((now % this.windowMs) + this.windowMs) % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.used = new Map();
    }
    return now;
  }
}
