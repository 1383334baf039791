// Caps the number of keys by starting over with an empty map whenever it holds 1000: memory stays
// bounded, but keys that are still short of quota are forgotten with the rest, and get a whole
// new burst.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'accepted', trap: 'idle-eviction' };
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
    // Ticks of 1 / limit ms, in which T is periodMs.
    const t = now * this.limit;
    const capacity = this.burst * this.periodMs;
    const tat = Math.max(this.tats.get(key) ?? t, t);
    const next = tat + cost * this.periodMs;
    const allowed = next - t <= capacity;
    const after = allowed ? next : tat;
    if (allowed && take) {
      if (this.tats.size >= 1000 && !this.tats.has(key)) this.tats.clear();
      this.tats.set(key, after);
    }
    return {
      allowed,
      remaining: Math.floor((capacity - (after - t)) / this.periodMs),
      resetAt: after > t ? Math.ceil(after / this.limit) : now,
      retryAt: allowed
        ? now
        : cost > this.burst
          ? Infinity
          : Math.ceil((next - capacity) / this.limit),
    };
  }
}
