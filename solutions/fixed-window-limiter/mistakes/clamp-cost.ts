// Clamps the cost to the limit, so a request bigger than the limit passes in an empty window.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'cost-over-limit' };

export class FixedWindowLimiter implements RateLimiter {
  private mark = -Infinity;
  private windowStart = -Infinity;
  private used = new Map<string, number>();

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
    const end = this.windowStart + this.windowMs;
    const used = this.used.get(key) ?? 0;
    cost = Math.min(cost, this.limit);
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

  private tick(): number {
    const now = Math.max(this.mark, this.clock.now());
    this.mark = now;
    const start = now - (now % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.used = new Map();
    }
    return now;
  }
}
