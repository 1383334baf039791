// Right but for remaining, worked out as ceil(limit - weighted - 1) from the weighted count before
// the request: one too few after a denial (the request took nothing), too many after a heavy
// allowed one, and below 0 when the window is over full. Reads only the clock it is handed.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'honest-remaining' };

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

    return {
      allowed,
      remaining: Math.ceil(this.limit - (prev * (W - (now - start)) + curr * W) / W - 1),
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
