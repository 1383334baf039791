// Reference: a sliding-window counter. Time is cut into fixed windows
// [k·W, (k+1)·W) on the clock's own time line, and each key keeps two counts:
// what it spent in the current window and what it spent in the one just
// before. The previous window's count is then weighted by how much of it a
// window of length W ending now would still cover: at `e` ms into the current
// window,
//
//     weighted = prev · (W − e) / W + curr
//
// and a request of `cost` is allowed when weighted + cost − 1 < limit (for cost
// 1: weighted < limit). The weighting assumes the previous window's requests
// were spread evenly over it: it is an estimate of a sliding log's count, exact
// only when that is so, for O(1) memory per key instead of one timestamp per
// request.
//
// Integers, not fractions. Every comparison is multiplied through by W, so the
// limiter only ever compares integers: the "load" of a key is
// prev · (W − e) + curr · W, and weighted < x is load < x · W.
// `prev · (1 − e / W)` looks the same but is not: 1 − 340 / 1000 is
// 0.6599999999999999 in binary floating point, so 50 · (1 − 0.34) + 17 comes
// out just below 50 and a request that the formula says to refuse is let
// through. With the constraints (limit · W well below 2^53) every product here
// is an exact integer, and so is the floor of a quotient of two of them.
//
// The answer, once the request has (or has not) been counted:
// - remaining: the j-th further cost-1 request passes while
//   load + (j − 1) · W < limit · W, so
//   remaining = ceil((limit · W − load) / W), and 0 if that is negative. Not
//   the floor of limit − weighted − 1 that many write: with weighted 2.8 and
//   limit 5, two more requests pass (3.8 and 4.8 are both below 5), not one.
// - resetAt: a key answers like a key never seen (allowed, with remaining
//   limit − 1) exactly when its load is below W: one full request's worth. The
//   load never grows while nobody calls, so resetAt is the first millisecond at
//   which it drops below W.
// - retryAt: a request of `cost` passes exactly when
//   load < (limit − cost + 1) · W; so retryAt is the first millisecond at which
//   the load drops below that, and Infinity when cost > limit.
// The load falls linearly within the current window (prev's weight shrinks),
// then in the next window it is curr · (W − e) (the current count has become
// the previous one), and from the window after that on it is 0. So "the first
// millisecond the load is below x" is found window by window by solving
// p · (W − e) + fixed < x for the smallest whole e: see `earliest`.
//
// One map per window. The limiter's time never goes back (see `tick`), so it
// keeps just two maps: counts for the current window and for the previous one.
// When the time enters the next window, the current map becomes the previous
// one and a fresh map starts; when it jumps two or more windows, both start
// empty. A key's state is dropped with its map, as soon as it can no longer
// matter, at O(1) cost: memory is bounded by the keys active in the last two
// windows.
//
// Clock faults: one high-water mark for the whole limiter. Every call reads the
// clock once and raises the mark; a reading below it acts as the mark. A step
// back cannot reopen a window whose counts were rolled forward or dropped, and
// no stretch of time is counted twice.
//
// Cost: O(1) time per call (two map lookups, a few multiplications); memory
// O(keys active in the current and previous windows).
//
// Traps it avoids: the current count becomes the previous one exactly one
// window later (roll-forward), and both are zero two or more windows later
// (stale-previous); allowed iff weighted + cost − 1 < limit, not
// weighted + cost <= limit (weighted-edge); remaining counts what really passes
// (honest-remaining); integer arithmetic (float-edge); resetAt and retryAt by
// their definitions (reset-and-retry); only allowed requests count
// (denied-is-free); peek records nothing (peek-is-pure); the clock given, never
// the real time (injected-clock); per-key counts in maps on the instance
// (key-isolation, instance-isolation); old windows dropped (bounded-memory);
// the mark (clock-backwards); validation before any change (bad-input).
import type { Clock, RateLimitResult, RateLimiter } from '../../problems/rate-limiter-contract.ts';

export class SlidingWindowCounterLimiter implements RateLimiter {
  /**
   * The latest clock reading seen by any call: the limiter's "now" never goes
   * below it.
   */
  private mark = -Infinity;
  /** The index k of the window [k·W, (k+1)·W) that holds the mark. */
  private window = -Infinity;
  /** Counts per key in window `window`, and in window `window − 1`. */
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

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
    const W = this.windowMs;
    const start = this.window * W;
    const prev = this.previous.get(key) ?? 0;
    const curr = this.current.get(key) ?? 0;
    // Allowed iff load < (limit − cost + 1)·W. A cost above the limit never
    // fits: no arithmetic with it (a cost of 1e21 would lose the small terms).
    const fits = cost <= this.limit ? (this.limit - cost + 1) * W : 0;
    const allowed = fits > 0 && prev * (W - (now - start)) + curr * W < fits;
    const after = allowed ? curr + cost : curr;
    if (allowed && take) this.current.set(key, after);
    const load = prev * (W - (now - start)) + after * W;
    const free = this.limit * W - load;
    return {
      allowed,
      remaining: free > 0 ? Math.ceil(free / W) : 0,
      resetAt: this.earliest(now, start, prev, after, W),
      retryAt: allowed ? now : this.earliest(now, start, prev, curr, fits),
    };
  }

  /**
   * The first whole millisecond t >= now at which the load of a key whose
   * counts are `prev` and `curr` (previous and current window, from `start`) is
   * below `bound`, if it sends nothing more; Infinity if never. The load is
   * prev·(W − e) + curr·W in this window, curr·(W − e) in the next, and 0 from
   * the one after.
   */
  private earliest(now: number, start: number, prev: number, curr: number, bound: number): number {
    if (bound <= 0) return Infinity;
    const W = this.windowMs;
    const here = firstOffset(prev, bound - curr * W, now - start, W);
    if (here < W) return start + here;
    const next = firstOffset(curr, bound, 0, W);
    return next < W ? start + W + next : start + 2 * W;
  }

  /**
   * Reads the clock and raises the mark. When the mark enters the next window,
   * the current counts become the previous ones; when it skips a window or
   * more, both are dropped.
   */
  private tick(): number {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.previous = window === this.window + 1 ? this.current : new Map();
      this.current = new Map();
      this.window = window;
    }
    return now;
  }
}

/**
 * The first whole offset e, from `from` on and below W, with
 * weight·(W − e) < room; W if there is none in the window.
 *
 *     weight·(W − e) < room  ⇔  weight·e > weight·W − room
 *                            ⇔  e >= floor((weight·W − room) / weight) + 1
 */
function firstOffset(weight: number, room: number, from: number, W: number): number {
  if (room <= 0) return W;
  if (weight * (W - from) < room) return from;
  return Math.min(W, Math.floor((weight * W - room) / weight) + 1);
}
