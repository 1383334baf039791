// Rounds T = periodMs / limit to whole milliseconds: 1000 / 3 becomes 333, and the key gets a
// little more than its rate, a millisecond every third request.
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
    const interval = Math.round(this.periodMs / this.limit);
    const capacity = this.burst * interval;
    const tat = Math.max(this.tats.get(key) ?? now, now);
    const next = tat + cost * interval;
    const allowed = next - now <= capacity;
    const after = allowed ? next : tat;
    if (allowed && take) this.tats.set(key, after);
    return {
      allowed,
      remaining: Math.floor((capacity - (after - now)) / interval),
      resetAt: after > now ? after : now,
      retryAt: allowed ? now : cost > this.burst ? Infinity : next - capacity,
    };
  }
}
