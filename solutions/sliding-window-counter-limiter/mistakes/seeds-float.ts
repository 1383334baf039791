// The course's weight in floating point, prev * (1 - e / W): 1 - 340 / 1000 is
// 0.6599999999999999, so a weighted count exactly at the limit can come out just below it.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'float-edge' };

export class SlidingWindowCounterLimiter implements RateLimiter {
  private mark = -Infinity;
  private window = -Infinity;
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError('bad limit');
    if (!Number.isInteger(windowMs) || windowMs <= 0) throw new RangeError('bad windowMs');
  }

  allow(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    if (!Number.isInteger(cost) || cost <= 0) throw new RangeError('bad cost');
    const now = this.tick();
    const W = this.windowMs;
    const start = this.window * W;
    const prev = this.previous.get(key) ?? 0;
    const curr = this.current.get(key) ?? 0;
    // The previous window's share of the weighted count, as a fraction.
    const share = prev * (1 - (now - start) / W);
    const allowed = cost <= this.limit && share + curr + cost - 1 < this.limit;
    const after = allowed ? curr + cost : curr;
    if (allowed && take) this.current.set(key, after);
    const fits = cost <= this.limit ? (this.limit - cost + 1) * W : 0;
    return {
      allowed,
      remaining: Math.max(0, Math.ceil(this.limit - share - after)),
      resetAt: this.earliest(now, start, prev, after, W),
      retryAt: allowed ? now : this.earliest(now, start, prev, curr, fits),
    };
  }

  private earliest(now: number, start: number, prev: number, curr: number, bound: number): number {
    if (bound <= 0) return Infinity;
    const W = this.windowMs;
    const here = firstOffset(prev, bound - curr * W, now - start, W);
    if (here < W) return start + here;
    const next = firstOffset(curr, bound, 0, W);
    return next < W ? start + W + next : start + 2 * W;
  }

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

function firstOffset(weight: number, room: number, from: number, W: number): number {
  if (room <= 0) return W;
  if (weight * (W - from) < room) return from;
  return Math.min(W, Math.floor((weight * W - room) / weight) + 1);
}
