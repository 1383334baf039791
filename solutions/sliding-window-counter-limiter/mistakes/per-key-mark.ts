// Keeps a high-water mark per key instead of one for the whole limiter: a key first seen after the
// clock stepped back is judged at the earlier time, and answers with times the limiter has passed.
// (It drops records two windows old whenever a call enters a new window, so memory stays bounded.)
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'clock-backwards' };

interface Entry {
  mark: number;
  window: number;
  prev: number;
  curr: number;
}

export class SlidingWindowCounterLimiter implements RateLimiter {
  private readonly keys = new Map<string, Entry>();
  private swept = -Infinity;

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
    const W = this.windowMs;
    const entry = this.keys.get(key) ?? { mark: -Infinity, window: -Infinity, prev: 0, curr: 0 };
    const now = Math.max(entry.mark, this.clock.now());
    entry.mark = now;
    this.keys.set(key, entry);
    const window = Math.floor(now / W);
    if (window > this.swept) {
      this.swept = window;
      for (const [k, e] of this.keys) if (e.window < window - 1 && k !== key) this.keys.delete(k);
    }
    if (window !== entry.window) {
      entry.prev = window === entry.window + 1 ? entry.curr : 0;
      entry.curr = 0;
      entry.window = window;
    }
    const start = window * W;
    const { prev, curr } = entry;
    const fits = cost <= this.limit ? (this.limit - cost + 1) * W : 0;
    const allowed = prev * (W - (now - start)) + curr * W < fits;
    const after = allowed ? curr + cost : curr;
    if (allowed && take) entry.curr = after;
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
