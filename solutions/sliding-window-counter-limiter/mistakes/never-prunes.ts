// Keeps a record (window, previous count, current count) for every key it has ever seen and rolls
// it forward only when that key comes back: right answers, but memory grows with every key, forever.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

interface Entry {
  window: number;
  prev: number;
  curr: number;
}

export class SlidingWindowCounterLimiter implements RateLimiter {
  private mark = -Infinity;
  private readonly keys = new Map<string, Entry>();

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
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const W = this.windowMs;
    const window = Math.floor(now / W);
    const start = window * W;
    const entry = this.keys.get(key);
    let prev = 0;
    let curr = 0;
    if (entry?.window === window) {
      prev = entry.prev;
      curr = entry.curr;
    } else if (entry?.window === window - 1) {
      prev = entry.curr;
    }
    const fits = cost <= this.limit ? (this.limit - cost + 1) * W : 0;
    const allowed = prev * (W - (now - start)) + curr * W < fits;
    const after = allowed ? curr + cost : curr;
    if (allowed && take) this.keys.set(key, { window, prev, curr: after });
    const free = this.limit * W - prev * (W - (now - start)) - after * W;
    return {
      allowed,
      remaining: free > 0 ? Math.ceil(free / W) : 0,
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
}

function firstOffset(weight: number, room: number, from: number, W: number): number {
  if (room <= 0) return W;
  if (weight * (W - from) < room) return from;
  return Math.min(W, Math.floor((weight * W - room) / weight) + 1);
}
