// Keeps arrival times in floating-point milliseconds and adds T = periodMs / limit to them:
// with a T such as 1000 / 3 every sum is rounded, and a request due exactly now is refused.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'exact-arithmetic' };
export class GcraLimiter implements RateLimiter {
  private mark = -Infinity;
  private readonly tats = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly periodMs: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError('bad limit');
    if (!Number.isInteger(periodMs) || periodMs <= 0) throw new RangeError('bad periodMs');
    if (!Number.isInteger(burst) || burst <= 0) throw new RangeError('bad burst');
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
    const interval = this.periodMs / this.limit;
    const capacity = this.burst * interval;
    const tat = Math.max(this.tats.get(key) ?? now, now);
    const next = tat + cost * interval;
    const allowed = next - now <= capacity;
    const after = allowed ? next : tat;
    if (allowed && take) this.tats.set(key, after);
    return {
      allowed,
      remaining: Math.floor((capacity - (after - now)) / interval),
      resetAt: after > now ? Math.ceil(after) : now,
      retryAt: allowed ? now : cost > this.burst ? Infinity : Math.ceil(next - capacity),
    };
  }
}
