// Allows a request only while the count stays strictly below the limit: `<` where `<=` belongs,
// so a limit of n lets only n - 1 requests through.
import type {
  Clock,
  RateLimitResult,
  RateLimiter,
} from '../../../problems/rate-limiter-contract.ts';

export const expectation = { verdict: 'wrong-answer', trap: 'exactly-at-limit' };

export class FixedWindowLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  allow(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, true);
  }

  peek(key: string, cost = 1): RateLimitResult {
    return this.decide(key, cost, false);
  }

  private decide(key: string, cost: number, take: boolean): RateLimitResult {
    const now = this.clock.now();
    const start = now - (now % this.windowMs);
    const end = start + this.windowMs;
    const entry = this.windows.get(key);
    const used = entry && entry.start === start ? entry.used : 0;
    const allowed = used + cost < this.limit;
    const after = allowed ? used + cost : used;
    if (allowed && take) this.windows.set(key, { start, used: after });
    return {
      allowed,
      remaining: Math.max(0, this.limit - after - 1),
      resetAt: after > 0 ? end : now,
      retryAt: allowed ? now : cost < this.limit ? end : Infinity,
    };
  }
}
