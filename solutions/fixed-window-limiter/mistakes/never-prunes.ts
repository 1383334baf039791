// Keeps a window start and a count for every key it has ever seen, and resets a key's count only
// when that key comes back: right answers, but memory grows with every key, forever.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'bounded-memory' };

export class FixedWindowLimiter implements RateLimiter {
  private mark = -Infinity;
  private readonly windows = new Map<string, { start: number; used: number }>();

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
    const start = now - (now % this.windowMs);
    const end = start + this.windowMs;
    const entry = this.windows.get(key);
    const used = entry && entry.start === start ? entry.used : 0;
    const allowed = used + cost <= this.limit;
    const after = allowed ? used + cost : used;
    if (allowed && take) this.windows.set(key, { start, used: after });
    return {
      allowed,
      remaining: this.limit - after,
      resetAt: after > 0 ? end : now,
      retryAt: allowed ? now : cost <= this.limit ? end : Infinity,
    };
  }
}
