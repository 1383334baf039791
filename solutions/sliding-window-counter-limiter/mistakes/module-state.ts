// Keeps the counts and the time at module level, so every limiter shares them.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'instance-isolation' };

// Shared by every instance.
let mark = -Infinity;
let window = -Infinity;
let current = new Map<string, number>();
let previous = new Map<string, number>();

export class SlidingWindowCounterLimiter implements RateLimiter {
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
    const start = window * W;
    const prev = previous.get(key) ?? 0;
    const curr = current.get(key) ?? 0;
    const fits = cost <= this.limit ? (this.limit - cost + 1) * W : 0;
    const allowed = prev * (W - (now - start)) + curr * W < fits;
    const after = allowed ? curr + cost : curr;
    if (allowed && take) current.set(key, after);
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

  private tick(): number {
    const now = Math.max(mark, this.clock.now());
    mark = now;
    const w = Math.floor(now / this.windowMs);
    if (w !== window) {
      previous = w === window + 1 ? current : new Map();
      current = new Map();
      window = w;
    }
    return now;
  }
}

function firstOffset(weight: number, room: number, from: number, W: number): number {
  if (room <= 0) return W;
  if (weight * (W - from) < room) return from;
  return Math.min(W, Math.floor((weight * W - room) / weight) + 1);
}
